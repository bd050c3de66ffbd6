#include <initializer_list>
#include <sstream>
#include <string>
#include <utility>

#include "model/element_parsers.h"
#include "model/element_reading.h"
#include "pliant/sensor_types.h"

namespace pliant {
namespace {

// The element's name, as error messages quote it.
std::string element(const AttributeReader& reader) { return "<" + reader.node().name + ">"; }

// A required attribute naming the sensor's object (site, joint, ...).
ObjectType read_required_name(AttributeReader& reader, const char* attribute, std::string& out,
                              ObjectType type) {
  if (!reader.read(attribute, out) || out.empty()) {
    reader.fail(element(reader) + " needs the attribute '" + attribute + "' naming a " + attribute);
  }
  return type;
}

void read_frame_type(AttributeReader& reader, const char* attribute, ObjectType& out) {
  reader.read_keyword(attribute, out,
                      {{"body", ObjectType::kBody},
                       {"xbody", ObjectType::kXBody},
                       {"geom", ObjectType::kGeom},
                       {"site", ObjectType::kSite},
                       {"camera", ObjectType::kCamera}});
}

// One side of a distance sensor: exactly one of geomN and bodyN.
void read_geom_or_body(AttributeReader& reader, const std::string& geom, const std::string& body,
                       std::string& out, ObjectType& type) {
  const bool has_geom = reader.read(geom, out);
  std::string body_name;
  const bool has_body = reader.read(body, body_name);
  if (has_geom == has_body) {
    reader.fail(element(reader) + " needs exactly one of '" + geom + "' and '" + body + "'");
  }
  if (has_body) out = body_name;
  if (out.empty()) reader.fail(element(reader) + " '" + (has_geom ? geom : body) + "' is empty");
  type = has_geom ? ObjectType::kGeom : ObjectType::kBody;
}

// At most one of `attributes` (each naming an object of its type): the
// object and its type, or nothing when none is given.
void read_one_of(AttributeReader& reader,
                 std::initializer_list<std::pair<const char*, ObjectType>> attributes,
                 std::string& out, ObjectType& type) {
  std::string names;
  for (const auto& attribute : attributes) {
    names += std::string(names.empty() ? "" : ", ") + "'" + attribute.first + "'";
  }
  for (const auto& [attribute, kind] : attributes) {
    std::string value;
    if (!reader.read(attribute, value)) continue;
    if (type != ObjectType::kUnknown) {
      reader.fail(element(reader) + " takes at most one of " + names);
    }
    if (value.empty()) reader.fail(element(reader) + " '" + attribute + "' is empty");
    out = value;
    type = kind;
  }
}

// A contact sensor (MuJoCo 3.x): which contacts (first side: a geom, a
// body, a subtree or a site's volume; second side: a geom, body or
// subtree; either may be absent), what it reports of each (data), how many
// (num) and how it reduces them (reduce).
void read_contact_sensor(AttributeReader& reader, SensorSpec& sensor) {
  read_one_of(reader,
              {{"geom1", ObjectType::kGeom},
               {"body1", ObjectType::kBody},
               {"subtree1", ObjectType::kXBody},
               {"site", ObjectType::kSite}},
              sensor.object, sensor.object_type);
  read_one_of(reader,
              {{"geom2", ObjectType::kGeom},
               {"body2", ObjectType::kBody},
               {"subtree2", ObjectType::kXBody}},
              sensor.reference, sensor.reference_type);
  // At most kMaxSlots slots: 17 values each keep sensordata within 1.7 M
  // values (a mutated file asking for 2^31 would overflow its size).
  constexpr int kMaxSlots = 100000;
  int num = 1;
  if (reader.read("num", num) && (num < 1 || num > kMaxSlots)) {
    reader.fail(element(reader) + " 'num' is " + std::to_string(num) + "; accepted: 1 to " +
                std::to_string(kMaxSlots));
  }
  int bits = 1;  // found
  std::string data;
  if (reader.read("data", data)) {
    bits = 0;
    std::istringstream words(data);
    std::string word;
    int last = -1;
    while (words >> word) {
      int k = 0;
      while (k < kContactDataParts && word != kContactDataNames[k]) ++k;
      if (k == kContactDataParts) {
        reader.fail(element(reader) + " 'data' has '" + word +
                    "'; accepted: found, force, torque, dist, pos, normal, tangent");
      }
      if (k <= last) {
        reader.fail(element(reader) + " 'data' lists '" + word +
                    "' out of order or twice; the order is: found force torque dist pos normal "
                    "tangent");
      }
      last = k;
      bits |= 1 << k;
    }
    if (bits == 0) reader.fail(element(reader) + " 'data' is empty");
  }
  int reduce = 0;
  reader.read_keyword("reduce", reduce,
                      {{"none", 0}, {"mindist", 1}, {"maxforce", 2}, {"netforce", 3}});
  sensor.intprm = {bits, reduce, num};
}

// Frame sensors: the measured object (objtype, objname) and, unless the
// kind has none, an optional reference frame (reftype, refname).
void read_frame_objects(AttributeReader& reader, bool has_reference, SensorSpec& sensor) {
  read_frame_type(reader, "objtype", sensor.object_type);
  reader.read("objname", sensor.object);
  if (sensor.object_type == ObjectType::kUnknown || sensor.object.empty()) {
    reader.fail(element(reader) + " needs 'objtype' and 'objname'");
  }
  if (!has_reference) {
    if (reader.has("reftype") || reader.has("refname")) {
      reader.fail(element(reader) + " has no reference frame: remove 'reftype' and 'refname'");
    }
    return;
  }
  read_frame_type(reader, "reftype", sensor.reference_type);
  reader.read("refname", sensor.reference);
  if ((sensor.reference_type == ObjectType::kUnknown) != sensor.reference.empty()) {
    reader.fail(element(reader) + " needs both 'reftype' and 'refname', or neither");
  }
}

// The objects a sensor of this kind measures, by the attributes its kind uses.
void read_sensor_objects(AttributeReader& reader, SensorObject object, SensorSpec& sensor) {
  switch (object) {
    case SensorObject::kNone:
      break;
    case SensorObject::kSite:
      sensor.object_type = read_required_name(reader, "site", sensor.object, ObjectType::kSite);
      break;
    case SensorObject::kJoint:
      sensor.object_type = read_required_name(reader, "joint", sensor.object, ObjectType::kJoint);
      break;
    case SensorObject::kTendon:
      sensor.object_type = read_required_name(reader, "tendon", sensor.object, ObjectType::kTendon);
      break;
    case SensorObject::kActuator:
      sensor.object_type =
          read_required_name(reader, "actuator", sensor.object, ObjectType::kActuator);
      break;
    case SensorObject::kBody:
      sensor.object_type = read_required_name(reader, "body", sensor.object, ObjectType::kBody);
      break;
    case SensorObject::kSiteCamera:
      sensor.object_type = read_required_name(reader, "site", sensor.object, ObjectType::kSite);
      sensor.reference_type =
          read_required_name(reader, "camera", sensor.reference, ObjectType::kCamera);
      break;
    case SensorObject::kGeomPair:
      read_geom_or_body(reader, "geom1", "body1", sensor.object, sensor.object_type);
      read_geom_or_body(reader, "geom2", "body2", sensor.reference, sensor.reference_type);
      break;
    case SensorObject::kFrame:
    case SensorObject::kFrameNoRef:
      read_frame_objects(reader, object == SensorObject::kFrame, sensor);
      break;
    case SensorObject::kContact:
      read_contact_sensor(reader, sensor);
      break;
    case SensorObject::kInsideSite:
      read_frame_objects(reader, false, sensor);
      sensor.reference_type =
          read_required_name(reader, "site", sensor.reference, ObjectType::kSite);
      break;
  }
}

}  // namespace

void parse_sensor(AttributeReader& reader, const SensorKind& kind, SensorSpec& sensor) {
  sensor.type = reader.node().name;
  reader.read("name", sensor.name);
  // A contact sensor has neither noise nor user data (3.3.8 refuses both).
  const bool contact = kind.object == SensorObject::kContact;
  if (!contact) reader.read("noise", sensor.noise);
  reader.read("cutoff", sensor.cutoff);
  if (!contact) read_user_data(reader, sensor.user);
  read_sensor_objects(reader, kind.object, sensor);
  if (sensor.cutoff < 0) reader.fail(element(reader) + " 'cutoff' must not be negative");
  if (sensor.noise < 0) reader.fail(element(reader) + " 'noise' must not be negative");
  reader.finish();
}

}  // namespace pliant
