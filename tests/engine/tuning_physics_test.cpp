// Contact tuning predictions against simulation: a sphere dropped on a plane
// with the designed solref/solimp bounces with the predicted restitution and
// rests at the predicted depth; the direct form behaves as the predicted
// spring-damper.

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "pliant/tuning.h"

namespace pliant {
namespace {

std::string drop_scene(const SolRef& r, const SolImp& i, double radius, double height,
                       double timestep, double mass, bool slide) {
  std::ostringstream xml;
  xml.precision(17);
  const std::string params = "solref=\"" + std::to_string(r.timeconst) + " " +
                             std::to_string(r.dampratio) + "\" solimp=\"" + std::to_string(i.dmin) +
                             " " + std::to_string(i.dmax) + " " + std::to_string(i.width) + " " +
                             std::to_string(i.midpoint) + " " + std::to_string(i.power) + "\"";
  xml << "<mujoco><option timestep=\"" << timestep << "\"/><worldbody>"
      << "<geom type=\"plane\" size=\"5 5 0.1\" " << params << "/>"
      << "<body pos=\"0 0 " << radius + height << "\">"
      << (slide ? "<joint type=\"slide\" axis=\"0 0 1\"/>" : "<freejoint/>")
      << "<geom type=\"sphere\" size=\"" << radius << "\" mass=\"" << mass << "\" " << params
      << "/></body></worldbody></mujoco>";
  return xml.str();
}

struct DropResult {
  double restitution, depth;
};

// Restitution from the vertical speed just before the first contact and just
// after it ends; depth after settling.
DropResult drop(const SolRef& r, const SolImp& i, double timestep, double settle_seconds) {
  const double radius = 0.1, height = 0.2;
  const Model m = load_model_from_string(drop_scene(r, i, radius, height, timestep, 1, false));
  Data d(m);
  double v_in = 0, v_out = 0;
  bool touched = false, released = false;
  while (d.time < settle_seconds) {
    step(m, d);
    const double vz = d.qvel[2];
    const bool touching = d.qpos[2] < radius;
    if (!touched) v_in = vz;
    if (touching) touched = true;
    if (touched && !touching && !released) {
      released = true;
      v_out = vz;
    }
  }
  return {released ? v_out / -v_in : 0.0, radius - d.qpos[2]};
}

TEST(TuningPhysics, DesignedContactsBounceAndRestAsPredicted) {
  struct Case {
    double restitution, depth;
  };
  for (const Case& c : {Case{0.8, 0.002}, Case{0.5, 0.001}, Case{0.3, 0.0005}}) {
    ContactTarget t;
    t.restitution = c.restitution;
    t.depth = c.depth;
    t.timestep = 0.001;
    const ContactDesign design = design_contact(t);
    const DropResult r = drop(design.solref, design.solimp, t.timestep, 30);
    std::cout << "target e " << c.restitution << " depth " << c.depth << ": measured e "
              << r.restitution << ", depth " << r.depth << "\n";
    EXPECT_NEAR(r.restitution, c.restitution, 0.1 * c.restitution);
    EXPECT_NEAR(r.depth, design.prediction.resting_depth, 0.02 * design.prediction.resting_depth);
  }
}

TEST(TuningPhysics, PresetsRestAtTheirPredictedDepth) {
  for (const MaterialPreset& p : material_presets()) {
    const ContactPrediction predicted = predict_contact(p.solref, p.solimp, 0.001);
    const DropResult r = drop(p.solref, p.solimp, 0.001, 20);
    std::cout << p.name << ": depth predicted " << predicted.resting_depth << " measured "
              << r.depth << "\n";
    EXPECT_NEAR(r.depth, predicted.resting_depth, 0.02 * predicted.resting_depth) << p.name;
  }
}

// A 1-D drop with the direct form (stiffness k N/m, damping b N s/m, mass m):
// in contact, penetration x obeys m x'' = -k x - b x' + (1 - d) m g (the
// impedance scales gravity's share). The simulated penetration follows the
// same ODE solved finely with RK4.
TEST(TuningPhysics, DirectFormIsTheSpringDamperItSays) {
  ContactTarget t;
  t.stiffness = 2000;
  t.damping = 10;
  t.mass = 0.5;
  t.timestep = 0.0002;
  // A constant impedance (no ramp) makes the contact exactly the linear
  // spring-damper; a free body makes diagApprox exactly 1/m along the normal.
  t.dmin = t.dmax = 0.95;
  const ContactDesign design = design_contact(t);
  const double radius = 0.05, height = 0.01;
  const Model m = load_model_from_string(
      drop_scene(design.solref, design.solimp, radius, height, t.timestep, t.mass, false));
  Data d(m);
  // Reference: from first touch, x (penetration) with x(0) = 0, x'(0) = v_in.
  const double g = 9.81, dmax = design.solimp.dmax;
  const double k = *t.stiffness / t.mass, b = *t.damping / t.mass;
  double x = 0, v = 0, worst = 0, peak = 0;
  bool touched = false;
  auto rhs = [&](double xx, double vv) { return -k * xx - b * vv + (1 - dmax) * g; };
  while (d.time < 0.4) {
    step(m, d);
    const double penetration = radius - d.qpos[2];
    if (!touched && penetration > 0) {
      touched = true;
      x = penetration;
      v = -d.qvel[2];
    } else if (touched) {
      // Advance the reference by one step with fine RK4 sub-steps.
      const int sub = 20;
      const double h = t.timestep / sub;
      for (int s = 0; s < sub; ++s) {
        const double k1x = v, k1v = rhs(x, v);
        const double k2x = v + 0.5 * h * k1v, k2v = rhs(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
        const double k3x = v + 0.5 * h * k2v, k3v = rhs(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
        const double k4x = v + h * k3v, k4v = rhs(x + h * k3x, v + h * k3v);
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
      }
      if (x < 0) break;  // the reference leaves the contact: compare only while in it
      worst = std::max(worst, std::abs(penetration - x));
      peak = std::max(peak, x);
    }
  }
  std::cout << "direct form: peak penetration " << peak << " m, worst deviation " << worst
            << " m\n";
  ASSERT_TRUE(touched);
  // Semi-implicit Euler at 0.2 ms against the exact ODE: the step's error,
  // about (w h) of the peak with w = sqrt(k/m) = 63 rad/s, i.e. ~1 %.
  EXPECT_LT(worst, 0.02 * peak);
}

}  // namespace
}  // namespace pliant
