#pragma once

// Contact tuning in physical units: what a (solref, solimp) pair does, and
// which pair gives a wanted behaviour.
//
// The model (docs/physics.md §2 and MuJoCo's "solref" documentation): a
// constraint with impedance d and reference aref = -B v - K d r reaches the
// acceleration a = (1 - d) a0 + d aref, so along the contact normal a body
// behaves like a unit mass on a spring-damper with
//   stiffness  k = d^2 K,   damping  b = d B,   and gravity scaled by (1 - d).
// Positive solref (timeconst tc, dampratio z): K = 1/(dmax^2 tc^2 z^2),
// B = 2/(dmax tc), so at d = dmax: k = 1/(tc z)^2 and b = 2/tc, i.e.
// natural frequency w = 1/(tc z) and damping ratio z. Direct solref
// (-stiffness, -damping): K = stiffness/dmax^2, B = damping/dmax, per unit
// mass (divide N/m and N s/m by the mass the contact carries).
// Resting depth under gravity g: d^2 K r = (1 - d) g.
// Restitution of a normal impact of a linear spring-damper:
// e = exp(-pi z / sqrt(1 - z^2)) for z < 1, 0 otherwise.

#include <optional>
#include <string>
#include <vector>

#include "pliant/impact.h"
#include "pliant/solver_params.h"

namespace pliant {

struct ContactPrediction {
  double stiffness = 0;          // 1/s^2 (per unit mass), d^2 K at rest
  double damping = 0;            // 1/s (per unit mass), d B at rest
  double damping_ratio = 0;      // b / (2 sqrt(k))
  double natural_period = 0;     // s, 2 pi / (w sqrt(1 - z^2)); infinity when overdamped
  double resting_depth = 0;      // m under the given gravity
  double resting_impedance = 0;  // d at the resting depth
  double restitution = 0;        // of a normal impact (linear spring-damper)
  double settling_time = 0;      // s, to 2 % (4 / (z w), or the slow root when overdamped)
  bool refsafe_clamped = false;  // timeconst raised to 2 * timestep
  double timeconst_used = 0;     // s, after the refsafe clamp (positive form)
  std::string note;              // what the clamp or the parameters imply, readable
};

// Predictions for solref/solimp at a timestep, under gravity g (m/s^2).
ContactPrediction predict_contact(const SolRef& solref, const SolImp& solimp, double timestep,
                                  double gravity = 9.81, bool refsafe = true);

struct ContactTarget {
  std::optional<double> restitution;    // 0..1
  std::optional<double> damping_ratio;  // instead of restitution
  std::optional<double> depth;          // m, resting depth under gravity
  std::optional<double> stiffness;      // N/m, with mass: direct form
  std::optional<double> damping;        // N s/m, with mass
  double mass = 1;                      // kg, the mass the contact carries
  double dmin = 0.9, dmax = 0.95;       // how hard the impedance ramps with depth
  double timestep = 0.002;              // s
  double gravity = 9.81;                // m/s^2
  // Impact design (impact.h): the restitution holds at this speed (m/s),
  // and the penetration stays under the bound (m) there.
  std::optional<double> impact_speed, max_penetration;
  ContactCone cone;
};

struct ContactDesign {
  SolRef solref;
  SolImp solimp;
  ContactPrediction prediction;        // closed form, at rest
  std::optional<ImpactDesign> impact;  // with an impact speed: the stepped drop
};

// The solref/solimp for a target. Throws std::invalid_argument with a
// sentence when the target is contradictory or out of range. With an impact
// speed, the design is design_impact's (restitution and depth required).
ContactDesign design_contact(const ContactTarget& target);

// The stepped-impact target of a contact target with an impact speed, a
// restitution and a depth (std::invalid_argument without them).
ImpactTarget impact_target(const ContactTarget& target);

struct MaterialPreset {
  std::string name, description;
  SolRef solref;
  SolImp solimp;
  // What it was designed for at a 2 ms timestep (none for "default").
  std::optional<ImpactTarget> target;
};

// default, soft rubber, stiff rubber, metal, cushioning foam; all but the
// default designed by design_impact for an impact speed and a maximum
// penetration each. Designed on first use (about a second).
const std::vector<MaterialPreset>& material_presets();

// Restitution <-> damping ratio of a linear spring-damper.
double restitution_from_damping_ratio(double zeta);
double damping_ratio_from_restitution(double restitution);

}  // namespace pliant
