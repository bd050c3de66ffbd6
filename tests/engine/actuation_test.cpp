#include "engine/actuation.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/model_constants.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/load_error.h"
#include "pliant/step.h"

namespace pliant {
namespace {

constexpr double kTol = 1e-12;

Model load_with_constants(const std::string& xml) {
  Model m = load_model_from_string(xml);
  compute_actuator_constants(m);
  return m;
}

constexpr const char* kSlide = R"(
  <mujoco><worldbody>
    <body><joint name="s" type="slide" axis="1 0 0"/><geom type="box" size="0.1 0.1 0.1" mass="2"/>
    </body>
  </worldbody>
  <actuator>%s</actuator>
  </mujoco>)";

Model slide_model(const std::string& actuators) {
  std::string xml = kSlide;
  xml.replace(xml.find("%s"), 2, actuators);
  return load_with_constants(xml);
}

// Adhesion (body transmission): 5 N of pull holds a 0.2 kg ball (1.96 N)
// against a ceiling it touches; without control it falls. The moment is
// minus the average contact-normal Jacobian, so a free ball touching one
// surface gets the contact normal's direction, and there is no length.
TEST(Actuation, AdhesionHoldsABallAgainstTheCeiling) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom type="box" size="0.5 0.5 0.05" pos="0 0 1"/>
      <body name="ball" pos="0 0 0.901"><freejoint/><geom size="0.05" mass="0.2"/></body>
    </worldbody>
    <actuator><adhesion body="ball" gain="5" ctrlrange="0 1"/></actuator></mujoco>)");
  for (double ctrl : {1.0, 0.0}) {
    Data d(m);
    d.ctrl[0] = ctrl;
    forward(m, d);
    EXPECT_EQ(d.actuator_length[0], 0);
    EXPECT_NEAR(d.actuator_moment(0, 2), 1, 1e-9);  // pulls up, onto the ceiling
    for (int i = 0; i < 500; ++i) step(m, d);
    if (ctrl > 0) {
      EXPECT_NEAR(d.qpos[2], 0.9, 1e-3) << "held";
    } else {
      EXPECT_LT(d.qpos[2], 0.5) << "falls";
    }
  }
}

// transmission() clears and multiplies only the dofs each row can reach. A
// row whose reach shrinks (the adhesion contact is gone) must not keep the
// old values, and the rows must agree with a Data that never saw them.
TEST(Actuation, MomentArmsLeaveNothingBehindWhenTheirReachChanges) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom type="box" size="0.5 0.5 0.05" pos="0 0 1"/>
      <body name="ball" pos="0 0 0.901"><freejoint/><geom size="0.05" mass="0.2"/></body>
      <body name="arm" pos="1 0 0"><joint name="h" type="hinge" axis="0 1 0"/>
        <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0" mass="1"/>
        <site name="tip" pos="0.2 0 0"/></body>
    </worldbody>
    <actuator><adhesion body="ball" gain="5" ctrlrange="0 1"/>
      <general site="tip" gear="0 0 1 0 0 0"/><motor joint="h"/></actuator></mujoco>)");
  Data d(m);
  forward(m, d);
  EXPECT_NE(d.actuator_moment(0, 2), 0) << "touching the ceiling";
  for (int i = 0; i < 300; ++i) step(m, d);  // no pull: the ball falls away
  forward(m, d);
  ASSERT_LT(d.qpos[2], 0.8);
  Data fresh(m);
  fresh.qpos = d.qpos;
  fresh.qvel = d.qvel;
  forward(m, fresh);
  for (int i = 0; i < m.nu; ++i) {
    for (int k = 0; k < m.nv; ++k) {
      EXPECT_EQ(d.actuator_moment(i, k), fresh.actuator_moment(i, k)) << i << ", " << k;
    }
    EXPECT_EQ(d.actuator_velocity[i], fresh.actuator_velocity[i]) << i;
  }
  for (int k = 0; k < 6; ++k) EXPECT_EQ(d.actuator_moment(0, k), 0) << "no contact, no arm";
  EXPECT_NE(d.actuator_moment(1, 6), 0) << "the site's arm on the hinge";
}

TEST(Actuation, JointGearScalesLengthMomentAndForce) {
  const Model m = slide_model(R"(<motor joint="s" gear="3"/>)");
  Data d(m);
  d.qpos << 0.2;
  d.qvel << -0.5;
  d.ctrl << 2;
  forward(m, d);
  EXPECT_NEAR(d.actuator_length[0], 0.6, kTol);
  EXPECT_NEAR(d.actuator_moment(0, 0), 3, kTol);
  EXPECT_NEAR(d.actuator_velocity[0], -1.5, kTol);
  EXPECT_NEAR(d.actuator_force[0], 2, kTol);
  EXPECT_NEAR(d.qfrc_actuator[0], 6, kTol);
  // acc0 = |M^-1 moment| = gear / mass.
  EXPECT_NEAR(m.actuators.acc0[0], 1.5, kTol);
}

