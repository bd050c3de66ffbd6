// Inverse dynamics (pliant/inverse.h): the force it returns, applied in
// forward dynamics, gives back the acceleration it was asked for, with
// contacts, limits, friction loss and equalities; the discrete-time form
// does the same through a step; and the fwdinv statistics.

#include "pliant/inverse.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/state.h"
#include "pliant/step.h"

namespace pliant {
namespace {

// Free boxes on a plane (elliptic and pyramidal contacts), a hinge with a
// limit and friction loss, a slide tied by an equality, actuators.
const char* kScene = R"(
  <mujoco><option cone="CONE" integrator="INTEGRATOR" tolerance="1e-14" iterations="200">
      <flag invdiscrete="DISCRETE"/></option>
    <worldbody><geom type="plane" size="5 5 .1"/>
    <body pos="0 0 .099"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos=".05 .3 .098" euler="0 0 20"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body name="arm" pos="0 1 .5"><joint name="hinge" type="hinge" axis="0 1 0" range="-.2 .2"
        frictionloss=".3" damping=".5"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <body pos=".3 0 0"><joint name="slide" type="slide" axis="1 0 0" range="-.1 .1"/>
        <geom type="sphere" size=".04"/></body></body>
  </worldbody>
  <equality><joint joint1="slide" polycoef="0.02 0 0 0 0"/></equality>
  <actuator><motor joint="hinge" gear="2"/><motor joint="slide"/></actuator>
  </mujoco>)";

std::string scene(const std::string& cone, const std::string& integrator = "Euler",
                  const std::string& discrete = "disable") {
  std::string s = kScene;
  s.replace(s.find("CONE"), 4, cone);
  s.replace(s.find("INTEGRATOR"), 10, integrator);
  s.replace(s.find("DISCRETE"), 8, discrete);
  return s;
}

double relative_gap(const VectorXd& a, const VectorXd& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

TEST(Inverse, WithoutConstraintsReturnsTheAppliedForces) {
  const Model m = load_model_from_string(R"(
    <mujoco><option><flag constraint="disable"/></option><worldbody>
      <body pos="0 0 1"><freejoint/><geom type="capsule" fromto="0 0 0 .3 .1 0" size=".05"/>
        <body pos=".3 .1 0"><joint type="ball"/><geom type="box" size=".05 .1 .2"/>
          <body pos="0 0 -.2"><joint name="hinge" type="hinge" axis="1 0 0" damping=".3" stiffness="2"/>
            <geom type="sphere" size=".07" pos="0 0 -.1"/></body></body></body>
    </worldbody><actuator><motor joint="hinge" gear="3"/></actuator></mujoco>)");
  Data d(m);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < m.nv; ++i) {
    d.qvel[i] = u(rng);
    d.qfrc_applied[i] = u(rng);
  }
  d.ctrl[0] = 0.7;
  d.xfrc_applied[2] << 0.1, -0.2, 0.3, 1, 2, -3;
  forward(m, d);
  VectorXd applied = d.qfrc_applied + d.qfrc_actuator;
  // J^T xfrc_applied, by what forward did with it.
  VectorXd expected = d.qfrc_smooth - d.qfrc_passive + d.qfrc_bias;
  inverse(m, d);
  EXPECT_LT(relative_gap(d.qfrc_inverse, expected), 1e-12);
  EXPECT_GT((expected - applied).norm(), 0.1);  // the wrench counts
}

// Forward dynamics with qfrc_applied = inverse(qacc) gives back qacc: the
// closed-form forces are the minimiser's, for every kind of row.
TEST(Inverse, ForwardOfTheInverseForceGivesBackTheAcceleration) {
  for (const char* cone : {"elliptic", "pyramidal"}) {
    const Model m = load_model_from_string(scene(cone));
    Data d(m);
    for (int i = 0; i < 50; ++i) step(m, d);
    d.qvel[m.nv - 2] = 1.5;  // the hinge pushed against friction loss
    forward(m, d);
    ASSERT_GT(d.contacts.size(), 4u);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-2, 2);
    const VectorXd asked = d.qacc + VectorXd::NullaryExpr(m.nv, [&] { return u(rng); });
    d.qacc = asked;
    inverse(m, d);
    EXPECT_EQ(d.qacc, asked);
    int active = 0;
    for (double f : d.efc.force) active += f != 0;
    EXPECT_GT(active, 3);
    d.qfrc_applied = d.qfrc_inverse;
    d.ctrl.setZero();
    forward(m, d);
    EXPECT_LT(relative_gap(d.qacc, asked), 1e-8) << cone;
  }
}

// With invdiscrete, the force that makes the step's velocity change
// (qvel' - qvel) / h equal to qacc, for the integrators with implicit terms.
TEST(Inverse, DiscreteTimeForceGivesTheStepsAcceleration) {
  for (const char* integrator : {"Euler", "implicit", "implicitfast"}) {
    const Model m = load_model_from_string(scene("elliptic", integrator, "enable"));
    ASSERT_TRUE(m.options.flags.invdiscrete);
    Data d(m);
    for (int i = 0; i < 40; ++i) step(m, d);
    forward(m, d);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    const VectorXd asked = d.qacc + VectorXd::NullaryExpr(m.nv, [&] { return u(rng); });
    d.qacc = asked;
    inverse(m, d);
    EXPECT_EQ(d.qacc, asked);
    d.qfrc_applied = d.qfrc_inverse;
    d.ctrl.setZero();
    const VectorXd qvel = d.qvel;
    step(m, d);
    const VectorXd change = (d.qvel - qvel) / m.options.timestep;
    EXPECT_LT(relative_gap(change, asked), 1e-7) << integrator;
  }
}

TEST(Inverse, DiscreteTimeRefusesRk4) {
  Model m = load_model_from_string(scene("elliptic"));
  m.options.integrator = Integrator::kRk4;
  m.options.flags.invdiscrete = true;
  Data d(m);
  EXPECT_THROW(inverse(m, d), std::invalid_argument);
}

TEST(Inverse, FwdinvFlagMeasuresTheGaps) {
  Model m = load_model_from_string(scene("elliptic"));
  Data d(m);
  for (int i = 0; i < 30; ++i) step(m, d);
  d.ctrl << 0.4, -0.3;
  Data plain(m);
  copy_data(m, plain, d);
  m.options.flags.fwdinv = true;
  step(m, d);
  EXPECT_LT(d.solver_fwdinv[0], 1e-7);
  EXPECT_LT(d.solver_fwdinv[1], 1e-7);
  // The step itself is unchanged by the comparison.
  m.options.flags.fwdinv = false;
  step(m, plain);
  EXPECT_EQ(d.qvel, plain.qvel);
  // A loose solve shows in the gaps.
  m.options.flags.fwdinv = true;
  m.options.tolerance = 1e-2;
  m.options.iterations = 1;
  m.options.flags.warmstart = false;
  step(m, d);
  EXPECT_GT(d.solver_fwdinv[1], 1e-6);
}

}  // namespace
}  // namespace pliant
