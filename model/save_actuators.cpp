// <actuator>, <sensor> and <keyframe> of save_xml.

#include <vector>

#include "model/actuator_keywords.h"
#include "model/reload_inputs.h"
#include "model/save_parts.h"
#include "pliant/sensor_types.h"

namespace pliant::save {
namespace {

// The transmission's target attributes.
void set_transmission(const Model& m, int i, XmlElement& e) {
  const Actuators& a = m.actuators;
  const auto& id = a.trn_id[i];
  switch (a.trn_type[i]) {
    case TransmissionType::kJoint:
      e.set("joint", required_name(m, ObjectType::kJoint, id[0], "joint"));
      break;
    case TransmissionType::kJointInParent:
      e.set("jointinparent", required_name(m, ObjectType::kJoint, id[0], "joint"));
      break;
    case TransmissionType::kSliderCrank:
      e.set("cranksite", required_name(m, ObjectType::kSite, id[0], "site"))
          .set("slidersite", required_name(m, ObjectType::kSite, id[1], "site"));
      break;
    case TransmissionType::kTendon:
      e.set("tendon", required_name(m, ObjectType::kTendon, id[0], "tendon"));
      break;
    case TransmissionType::kSite:
      e.set("site", required_name(m, ObjectType::kSite, id[0], "site"));
      if (id[1] >= 0) e.set("refsite", required_name(m, ObjectType::kSite, id[1], "site"));
      break;
    case TransmissionType::kBody:
      e.set("body", required_name(m, ObjectType::kBody, id[0], "body"));
      break;
  }
}

// Every actuator as <general> with its compiled parameters: a position
// actuator's dampratio is already a damping in biasprm[2] (negative, so the
// loader does not convert it again), a muscle's length range is given, and
// limits are on or off by name.
void write_actuator(const Model& m, int i, XmlElement& section) {
  const Actuators& a = m.actuators;
  XmlElement& e = section.add("general");
  set_user(e, m.actuators.user, i);
  e.set_name(a.name[i]);
  e.set("group", a.group[i]);
  set_transmission(m, i, e);
  e.set_bool("ctrllimited", a.ctrl_limited[i])
      .set("ctrlrange", a.ctrl_range[i])
      .set_bool("forcelimited", a.force_limited[i])
      .set("forcerange", a.force_range[i])
      .set_bool("actlimited", a.act_limited[i])
      .set("actrange", a.act_range[i])
      .set("gear", std::span<const double>(a.gear[i]));
  if (a.trn_type[i] == TransmissionType::kSliderCrank) e.set("cranklength", a.crank_length[i]);
  e.set("lengthrange", a.length_range[i])
      .set_bool("actearly", a.actearly[i])
      .set("dyntype", keyword_of<DynamicsType>(kDynamicsKeywords, a.dyn_type[i]))
      .set("gaintype", keyword_of<GainType>(kGainKeywords, a.gain_type[i]))
      .set("biastype", keyword_of<BiasType>(kBiasKeywords, a.bias_type[i]))
      .set("dynprm", std::span<const double>(a.dynprm[i]))
      .set("gainprm", std::span<const double>(a.gainprm[i]))
      .set("biasprm", std::span<const double>(a.biasprm[i]));
}

const char* frame_keyword(ObjectType type) {
  switch (type) {
    case ObjectType::kXBody:
      return "xbody";
    case ObjectType::kGeom:
      return "geom";
    case ObjectType::kSite:
      return "site";
    case ObjectType::kCamera:
      return "camera";
    default:
      return "body";
  }
}

const char* object_word(ObjectType type) {
  switch (type) {
    case ObjectType::kBody:
    case ObjectType::kXBody:
      return "body";
    case ObjectType::kJoint:
      return "joint";
    case ObjectType::kGeom:
      return "geom";
    case ObjectType::kSite:
      return "site";
    case ObjectType::kCamera:
      return "camera";
    case ObjectType::kTendon:
      return "tendon";
    case ObjectType::kActuator:
      return "actuator";
    default:
      return "object";
  }
}

// A sensor by its element, its objects named by the attributes its kind
// reads (sensor_types.h).
void write_sensor(const Model& m, int i, XmlElement& section) {
  const Sensors& s = m.sensors;
  const SensorKind& kind = sensor_kind(s.type[i]);
  XmlElement& e = section.add(kind.element);
  set_user(e, m.sensors.user, i);
  e.set_name(s.name[i]);
  const auto name = [&](ObjectType type, int id) -> const std::string& {
    return required_name(m, type == ObjectType::kXBody ? ObjectType::kBody : type, id,
                         object_word(type));
  };
  switch (kind.object) {
    case SensorObject::kNone:
      break;
    case SensorObject::kSite:
    case SensorObject::kJoint:
    case SensorObject::kTendon:
    case SensorObject::kActuator:
    case SensorObject::kBody:
      e.set(object_word(s.obj_type[i]), name(s.obj_type[i], s.obj_id[i]));
      break;
    case SensorObject::kSiteCamera:
      e.set("site", name(ObjectType::kSite, s.obj_id[i]))
          .set("camera", name(ObjectType::kCamera, s.ref_id[i]));
      break;
    case SensorObject::kGeomPair: {
      const bool geom1 = s.obj_type[i] == ObjectType::kGeom;
      const bool geom2 = s.ref_type[i] == ObjectType::kGeom;
      e.set(geom1 ? "geom1" : "body1", name(s.obj_type[i], s.obj_id[i]))
          .set(geom2 ? "geom2" : "body2", name(s.ref_type[i], s.ref_id[i]));
      break;
    }
    case SensorObject::kContact: {
      const auto side = [&](ObjectType type, int id, const char* n) {
        if (id < 0) return;
        const std::string word = type == ObjectType::kGeom    ? "geom"
                                 : type == ObjectType::kBody  ? "body"
                                 : type == ObjectType::kXBody ? "subtree"
                                                              : "site";
        const std::string attribute = word == "site" ? word : word + n;
        e.set(attribute.c_str(), name(type, id));
      };
      side(s.obj_type[i], s.obj_id[i], "1");
      side(s.ref_type[i], s.ref_id[i], "2");
      std::string data;
      for (int k = 0; k < kContactDataParts; ++k) {
        if (s.intprm[i][0] >> k & 1) {
          data += std::string(data.empty() ? "" : " ") + kContactDataNames[k];
        }
      }
      e.set("data", data)
          .set("reduce", kContactReduceNames[s.intprm[i][1]])
          .set("num", s.intprm[i][2]);
      break;
    }
    case SensorObject::kInsideSite:
      e.set("objtype", frame_keyword(s.obj_type[i]))
          .set("objname", name(s.obj_type[i], s.obj_id[i]))
          .set("site", name(ObjectType::kSite, s.ref_id[i]));
      break;
    case SensorObject::kFrame:
    case SensorObject::kFrameNoRef:
      e.set("objtype", frame_keyword(s.obj_type[i]))
          .set("objname", name(s.obj_type[i], s.obj_id[i]));
      if (s.ref_id[i] >= 0) {
        e.set("reftype", frame_keyword(s.ref_type[i]))
            .set("refname", name(s.ref_type[i], s.ref_id[i]));
      }
      break;
  }
  if (s.noise[i] != 0) e.set("noise", s.noise[i]);
  if (s.cutoff[i] != 0) e.set("cutoff", s.cutoff[i]);
}

// A keyframe, every array in full; quaternions written so that the loader's
// normalisation gives them back exactly.
void write_keyframe(const Model& m, int k, XmlElement& section) {
  const Keyframes& t = m.keyframes;
  XmlElement& e = section.add("key");
  e.set_name(t.name[k]);
  e.set("time", t.time[k]);
  std::vector<double> qpos = t.qpos[k];
  for (int j = 0; j < m.joints.count(); ++j) {
    const JointType type = m.joints.type[j];
    if (type != JointType::kFree && type != JointType::kBall) continue;
    double* q = qpos.data() + m.joints.qpos_adr[j] + (type == JointType::kFree ? 3 : 0);
    const Vector4d written = key_quat_to_write(Vector4d(q[0], q[1], q[2], q[3]));
    for (int c = 0; c < 4; ++c) q[c] = written[c];
  }
  std::vector<double> mquat = t.mocap_quat[k];
  for (size_t q = 0; q + 3 < mquat.size(); q += 4) {
    const Vector4d written =
        key_quat_to_write(Vector4d(mquat[q], mquat[q + 1], mquat[q + 2], mquat[q + 3]));
    for (int c = 0; c < 4; ++c) mquat[q + c] = written[c];
  }
  const auto set = [&](const char* name, const std::vector<double>& values) {
    if (!values.empty()) e.set(name, std::span<const double>(values));
  };
  set("qpos", qpos);
  set("qvel", t.qvel[k]);
  set("act", t.act[k]);
  set("ctrl", t.ctrl[k]);
  set("mpos", t.mocap_pos[k]);
  set("mquat", mquat);
}

}  // namespace

void write_actuators(const Model& model, XmlElement& root) {
  XmlElement section("actuator");
  for (int i = 0; i < model.actuators.count(); ++i) write_actuator(model, i, section);
  if (section.has_children()) root.add("actuator") = std::move(section);
}

void write_sensors(const Model& model, XmlElement& root) {
  XmlElement section("sensor");
  for (int i = 0; i < model.sensors.count(); ++i) write_sensor(model, i, section);
  if (section.has_children()) root.add("sensor") = std::move(section);
}

void write_keyframes(const Model& model, XmlElement& root) {
  XmlElement section("keyframe");
  for (int k = 0; k < model.keyframes.count(); ++k) write_keyframe(model, k, section);
  if (section.has_children()) root.add("keyframe") = std::move(section);
}

}  // namespace pliant::save