TEST(Actuation, ControlIsClampedForTheForceButNotInData) {
  Model m = slide_model(R"(<motor joint="s" ctrllimited="true" ctrlrange="-1 1"/>)");
  Data d(m);
  d.ctrl << 5;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], 1, kTol);
  EXPECT_EQ(d.ctrl[0], 5);
  m.options.flags.clampctrl = false;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], 5, kTol);
}

TEST(Actuation, PositionAndVelocityServosWithForceLimit) {
  const Model m = slide_model(R"(
    <position joint="s" kp="10"/>
    <velocity joint="s" kv="4" forcelimited="true" forcerange="-0.5 0.5"/>)");
  Data d(m);
  d.qpos << 0.2;
  d.qvel << 0.1;
  d.ctrl << 0.5, 0.3;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], 10 * 0.5 - 10 * 0.2, kTol);
  EXPECT_NEAR(d.actuator_force[1], 0.5, kTol);  // 4 (0.3 - 0.1) = 0.8, clamped
  EXPECT_NEAR(d.qfrc_actuator[0], 3.5, kTol);
}

TEST(Actuation, IntegratorAndFilterActivations) {
  const Model m = slide_model(R"(
    <general joint="s" dyntype="integrator" gainprm="2"/>
    <general joint="s" dyntype="filter" dynprm="0.1"/>)");
  Data d(m);
  d.ctrl << 0.7, 1.0;
  d.act << 0.25, 0.4;
  forward(m, d);
  EXPECT_NEAR(d.act_dot[0], 0.7, kTol);
  EXPECT_NEAR(d.act_dot[1], (1.0 - 0.4) / 0.1, kTol);
  // Stateful actuators are driven by their activation.
  EXPECT_NEAR(d.actuator_force[0], 2 * 0.25, kTol);
  EXPECT_NEAR(d.actuator_force[1], 0.4, kTol);
}

TEST(Actuation, ActuationFlagOffGivesNoForce) {
  Model m = slide_model(R"(<motor joint="s"/>)");
  m.options.flags.actuation = false;
  Data d(m);
  d.ctrl << 3;
  forward(m, d);
  EXPECT_EQ(d.actuator_force[0], 0);
  EXPECT_EQ(d.qfrc_actuator[0], 0);
}

TEST(Actuation, MuscleAtOptimalLengthGivesPeakForce) {
  // lengthrange [0, 1] and range (0.75, 1.05): L0 = 1 / 0.3, and the
  // normalised length L = 0.75 + length / L0 is 1 at length 0.25 L0.
  // The slide is unlimited, so the range is given (a simulated one would
  // never settle).
  Model m = slide_model(R"(<muscle joint="s" force="100" lengthrange="0 1"/>)");
  const double L0 = 1 / 0.3;
  Data d(m);
  d.qpos << 0.25 * L0;
  d.act << 0.5;
  d.ctrl << 1;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], -100 * 0.5, 1e-9);  // FL = FV = 1, FP = 0
  // Activation: tau = tau_act (0.5 + 1.5 act) = 0.01 * 1.25 when ctrl > act.
  EXPECT_NEAR(d.act_dot[0], (1 - 0.5) / (0.01 * 1.25), 1e-9);
  // Passive force at L = b = (1 + lmax) / 2 = 1.3: 0.5 fpmax.
  d.qpos << (1.3 - 0.75) * L0;
  d.act << 0;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], -100 * 0.5 * 1.3, 1e-9);
  // Shortening at vmax (V = -1) leaves no active force.
  d.qpos << 0.25 * L0;
  d.qvel << -1.5 * L0;
  d.act << 1;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], 0, 1e-9);
}

TEST(Actuation, MuscleWithoutForceUsesScaleOverAcc0) {
  Model m = slide_model(R"(<muscle joint="s" scale="300" lengthrange="0 1"/>)");
  Data d(m);
  d.qpos << 0.25 / 0.3;
  d.act << 1;
  forward(m, d);
  EXPECT_NEAR(d.actuator_force[0], -300 / m.actuators.acc0[0], 1e-9);
}

TEST(Actuation, SiteWrenchIsExpressedInTheSiteFrame) {
  // The site is turned 90 degrees about z: its x axis is the world y axis.
  const Model m = load_with_constants(R"(
    <mujoco><worldbody>
      <body><joint type="slide" axis="1 0 0"/><joint type="hinge" axis="0 0 1"/>
        <geom size="0.1"/><site name="s" pos="0.5 0 0" euler="0 0 90"/></body>
    </worldbody>
    <actuator><motor site="s" gear="0 1 0 0 0 0"/><motor site="s" gear="0 0 0 0 0 2"/></actuator>
    </mujoco>)");
  Data d(m);
  forward(m, d);
  // Site y axis is world -x: force (-1, 0, 0) at (0.5, 0, 0).
  EXPECT_NEAR(d.actuator_moment(0, 0), -1, kTol);
  EXPECT_NEAR(d.actuator_moment(0, 1), 0, kTol);
  EXPECT_NEAR(d.actuator_moment(1, 0), 0, kTol);
  EXPECT_NEAR(d.actuator_moment(1, 1), 2, kTol);
  EXPECT_EQ(d.actuator_length[0], 0);
}

