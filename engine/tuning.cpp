#include "pliant/tuning.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "pliant/impedance.h"

namespace pliant {

double restitution_from_damping_ratio(double zeta) {
  if (zeta >= 1) return 0;
  return std::exp(-M_PI * zeta / std::sqrt(1 - zeta * zeta));
}

double damping_ratio_from_restitution(double e) {
  if (e <= 0) return 1;
  const double l = std::log(e);
  return -l / std::sqrt(M_PI * M_PI + l * l);
}

ContactPrediction predict_contact(const SolRef& solref_in, const SolImp& solimp_in, double timestep,
                                  double gravity, bool refsafe) {
  const SolRef solref = sanitize(solref_in);
  const SolImp solimp = sanitize(solimp_in);
  ContactPrediction p;
  const SpringDamper kb = reference_spring(solref, solimp.dmax, timestep, refsafe);
  if (solref.timeconst > 0) {
    p.timeconst_used = refsafe ? std::max(solref.timeconst, 2 * timestep) : solref.timeconst;
    p.refsafe_clamped = p.timeconst_used > solref.timeconst;
    if (p.refsafe_clamped) {
      p.note = "timeconst " + std::to_string(solref.timeconst) + " s is below 2 * timestep; " +
               "the refsafe rule uses " + std::to_string(p.timeconst_used) +
               " s, so the contact is softer than asked (lower the timestep to get it)";
    }
  }
  const double depth = resting_depth(solref, solimp, timestep, gravity, {}, refsafe);
  const double d = impedance(solimp, depth).d;
  p.resting_depth = depth;
  p.resting_impedance = d;
  p.stiffness = d * d * kb.K;
  p.damping = d * kb.B;
  const double w = std::sqrt(p.stiffness);
  p.damping_ratio = p.damping / (2 * w);
  const double z = p.damping_ratio;
  p.restitution = restitution_from_damping_ratio(z);
  p.natural_period =
      z < 1 ? 2 * M_PI / (w * std::sqrt(1 - z * z)) : std::numeric_limits<double>::infinity();
  // 2 % settling: e^{-z w t} = 0.02 when underdamped; the slow root
  // w (z - sqrt(z^2 - 1)) when overdamped.
  const double rate = z < 1 ? z * w : w * (z - std::sqrt(z * z - 1));
  p.settling_time = std::log(50.0) / rate;
  return p;
}

ImpactTarget impact_target(const ContactTarget& t) {
  if (!t.impact_speed || !t.restitution || !t.depth) {
    throw std::invalid_argument("an impact design needs --impact-speed, --restitution and --depth");
  }
  ImpactTarget it;
  it.restitution = *t.restitution;
  it.depth = *t.depth;
  it.speed = *t.impact_speed;
  it.max_penetration = t.max_penetration.value_or(0);
  it.timestep = t.timestep;
  it.gravity = t.gravity;
  it.cone = t.cone;
  return it;
}

ContactDesign design_contact(const ContactTarget& t) {
  if (t.impact_speed) {
    if (!t.restitution || !t.depth || t.damping_ratio || t.stiffness || t.damping) {
      throw std::invalid_argument(
          "an impact design needs --restitution and --depth (not a damping ratio, stiffness "
          "or damping)");
    }
    if (t.max_penetration && !(*t.max_penetration > 0)) {
      throw std::invalid_argument("the maximum penetration must be positive (m)");
    }
    ContactDesign design;
    design.impact = design_impact(impact_target(t));
    design.solref = design.impact->solref;
    design.solimp = design.impact->solimp;
    design.prediction = predict_contact(design.solref, design.solimp, t.timestep, t.gravity);
    return design;
  }
  if (t.max_penetration) {
    throw std::invalid_argument("a maximum penetration needs an impact speed");
  }
  if (t.dmin <= 0 || t.dmax >= 1 || t.dmin > t.dmax) {
    throw std::invalid_argument("impedance needs 0 < dmin <= dmax < 1");
  }
  if (t.restitution && (*t.restitution < 0 || *t.restitution >= 1)) {
    throw std::invalid_argument("restitution must be in [0, 1)");
  }
  if (t.restitution && t.damping_ratio) {
    throw std::invalid_argument("give restitution or damping ratio, not both");
  }
  ContactDesign design;
  // The impedance ramps from dmin to dmax over the first `width` of depth;
  // at rest the contact sits deeper, at dmax, so the predictions are exact.
  double zeta = t.damping_ratio ? *t.damping_ratio
                                : damping_ratio_from_restitution(t.restitution.value_or(0));
  if (zeta <= 0) throw std::invalid_argument("the damping ratio must be positive");
  if (t.stiffness || t.damping) {
    // Direct form, what system identification wants: per-unit-mass stiffness
    // and damping, with dmax absorbed so that at rest d^2 K = k/m, d B = b/m.
    if (!t.stiffness || *t.stiffness <= 0) {
      throw std::invalid_argument("the direct form needs a positive stiffness (N/m)");
    }
    const double k = *t.stiffness / t.mass;
    const double b = t.damping ? *t.damping / t.mass : 2 * zeta * std::sqrt(k);
    design.solref = {-k, -b};
    const double depth = (1 - t.dmax) * t.gravity / k;
    design.solimp = {t.dmin, t.dmax, std::max(depth * 0.5, 1e-6), 0.5, 2};
  } else {
    if (!t.depth || *t.depth <= 0) {
      throw std::invalid_argument("give a resting depth (m) or a stiffness (N/m) with a mass");
    }
    // Resting depth g (1 - d) (tc z)^2 at d = dmax fixes tc z.
    const double tc = std::sqrt(*t.depth / (t.gravity * (1 - t.dmax))) / zeta;
    design.solref = {tc, zeta};
    design.solimp = {t.dmin, t.dmax, 0.5 * *t.depth, 0.5, 2};
  }
  design.prediction = predict_contact(design.solref, design.solimp, t.timestep, t.gravity);
  return design;
}

// Presets from physical targets, each designed for an impact speed and a
// maximum penetration at MuJoCo's default 2 ms timestep.
const std::vector<MaterialPreset>& material_presets() {
  static const std::vector<MaterialPreset> presets = [] {
    auto make = [](const char* name, const char* description, double restitution, double depth,
                   double speed, double max_penetration) {
      ImpactTarget t;
      t.restitution = restitution;
      t.depth = depth;
      t.speed = speed;
      t.max_penetration = max_penetration;
      const ImpactDesign d = design_impact(t);
      return MaterialPreset{name, description, d.solref, d.solimp, t};
    };
    return std::vector<MaterialPreset>{
        {"default", "MuJoCo's defaults: critically damped, 20 ms time constant", SolRef{0.02, 1},
         SolImp{0.9, 0.95, 0.001, 0.5, 2}, std::nullopt},
        make("soft rubber", "bouncy: restitution 0.8 at 2 m/s, rests 2 mm deep, under 10 mm", 0.8,
             0.002, 2, 0.01),
        make("stiff rubber", "restitution 0.5 at 2 m/s, rests 0.5 mm deep, under 5 mm", 0.5, 0.0005,
             2, 0.005),
        make("metal", "hard, no bounce at 1 m/s: rests 0.1 mm deep, under 2 mm", 0, 0.0001, 1,
             0.002),
        make("cushioning foam", "absorbs 2 m/s without a bounce: rests 1 cm deep, under 4 cm", 0,
             0.01, 2, 0.04),
    };
  }();
  return presets;
}

}  // namespace pliant
