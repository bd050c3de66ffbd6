#include <array>
#include <cmath>
#include <string>
#include <unordered_map>

#include "model/actuator_keywords.h"
#include "model/element_parsers.h"
#include "model/element_reading.h"

namespace pliant {
namespace {

// The attributes the actuator kinds share: name, limits, transmission,
// each kind taking those MuJoCo 3.3.8's schema gives it (the activation
// limits, actearly and body are <general>'s; <intvelocity> has actrange and
// <adhesion> body; <damper> and <adhesion> are always ctrl-limited; an
// adhesion acts through its body alone; a muscle has no site transmission).
void read_actuator_common(AttributeReader& reader, const std::string& kind,
                          ActuatorSpec& actuator) {
  const bool general = kind == "general", adhesion = kind == "adhesion";
  reader.read("name", actuator.name);
  reader.has("class");
  reader.read("group", actuator.group);
  if (kind != "damper" && !adhesion) read_tristate(reader, "ctrllimited", actuator.ctrllimited);
  read_tristate(reader, "forcelimited", actuator.forcelimited);
  if (general) read_tristate(reader, "actlimited", actuator.actlimited);
  if (reader.read("ctrlrange", actuator.ctrlrange)) actuator.ctrlrange_given = true;
  if (reader.read("forcerange", actuator.forcerange)) actuator.forcerange_given = true;
  if (general || kind == "intvelocity") {
    if (reader.read("actrange", actuator.actrange)) actuator.actrange_given = true;
  }
  if (!adhesion) {
    read_partial(reader, "gear", actuator.gear, 6);
    reader.read("cranklength", actuator.cranklength);
    reader.read("joint", actuator.joint);
    reader.read("jointinparent", actuator.jointinparent);
    reader.read("tendon", actuator.tendon);
    reader.read("slidersite", actuator.slidersite);
    reader.read("cranksite", actuator.cranksite);
    reader.read("lengthrange", actuator.lengthrange);
    if (kind != "muscle") {
      reader.read("site", actuator.site);
      reader.read("refsite", actuator.refsite);
    }
  }
  read_user_data(reader, actuator.user);
  if (general || adhesion) reader.read("body", actuator.body);
  if (general) reader.read_bool("actearly", actuator.actearly);
}

void read_general(AttributeReader& reader, const std::string&, ActuatorSpec& actuator) {
  // Only <general> takes actdim (MuJoCo 3.3.8's schema); a class's value
  // reaches the shortcut elements of the class too.
  reader.read("actdim", actuator.actdim);
  reader.read_keyword("dyntype", actuator.dyntype, KeywordTable<DynamicsType>(kDynamicsKeywords));
  reader.read_keyword("gaintype", actuator.gaintype, KeywordTable<GainType>(kGainKeywords));
  reader.read_keyword("biastype", actuator.biastype, KeywordTable<BiasType>(kBiasKeywords));
  read_partial(reader, "dynprm", actuator.dynprm, 10);
  read_partial(reader, "gainprm", actuator.gainprm, 10);
  read_partial(reader, "biasprm", actuator.biasprm, 10);
}

void set_motor(AttributeReader&, const std::string&, ActuatorSpec& actuator) {
  // Each shortcut sets only the parameters it defines, as MuJoCo 3.x's
  // do; the rest keep the class's values.
  actuator.gainprm[0] = 1;
  actuator.dyntype = DynamicsType::kNone;
  actuator.gaintype = GainType::kFixed;
  actuator.biastype = BiasType::kNone;
}

// gain kp, bias -kp (position or activation) and a damping term: -kv, or a
// positive dampratio that the model constants turn into a damping from the
// reflected inertia. position with timeconst > 0 filters ctrl exactly;
// intvelocity integrates ctrl into a position.
void read_position(AttributeReader& reader, const std::string& kind, ActuatorSpec& actuator) {
  double kp = actuator.gainprm[0];
  reader.read("kp", kp);
  if (kp < 0) reader.fail("attribute 'kp' of <" + kind + "> must not be negative");
  double kv = 0, dampratio = 0;
  const bool has_kv = reader.read("kv", kv), has_dampratio = reader.read("dampratio", dampratio);
  if (has_kv && has_dampratio) {
    reader.fail("<" + kind + "> takes either 'kv' or 'dampratio', not both");
  }
  if (kv < 0 || dampratio < 0) {
    reader.fail("attributes 'kv' and 'dampratio' of <" + kind + "> must not be negative");
  }
  actuator.gainprm[0] = kp;
  actuator.biasprm[1] = -kp;
  if (has_kv) actuator.biasprm[2] = -kv;
  if (has_dampratio) actuator.biasprm[2] = dampratio;
  actuator.gaintype = GainType::kFixed;
  actuator.biastype = BiasType::kAffine;
  if (kind == "position") {
    double timeconst = 0;
    if (reader.read("timeconst", timeconst)) {
      if (timeconst < 0) reader.fail("attribute 'timeconst' of <position> must not be negative");
      actuator.dynprm[0] = timeconst;
      actuator.dyntype = timeconst > 0 ? DynamicsType::kFilterExact : DynamicsType::kNone;
    }
  } else {
    actuator.dynprm[0] = 1;
    actuator.dyntype = DynamicsType::kIntegrator;
    actuator.actlimited = TriState::kTrue;
  }
  reader.read("inheritrange", actuator.inheritrange);
  if (actuator.inheritrange < 0) {
    reader.fail("attribute 'inheritrange' of <" + kind + "> must not be negative");
  }
}

void read_velocity(AttributeReader& reader, const std::string&, ActuatorSpec& actuator) {
  double kv = actuator.gainprm[0];
  reader.read("kv", kv);
  if (kv < 0) reader.fail("attribute 'kv' of <velocity> must not be negative");
  // The whole bias is the velocity's, as in MuJoCo 3.3.8: a class whose
  // default is a <position> lends no position term.
  actuator.biasprm.fill(0);
  actuator.gainprm[0] = kv;
  actuator.biasprm[2] = -kv;
  actuator.dyntype = DynamicsType::kNone;
  actuator.gaintype = GainType::kFixed;
  actuator.biastype = BiasType::kAffine;
}

// Force -kv ctrl velocity: an affine gain in the velocity, ctrl >= 0.
void read_damper(AttributeReader& reader, const std::string&, ActuatorSpec& actuator) {
  double kv = 0;
  reader.read("kv", kv);
  if (kv < 0) reader.fail("attribute 'kv' of <damper> must not be negative");
  actuator.gainprm.fill(0);  // the whole gain is the damper's, as in MuJoCo 3.3.8
  actuator.gainprm[2] = -kv;
  actuator.ctrllimited = TriState::kTrue;
  actuator.dyntype = DynamicsType::kNone;
  actuator.gaintype = GainType::kAffine;
  actuator.biastype = BiasType::kNone;
}

// A pneumatic or hydraulic cylinder: the pressure follows ctrl through a
// first-order filter; force = area pressure + bias.
void read_cylinder(AttributeReader& reader, const std::string&, ActuatorSpec& actuator) {
  double timeconst = 1, area = 1, diameter = -1;
  Vector3d bias(0, 0, 0);
  reader.read("timeconst", timeconst);
  reader.read("area", area);
  reader.read("diameter", diameter);
  reader.read("bias", bias);
  actuator.dynprm[0] = timeconst;
  actuator.gainprm[0] = diameter >= 0 ? M_PI / 4 * diameter * diameter : area;
  // MuJoCo 3.3.8 takes only the first bias value into biasprm (the other
  // two keep the class's); Pliant does the same.
  actuator.biasprm[0] = bias[0];
  actuator.dyntype = DynamicsType::kFilter;
  actuator.gaintype = GainType::kFixed;
  actuator.biastype = BiasType::kAffine;
}

// A fixed gain pulling the body onto what it touches (body transmission); the
// control is a force magnitude, so its range must not be negative.
void read_adhesion(AttributeReader& reader, const std::string&, ActuatorSpec& actuator) {
  reader.read("gain", actuator.gainprm[0]);
  if (actuator.ctrllimited == TriState::kFalse) {
    reader.fail("an adhesion actuator must be ctrllimited, with a non-negative ctrlrange");
  }
  if (actuator.ctrlrange_given && (actuator.ctrlrange[0] < 0 || actuator.ctrlrange[1] < 0)) {
    reader.fail(
        "'ctrlrange' of <adhesion> must not be negative (the control is a force "
        "magnitude)");
  }
  actuator.dyntype = DynamicsType::kNone;
  actuator.gaintype = GainType::kFixed;
  actuator.biastype = BiasType::kNone;
}

// Muscle parameters live in gainprm and biasprm alike: range (2), force,
// scale, lmin, lmax, vmax, fpmax, fvmax; dynprm holds the activation and
// deactivation time constants and tausmooth. As in MuJoCo 3.3.8, a value
// the class left at the <general> default takes the muscle's default, any
// other class value carries over, and the element's attributes win.
void read_muscle(AttributeReader& reader, const std::string&, ActuatorSpec& actuator) {
  constexpr std::array<double, 9> kMuscle = {0.75, 1.05, -1, 200, 0.5, 1.6, 1.5, 1.3, 1.2};
  constexpr std::array<double, 9> kGeneral = {1, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, 10> prm = actuator.gainprm;
  for (int i = 0; i < 9; ++i) {
    if (prm[i] == kGeneral[i]) prm[i] = kMuscle[i];
  }
  std::array<double, 10> dyn = actuator.dynprm;
  if (dyn[0] == 1) dyn[0] = 0.01;
  if (dyn[1] == 0) dyn[1] = 0.04;
  Vector2d timeconst(dyn[0], dyn[1]);
  reader.read("timeconst", timeconst);
  double tausmooth = dyn[2];
  reader.read("tausmooth", tausmooth);
  if (tausmooth < 0) reader.fail("attribute 'tausmooth' of <muscle> must not be negative");
  Vector2d range(prm[0], prm[1]);
  reader.read("range", range);
  prm[0] = range[0];
  prm[1] = range[1];
  const char* names[] = {"force", "scale", "lmin", "lmax", "vmax", "fpmax", "fvmax"};
  for (int i = 0; i < 7; ++i) reader.read(names[i], prm[2 + i]);
  actuator.dyntype = DynamicsType::kMuscle;
  actuator.gaintype = GainType::kMuscle;
  actuator.biastype = BiasType::kMuscle;
  dyn[0] = timeconst[0];
  dyn[1] = timeconst[1];
  dyn[2] = tausmooth;
  actuator.dynprm = dyn;
  actuator.gainprm = prm;
  std::copy_n(prm.begin(), 9, actuator.biasprm.begin());
}

using ActuatorShortcut = void (*)(AttributeReader&, const std::string& kind, ActuatorSpec&);

// The gain, bias and dynamics structure of each actuator element.
const std::unordered_map<std::string, ActuatorShortcut>& actuator_shortcuts() {
  static const std::unordered_map<std::string, ActuatorShortcut> table = {
      {"general", read_general},      {"motor", set_motor},        {"position", read_position},
      {"intvelocity", read_position}, {"velocity", read_velocity}, {"damper", read_damper},
      {"cylinder", read_cylinder},    {"adhesion", read_adhesion}, {"muscle", read_muscle}};
  return table;
}

}  // namespace

void parse_actuator(AttributeReader& reader, const std::string& kind, ActuatorSpec& actuator) {
  actuator.kind = kind;
  read_actuator_common(reader, kind, actuator);
  // The shortcut elements fix the gain, bias and dynamics structure, as
  // MuJoCo 3.x's shortcuts do; the parameters they do not set keep the
  // class's values (so a default <position kp kv> carries over), except
  // where 3.3.8 clears them: <velocity> its whole bias, <damper> its whole
  // gain.
  const auto shortcut = actuator_shortcuts().find(kind);
  if (shortcut != actuator_shortcuts().end()) shortcut->second(reader, kind, actuator);
  reader.finish();
}

}  // namespace pliant