TEST(Actuation, SliderCrankMomentIsTheDerivativeOfItsLength) {
  const Model m = load_with_constants(R"(
    <mujoco><worldbody>
      <site name="slider" pos="0 -0.1 0" zaxis="1 0.5 0"/>
      <body><joint type="hinge" axis="0 0 1"/><geom type="capsule" fromto="0 0 0 0.2 0 0"
        size="0.01"/><site name="crank" pos="0.1 0 0"/></body>
    </worldbody>
    <actuator><motor cranksite="crank" slidersite="slider" cranklength="0.15" gear="2"/>
    </actuator>
    </mujoco>)");
  Data d(m);
  const double h = 1e-6;
  for (double q : {0.3, 1.2, -2.0}) {
    d.qpos << q + h;
    forward_position(m, d);
    const double plus = d.actuator_length[0];
    d.qpos << q - h;
    forward_position(m, d);
    const double minus = d.actuator_length[0];
    d.qpos << q;
    forward_position(m, d);
    EXPECT_NEAR(d.actuator_moment(0, 0), (plus - minus) / (2 * h), 1e-7) << "q = " << q;
  }
}

TEST(Actuation, BallJointLengthIsGearDotRotationVector) {
  const Model m = load_with_constants(R"(
    <mujoco><worldbody>
      <body><joint name="b" type="ball"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/></body>
    </worldbody>
    <actuator><motor joint="b" gear="1 2 3"/><motor jointinparent="b" gear="1 2 3"/></actuator>
    </mujoco>)");
  Data d(m);
  // A turn of 0.8 rad about z.
  const double angle = 0.8;
  d.qpos << std::cos(angle / 2), 0, 0, std::sin(angle / 2);
  forward(m, d);
  EXPECT_NEAR(d.actuator_length[0], 3 * angle, kTol);
  EXPECT_NEAR(d.actuator_moment(0, 0), 1, kTol);
  EXPECT_NEAR(d.actuator_moment(0, 2), 3, kTol);
  // Joint-in-parent: the gear (parent frame) seen in the child frame, R^T g.
  const Vector3d g(1, 2, 3);
  const Vector3d child = Eigen::AngleAxisd(-angle, Vector3d::UnitZ()) * g;
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(d.actuator_moment(1, k), child[k], kTol);
}

}  // namespace
// <compiler><lengthrange>: uselimit takes a limited joint's range as it is
// (no gear); mode "none" leaves a muscle without a range; without them the
// range is simulated and lies within the joint's reach times the gear.
TEST(Actuation, LengthRangeOptionsChooseHowRangesAreFound) {
  const std::string arm = R"(
    <worldbody><body><joint name="j" axis="0 0 1" range="-0.5 1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/></body></worldbody>
    <actuator><muscle joint="j" gear="0.1"/></actuator></mujoco>)";
  const auto range = [&](const std::string& compiler) {
    const Model m = load_model_from_string("<mujoco><compiler angle=\"radian\">" + compiler +
                                           "</compiler>" + arm);
    return m.actuators.length_range[0];
  };
  EXPECT_EQ(range(R"(<lengthrange uselimit="true"/>)"), Vector2d(-0.5, 1));
  EXPECT_EQ(range(R"(<lengthrange mode="none"/>)"), Vector2d(0, 0));
  const Vector2d simulated = range("");
  EXPECT_GT(simulated[0], -0.05 - 1e-3);  // the limit is soft: a little past it
  EXPECT_LT(simulated[0], -0.05 + 1e-3);
  EXPECT_GT(simulated[1], 0.1 - 1e-3);
  EXPECT_LT(simulated[1], 0.1 + 1e-3);
}

// A pull whose state diverges is a load error naming the actuator: step()
// resets a diverged state, time included, so the pull would otherwise run
// for ever (a fuzzed model did).
TEST(Actuation, DivergingLengthRangeSimulationIsALoadError) {
  const std::string model = R"(<mujoco><compiler><lengthrange accel="1e10"/></compiler>
    <worldbody><body><joint name="j" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.1" mass="1"/></body></worldbody>
    <actuator><muscle name="pull" joint="j"/></actuator></mujoco>)";
  try {
    load_model_from_string(model);
    FAIL() << "expected a LoadError";
  } catch (const LoadError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("actuator 'pull'"), std::string::npos) << what;
    EXPECT_NE(what.find("diverged"), std::string::npos) << what;
  }
}

}  // namespace pliant
