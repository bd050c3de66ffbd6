#include "engine/tuning.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "engine/constraint/impedance.h"

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
  // Resting depth: the fixed point of d(r)^2 K r = (1 - d(r)) g. d rises with
  // depth, so iterate from the deep-contact value.
  double depth = 0, d = solimp.dmax;
  for (int i = 0; i < 100; ++i) {
    d = impedance(solimp, depth).d;
    const double next = (1 - d) * gravity / (d * d * kb.K);
    if (std::abs(next - depth) <= 1e-15 * std::max(1.0, next)) {
      depth = next;
      break;
    }
    depth = next;
  }
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

ContactDesign design_contact(const ContactTarget& t) {
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

// Presets from physical targets (classic advice: bouncy materials want a
// low damping ratio, soft ones a deeper resting depth and a lower impedance
// so the spring, not the impedance, carries the load).
const std::vector<MaterialPreset>& material_presets() {
  static const std::vector<MaterialPreset> presets = [] {
    auto make = [](const char* name, const char* description, double restitution_or_zeta,
                   bool is_restitution, double depth, double dmin, double dmax) {
      ContactTarget t;
      if (is_restitution) {
        t.restitution = restitution_or_zeta;
      } else {
        t.damping_ratio = restitution_or_zeta;
      }
      t.depth = depth;
      t.dmin = dmin;
      t.dmax = dmax;
      const ContactDesign d = design_contact(t);
      return MaterialPreset{name, description, d.solref, d.solimp};
    };
    return std::vector<MaterialPreset>{
        {"default", "MuJoCo's defaults: critically damped, 20 ms time constant", SolRef{0.02, 1},
         SolImp{0.9, 0.95, 0.001, 0.5, 2}},
        make("soft rubber", "bouncy and soft: restitution 0.8, sinks 2 mm at rest", 0.8, true,
             0.002, 0.5, 0.8),
        make("stiff rubber", "firm, moderate bounce: restitution 0.5, sinks 0.2 mm", 0.5, true,
             0.0002, 0.9, 0.95),
        make("metal", "hard, no bounce: critically damped, sinks 0.01 mm", 1.0, false, 1e-5, 0.95,
             0.99),
        make("cushioning foam", "soft and overdamped (ratio 2): sinks 2 cm, never bounces", 2.0,
             false, 0.02, 0.5, 0.9),
    };
  }();
  return presets;
}

}  // namespace pliant
