#include <string>

#include "model/element_parsers.h"
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
  }
}

}  // namespace

void parse_sensor(AttributeReader& reader, const SensorKind& kind, SensorSpec& sensor) {
  sensor.type = reader.node().name;
  reader.read("name", sensor.name);
  reader.read("noise", sensor.noise);
  reader.read("cutoff", sensor.cutoff);
  reader.has("user");
  read_sensor_objects(reader, kind.object, sensor);
  if (sensor.cutoff < 0) reader.fail(element(reader) + " 'cutoff' must not be negative");
  if (sensor.noise < 0) reader.fail(element(reader) + " 'noise' must not be negative");
  reader.finish();
}

}  // namespace pliant
