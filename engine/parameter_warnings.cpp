#include "engine/parameter_warnings.h"

#include <cstdio>

#include "pliant/impedance.h"

namespace pliant {
namespace {

std::string text(double a, double b) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%g %g", a, b);
  return buffer;
}

std::string text(const SolImp& s) {
  char buffer[96];
  std::snprintf(buffer, sizeof(buffer), "%g %g %g %g %g", s.dmin, s.dmax, s.width, s.midpoint,
                s.power);
  return buffer;
}

std::string describe(const Model& m, ObjectType type, int id) {
  static const char* kinds[] = {"object",   "body",     "body",    "joint",   "dof",      "geom",
                                "site",     "camera",   "light",   "mesh",    "skin",     "hfield",
                                "texture",  "material", "pair",    "exclude", "equality", "tendon",
                                "actuator", "sensor",   "numeric", "text",    "tuple",    "key"};
  std::string out = kinds[static_cast<int>(type)];
  const std::string& name =
      type == ObjectType::kDof ? m.name(ObjectType::kJoint, m.dofs.joint[id]) : m.name(type, id);
  out += name.empty() ? " " + std::to_string(id) : " '" + name + "'";
  if (type == ObjectType::kDof) out += " (dof " + std::to_string(id) + ")";
  return out;
}

class Scanner {
 public:
  explicit Scanner(Model& m) : m_(m) {}

  void check(ObjectType type, int id, const char* ref_name, const SolRef& solref,
             const char* imp_name, const SolImp& solimp) {
    const SolRef sane = sanitize(solref);
    if (!(sane == solref)) {
      add(ParameterWarning::Kind::kSolrefReplaced, type, id, ref_name,
          text(solref.timeconst, solref.dampratio), text(sane.timeconst, sane.dampratio),
          "mixes signs (accepted: both positive, or both non-positive for the direct form)");
    } else if (m_.options.flags.refsafe && solref.timeconst > 0 &&
               solref.timeconst < 2 * m_.options.timestep) {
      const double used = 2 * m_.options.timestep;
      add(ParameterWarning::Kind::kRefsafeClamp, type, id, ref_name,
          text(solref.timeconst, solref.dampratio), text(used, solref.dampratio),
          "has a time constant below 2 * timestep; the refsafe rule raises it (lower the "
          "timestep or disable the refsafe flag to keep it)");
    }
    const SolImp clamped = sanitize(solimp);
    if (!(clamped == solimp)) {
      add(ParameterWarning::Kind::kSolimpClamped, type, id, imp_name, text(solimp), text(clamped),
          "is out of range (accepted: dmin, dmax, midpoint in [0.0001, 0.9999], width >= 0, "
          "power >= 1)");
    }
  }

 private:
  void add(ParameterWarning::Kind kind, ObjectType type, int id, const char* parameter,
           const std::string& given, const std::string& used, const std::string& why) {
    ParameterWarning w{kind, type, id, parameter, given, used, ""};
    w.message = describe(m_, type, id) + ": " + parameter + " \"" + given + "\" " + why +
                "; Pliant uses \"" + used + "\"";
    m_.warnings.push_back(w.message);
    m_.parameter_warnings.push_back(std::move(w));
  }

  Model& m_;
};

}  // namespace

void record_parameter_warnings(Model& m) {
  m.parameter_warnings.clear();
  Scanner scan(m);
  for (int g = 0; g < m.geoms.count(); ++g) {
    scan.check(ObjectType::kGeom, g, "solref", m.geoms.solref[g], "solimp", m.geoms.solimp[g]);
  }
  for (int j = 0; j < m.joints.count(); ++j) {
    if (!m.joints.limited[j]) continue;
    scan.check(ObjectType::kJoint, j, "solreflimit", m.joints.solref[j], "solimplimit",
               m.joints.solimp[j]);
  }
  for (int k = 0; k < m.nv; ++k) {
    if (m.dofs.frictionloss[k] <= 0) continue;
    scan.check(ObjectType::kDof, k, "solreffriction", m.dofs.solref[k], "solimpfriction",
               m.dofs.solimp[k]);
  }
  const Tendons& t = m.tendons;
  for (int i = 0; i < t.count(); ++i) {
    if (t.limited[i]) {
      scan.check(ObjectType::kTendon, i, "solreflimit", t.solref_limit[i], "solimplimit",
                 t.solimp_limit[i]);
    }
    if (t.frictionloss[i] > 0) {
      scan.check(ObjectType::kTendon, i, "solreffriction", t.solref_friction[i], "solimpfriction",
                 t.solimp_friction[i]);
    }
  }
  for (int e = 0; e < m.equalities.count(); ++e) {
    scan.check(ObjectType::kEquality, e, "solref", m.equalities.solref[e], "solimp",
               m.equalities.solimp[e]);
  }
  for (int p = 0; p < m.pairs.count(); ++p) {
    scan.check(ObjectType::kPair, p, "solref", m.pairs.solref[p], "solimp", m.pairs.solimp[p]);
  }
}

}  // namespace pliant
