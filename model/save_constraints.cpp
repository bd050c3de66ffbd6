// <contact>, <equality> and <tendon> of save_xml.

#include "model/reload_inputs.h"
#include "model/save_parts.h"
#include "model/spec.h"

namespace pliant::save {
namespace {

const std::string& body_name(const Model& m, int b) {
  return required_name(m, ObjectType::kBody, b, "body");
}

// A connect or weld between bodies: body1 with the anchor data[0:3] in its
// frame (connect) or in body2's (weld); a weld's relpose keeps the compiled
// relative pose data[3:10] and its torquescale data[10]. The second anchor
// of a connect follows from the bodies' frames at qpos0, as it did.
void write_body_equality(const Model& m, int i, XmlElement& e) {
  const Equalities& t = m.equalities;
  const auto& data = t.data[i];
  e.set("body1", body_name(m, t.obj1[i])).set("body2", body_name(m, t.obj2[i]));
  e.set("anchor", Vector3d(data[0], data[1], data[2]));
  if (t.type[i] != EqualityType::kWeld) return;
  const Quaterniond relative = unit_quat_to_write(Quaterniond(data[6], data[7], data[8], data[9]));
  const double relpose[] = {data[3],      data[4],      data[5],     relative.w(),
                            relative.x(), relative.y(), relative.z()};
  e.set("relpose", std::span<const double>(relpose)).set("torquescale", data[10]);
}

void write_equality(const Model& m, int i, XmlElement& section) {
  const Equalities& t = m.equalities;
  static const char* kElements[] = {"connect", "weld", "joint", "tendon"};
  XmlElement& e = section.add(kElements[static_cast<int>(t.type[i])]);
  e.set_name(t.name[i]);
  e.set_bool("active", t.active[i]);
  set_solref(e, "solref", t.solref[i]);
  set_solimp(e, "solimp", t.solimp[i]);
  const auto& data = t.data[i];
  switch (t.type[i]) {
    case EqualityType::kConnect:
    case EqualityType::kWeld:
      if (t.obj_type[i] == ObjectType::kSite) {
        // Between two sites' frames: only a weld's torquescale is data.
        e.set("site1", required_name(m, ObjectType::kSite, t.obj1[i], "site"))
            .set("site2", required_name(m, ObjectType::kSite, t.obj2[i], "site"));
        if (t.type[i] == EqualityType::kWeld) e.set("torquescale", data[10]);
      } else {
        write_body_equality(m, i, e);
      }
      break;
    case EqualityType::kJoint:
    case EqualityType::kTendon: {
      const bool joint = t.type[i] == EqualityType::kJoint;
      const ObjectType type = joint ? ObjectType::kJoint : ObjectType::kTendon;
      const char* what = joint ? "joint" : "tendon";
      e.set(joint ? "joint1" : "tendon1", required_name(m, type, t.obj1[i], what));
      if (t.obj2[i] >= 0) {
        e.set(joint ? "joint2" : "tendon2", required_name(m, type, t.obj2[i], what));
      }
      e.set("polycoef", std::span<const double>(data.data(), 5));
      break;
    }
  }
}

// A tendon's path: joints with their coefficients (fixed), or sites,
// wrapping geoms with their side sites and pulleys (spatial).
void write_path(const Model& m, int i, XmlElement& e) {
  const Tendons& t = m.tendons;
  for (int w = t.wrap_adr[i]; w < t.wrap_adr[i] + t.wrap_count[i]; ++w) {
    const int object = t.wrap_obj[w];
    switch (t.wrap_type[w]) {
      case WrapType::kJoint:
        e.add("joint")
            .set("joint", required_name(m, ObjectType::kJoint, object, "joint"))
            .set("coef", t.wrap_prm[w]);
        break;
      case WrapType::kSite:
        e.add("site").set("site", required_name(m, ObjectType::kSite, object, "site"));
        break;
      case WrapType::kSphere:
      case WrapType::kCylinder: {
        XmlElement& geom = e.add("geom");
        geom.set("geom", required_name(m, ObjectType::kGeom, object, "geom"));
        const int side = static_cast<int>(t.wrap_prm[w]);
        if (side >= 0) geom.set("sidesite", required_name(m, ObjectType::kSite, side, "site"));
        break;
      }
      case WrapType::kPulley:
        e.add("pulley").set("divisor", t.wrap_prm[w]);
        break;
      case WrapType::kNone:
        break;
    }
  }
}

bool is_fixed(const Tendons& t, int i) {
  return t.wrap_count[i] > 0 && t.wrap_type[t.wrap_adr[i]] == WrapType::kJoint;
}

// A fixed tendon takes no width or colour of its own, only from a default
// class: one that is drawn other than the defaults gets a class of its own.
bool needs_class(const Tendons& t, int i) {
  const TendonSpec defaults;
  return is_fixed(t, i) && (t.width[i] != defaults.width || t.rgba[i] != defaults.rgba);
}

std::string class_name(int i) { return "pliant_tendon_" + std::to_string(i); }

void write_tendon(const Model& m, int i, XmlElement& section) {
  const Tendons& t = m.tendons;
  const bool fixed = is_fixed(t, i);
  XmlElement& e = section.add(fixed ? "fixed" : "spatial");
  set_user(e, m.tendons.user, i);
  e.set_name(t.name[i]);
  if (needs_class(t, i)) e.set("class", class_name(i));
  e.set_bool("limited", t.limited[i])
      .set("range", t.range[i])
      .set_bool("actuatorfrclimited", t.actfrc_limited[i])
      .set("actuatorfrcrange", t.actfrc_range[i])
      .set("margin", t.margin[i])
      .set("stiffness", t.stiffness[i])
      .set("damping", t.damping[i])
      .set("frictionloss", t.frictionloss[i])
      .set("armature", t.armature[i])
      .set("springlength", t.length_spring[i]);
  set_solref(e, "solreflimit", t.solref_limit[i]);
  set_solimp(e, "solimplimit", t.solimp_limit[i]);
  set_solref(e, "solreffriction", t.solref_friction[i]);
  set_solimp(e, "solimpfriction", t.solimp_friction[i]);
  if (!fixed) e.set("width", t.width[i]).set("rgba", t.rgba[i]);
  write_path(m, i, e);
}

}  // namespace

// Pairs in the compiled order with geom1 on the lower body, which the
// compiler keeps (its sort is stable); excludes likewise sorted already.
void write_contacts(const Model& model, XmlElement& root) {
  XmlElement section("contact");
  const Pairs& p = model.pairs;
  for (int i = 0; i < p.count(); ++i) {
    XmlElement& e = section.add("pair");
    if (!p.name[i].empty()) e.set("name", p.name[i]);
    e.set("geom1", required_name(model, ObjectType::kGeom, p.geom1[i], "geom"))
        .set("geom2", required_name(model, ObjectType::kGeom, p.geom2[i], "geom"))
        .set("condim", p.condim[i])
        .set("friction", p.friction[i]);
    set_solref(e, "solref", p.solref[i]);
    if (!(p.solreffriction[i] == SolRef{0, 0}))
      set_solref(e, "solreffriction", p.solreffriction[i]);
    set_solimp(e, "solimp", p.solimp[i]);
    e.set("margin", p.margin[i]).set("gap", p.gap[i]);
  }
  const Excludes& x = model.excludes;
  for (int i = 0; i < x.count(); ++i) {
    XmlElement& e = section.add("exclude");
    if (!x.name[i].empty()) e.set("name", x.name[i]);
    e.set("body1", body_name(model, x.body1[i])).set("body2", body_name(model, x.body2[i]));
  }
  if (section.has_children()) root.add("contact") = std::move(section);
}

void write_equalities(const Model& model, XmlElement& root) {
  XmlElement section("equality");
  for (int i = 0; i < model.equalities.count(); ++i) write_equality(model, i, section);
  if (section.has_children()) root.add("equality") = std::move(section);
}

void write_tendon_classes(const Model& model, XmlElement& root) {
  XmlElement section("default");
  const Tendons& t = model.tendons;
  for (int i = 0; i < t.count(); ++i) {
    if (!needs_class(t, i)) continue;
    XmlElement& c = section.add("default");
    c.set("class", class_name(i));
    c.add("tendon").set("width", t.width[i]).set("rgba", t.rgba[i]);
  }
  if (section.has_children()) root.add("default") = std::move(section);
}

void write_tendons(const Model& model, XmlElement& root) {
  XmlElement section("tendon");
  for (int i = 0; i < model.tendons.count(); ++i) write_tendon(model, i, section);
  if (section.has_children()) root.add("tendon") = std::move(section);
}

}  // namespace pliant::save
