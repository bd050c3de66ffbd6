// Derivatives of the step and of inverse dynamics by finite differences
// (pliant/derivatives.h): against the closed form of a damped spring,
// skipped stages against full steps bit for bit, one-sided differences at
// a control's limit, and position differences on the manifold.

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "pliant/derivatives.h"
#include "pliant/forward.h"
#include "pliant/integrate_position.h"
#include "pliant/inverse.h"
#include "pliant/load.h"
#include "pliant/state.h"
#include "pliant/step.h"

namespace pliant {
namespace {

// A mass on a spring and damper along a slide, pushed by a motor: with
// Euler's implicit damping the step is linear,
//   v' = v + h (-k q - b v + u) / (m + h b),  q' = q + h v'.
TEST(TransitionDerivatives, EqualTheDampedSpringsClosedForm) {
  const Model m = load_model_from_string(R"(
    <mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody><body>
      <joint name="x" type="slide" axis="1 0 0" stiffness="40" damping="3"/>
      <geom type="sphere" size=".1" mass="2"/></body></worldbody>
      <actuator><motor joint="x"/></actuator>
      <sensor><jointpos joint="x"/><jointvel joint="x"/></sensor></mujoco>)");
  Data d(m);
  d.qpos[0] = 0.1;
  d.qvel[0] = -0.3;
  d.ctrl[0] = 0.5;
  const double h = 0.01, k = 40, b = 3, mass = 2, denominator = mass + h * b;
  const double dv_dq = -h * k / denominator, dv_dv = 1 - h * b / denominator;
  const double dv_du = h / denominator;
  for (bool centred : {false, true}) {
    DifferenceOptions o;
    o.centred = centred;
    const TransitionDerivatives t = transition_derivatives(m, d, o);
    ASSERT_EQ(t.A.rows(), 2);
    EXPECT_NEAR(t.A(0, 0), 1 + h * dv_dq, 1e-8);
    EXPECT_NEAR(t.A(0, 1), h * dv_dv, 1e-8);
    EXPECT_NEAR(t.A(1, 0), dv_dq, 1e-8);
    EXPECT_NEAR(t.A(1, 1), dv_dv, 1e-8);
    EXPECT_NEAR(t.B(0, 0), h * dv_du, 1e-8);
    EXPECT_NEAR(t.B(1, 0), dv_du, 1e-8);
    // Sensors read the state before the step: C is the identity, D zero.
    EXPECT_NEAR(t.C(0, 0), 1, 1e-8);
    EXPECT_NEAR(t.C(1, 1), 1, 1e-8);
    EXPECT_NEAR(t.C(0, 1), 0, 1e-8);
    EXPECT_NEAR(t.D.norm(), 0, 1e-8);
  }
  // The state is restored.
  EXPECT_EQ(d.qpos[0], 0.1);
  EXPECT_EQ(d.qvel[0], -0.3);
  EXPECT_EQ(d.time, 0);
}

// Boxes in contact, a limited hinge with actuators and activation, sensors
// of every stage.
const char* kScene = R"(
  <mujoco><option integrator="implicitfast"/><worldbody><geom type="plane" size="5 5 .1"/>
    <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos=".05 0 .32" euler="0 0 20"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos="0 1 .5"><joint name="hinge" type="hinge" axis="0 1 0" range="-.5 .5" damping=".2"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/><site name="tip" pos=".3 0 0"/></body>
  </worldbody>
  <actuator><general name="filtered" joint="hinge" dyntype="filter" dynprm=".05" gainprm="3" ctrlrange="-1 1"/>
    <motor joint="hinge" ctrlrange="0 1"/></actuator>
  <sensor><framepos objtype="site" objname="tip"/><jointvel joint="hinge"/>
    <accelerometer site="tip"/><actuatorfrc actuator="filtered"/></sensor></mujoco>)";

TEST(TransitionDerivatives, SkippingStagesIsBitIdentical) {
  const Model m = load_model_from_string(kScene);
  Data d(m);
  d.ctrl << 0.3, 0.2;
  for (int i = 0; i < 30; ++i) step(m, d);
  ASSERT_GT(d.contacts.size(), 3u);
  for (bool centred : {false, true}) {
    DifferenceOptions skip, full;
    skip.centred = full.centred = centred;
    full.skip_stages = false;
    const TransitionDerivatives a = transition_derivatives(m, d, skip);
    const TransitionDerivatives b = transition_derivatives(m, d, full);
    EXPECT_EQ(a.A, b.A);
    EXPECT_EQ(a.B, b.B);
    EXPECT_EQ(a.C, b.C);
    EXPECT_EQ(a.D, b.D);
    EXPECT_GT(a.A.cwiseAbs().maxCoeff(), 0.5);
    const InverseDerivatives c = inverse_derivatives(m, d, true, skip);
    const InverseDerivatives e = inverse_derivatives(m, d, true, full);
    EXPECT_EQ(c.DfDq, e.DfDq);
    EXPECT_EQ(c.DfDv, e.DfDv);
    EXPECT_EQ(c.DfDa, e.DfDa);
    EXPECT_EQ(c.DsDq, e.DsDq);
  }
}

// The position columns on several threads, each on a copy of the data,
// give the one-thread matrices bit for bit (with contacts, forward and
// centred, with and without the linearised solve), and leave data's state
// as it was.
TEST(TransitionDerivatives, ThreadsGiveTheSameMatrices) {
  const Model m = load_model_from_string(kScene);
  Data d(m);
  d.ctrl << 0.3, 0.2;
  for (int i = 0; i < 30; ++i) step(m, d);
  ASSERT_GT(d.contacts.size(), 3u);
  const VectorXd qpos = d.qpos, qvel = d.qvel;
  for (bool centred : {false, true}) {
    for (bool linear : {false, true}) {
      DifferenceOptions one;
      one.centred = centred;
      one.linearise_solve = linear;
      const TransitionDerivatives a = transition_derivatives(m, d, one);
      for (int threads : {2, 3, 64}) {
        DifferenceOptions many = one;
        many.threads = threads;
        const TransitionDerivatives b = transition_derivatives(m, d, many);
        EXPECT_EQ(a.A, b.A) << threads;
        EXPECT_EQ(a.B, b.B) << threads;
        EXPECT_EQ(a.C, b.C) << threads;
        EXPECT_EQ(a.D, b.D) << threads;
      }
      EXPECT_EQ(d.qpos, qpos);
      EXPECT_EQ(d.qvel, qvel);
    }
  }
}

// A control at the end of its range is nudged inward only: its column is
// the one-sided difference, not a step past the range.
TEST(TransitionDerivatives, ControlAtItsLimitIsDifferencedInward) {
  const Model m = load_model_from_string(kScene);
  Data d(m);
  d.ctrl << 0.3, 1.0;  // the motor at the top of [0, 1]
  for (int i = 0; i < 10; ++i) step(m, d);
  DifferenceOptions o;
  o.centred = true;
  const TransitionDerivatives t = transition_derivatives(m, d, o);
  // By hand: the state after a step from u - eps and from u.
  const auto next_qvel = [&](double u) {
    Data copy(m);
    copy_data(m, copy, d);
    copy.ctrl[1] = u;
    step(m, copy);
    return copy.qvel;
  };
  const VectorXd column = (next_qvel(1.0) - next_qvel(1.0 - o.eps)) / o.eps;
  EXPECT_LT((t.B.col(1).segment(m.nv, m.nv) - column).norm(), 1e-6 * std::max(1.0, column.norm()));
  EXPECT_GT(column.norm(), 1e-3);
}

// Inverse dynamics' acceleration derivative is the mass matrix where the
// constraints are satisfied or absent.
TEST(InverseDerivatives, AccelerationColumnsAreTheMassMatrix) {
  Model m = load_model_from_string(kScene);
  m.options.flags.constraint = false;
  Data d(m);
  d.qvel.setConstant(0.3);
  forward(m, d);
  const InverseDerivatives j = inverse_derivatives(m, d, false);
  ASSERT_EQ(j.DfDa.rows(), m.nv);
  Eigen::MatrixXd mass(m.nv, m.nv);
  for (int i = 0; i < m.nv; ++i) {
    // M e_i by inverse dynamics' linearity in qacc.
    Data a(m), b(m);
    copy_data(m, a, d);
    copy_data(m, b, d);
    b.qacc[i] += 1;
    inverse(m, a);
    inverse(m, b);
    mass.col(i) = b.qfrc_inverse - a.qfrc_inverse;
  }
  EXPECT_LT((j.DfDa - mass).cwiseAbs().maxCoeff(), 1e-6 * mass.cwiseAbs().maxCoeff());
  EXPECT_EQ(j.DmDq.rows(), static_cast<long>(d.qM.size()));
}

TEST(TransitionDerivatives, RefuseRk4AndAnotherModelsData) {
  Model m = load_model_from_string(kScene);
  Data d(m);
  m.options.integrator = Integrator::kRk4;
  const std::vector<double> qpos(d.qpos.data(), d.qpos.data() + m.nq);
  EXPECT_THROW(transition_derivatives(m, d), std::invalid_argument);
  EXPECT_THROW(inverse_derivatives(m, d, false), std::invalid_argument);
  EXPECT_EQ(std::vector<double>(d.qpos.data(), d.qpos.data() + m.nq), qpos);
  const Model other = load_model_from_string(
      "<mujoco><worldbody><body><joint/><geom size='.1'/></body></worldbody></mujoco>");
  EXPECT_THROW(transition_derivatives(other, d), std::invalid_argument);
}

// differentiate_position inverts integrate_position, on the manifold.
TEST(DifferentiatePosition, InvertsIntegratePosition) {
  const Model m = load_model_from_string(kScene);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-3, 3);
  Data d(m);
  for (int trial = 0; trial < 20; ++trial) {
    const VectorXd v = VectorXd::NullaryExpr(m.nv, [&] { return u(rng); });
    VectorXd q = d.qpos;
    integrate_position(m, q.data(), v.data(), 0.1);
    VectorXd back(m.nv);
    differentiate_position(m, back.data(), 0.1, d.qpos.data(), q.data());
    EXPECT_LT((back - v).cwiseAbs().maxCoeff(), 1e-12);
  }
}

}  // namespace
}  // namespace pliant

namespace pliant {
namespace {

// The largest difference between two matrices' columns first..last-1,
// relative to the larger column norm (at least 1).
double column_gap(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, int first, int last) {
  double worst = 0;
  for (int c = first; c < last; ++c) {
    const double scale = std::max({1.0, a.col(c).norm(), b.col(c).norm()});
    worst = std::max(worst, (a.col(c) - b.col(c)).norm() / scale);
  }
  return worst;
}

// The linearised solve against differences of full solves, with contacts
// of both cones, a limit, friction loss and activations, for the
// integrators it covers. qvel, act and ctrl columns: the forward linearised
// columns against centred differences (the solve is linear there, so they
// are the centred columns). qpos columns: against the same differences of
// full solves, forward and centred; the forward difference's own error on a
// resting box's height column is 1e-3 (against centred), the chord steps'
// 1e-9.
TEST(TransitionDerivatives, LinearisedSolveEqualsCentredDifferences) {
  for (const char* cone : {"elliptic", "pyramidal"}) {
    for (const char* integrator : {"Euler", "implicitfast", "implicit"}) {
      std::string xml = kScene;
      xml.replace(xml.find("<option integrator=\"implicitfast\"/>"), 34,
                  std::string("<option integrator=\"") + integrator + "\" cone=\"" + cone +
                      "\" tolerance=\"1e-14\" iterations=\"300\"/>");
      const Model m = load_model_from_string(xml);
      Data d(m);
      d.ctrl << 0.3, 0.2;
      for (int i = 0; i < 40; ++i) step(m, d);
      d.qvel[m.nv - 1] = 0.8;
      ASSERT_GT(d.contacts.size(), 3u);
      DifferenceOptions centred, linear, forward, linear_centred;
      centred.centred = linear_centred.centred = true;
      linear.linearise_solve = linear_centred.linearise_solve = true;
      const TransitionDerivatives a = transition_derivatives(m, d, centred);
      const TransitionDerivatives b = transition_derivatives(m, d, linear);
      const int nv = m.nv, ndx = 2 * nv + m.na;
      const std::string where = std::string(cone) + " " + integrator;
      EXPECT_LT(column_gap(a.A, b.A, nv, ndx), 1e-5) << where;
      EXPECT_LT(column_gap(a.B, b.B, 0, m.nu), 1e-5) << where;
      EXPECT_LT(column_gap(a.C, b.C, nv, ndx), 1e-5) << where;
      EXPECT_LT(column_gap(a.D, b.D, 0, m.nu), 1e-5) << where;
      EXPECT_GT(b.B.norm(), 1e-3);
      const TransitionDerivatives e = transition_derivatives(m, d, forward);
      const TransitionDerivatives c = transition_derivatives(m, d, linear_centred);
      EXPECT_LT(column_gap(e.A, b.A, 0, nv), 1e-7) << where;
      EXPECT_LT(column_gap(e.C, b.C, 0, nv), 1e-7) << where;
      EXPECT_LT(column_gap(a.A, c.A, 0, nv), 1e-7) << where;
      EXPECT_LT(column_gap(a.C, c.C, 0, nv), 1e-7) << where;
      // The forward differences' own error is far larger: the comparison
      // can tell the two apart.
      EXPECT_GT(column_gap(a.A, e.A, 0, nv), 1e-4) << where;
    }
  }
}

// A qpos nudge that makes a contact: the linearised solve has no rows to
// follow, so the column is the full solve's, bit for bit; without that
// fallback it would miss the contact's force.
TEST(TransitionDerivatives, LinearisedSolveSolvesWhereANudgeMakesAContact) {
  const Model m = load_model_from_string(R"(
    <mujoco><option gravity="0 0 -9.81"/><worldbody><geom type="plane" size="5 5 .1"/>
      <body pos="0 0 .1000005"><freejoint/><geom type="sphere" size=".1"/></body>
    </worldbody></mujoco>)");
  Data d(m);
  forward(m, d);
  ASSERT_EQ(d.efc.count(), 0);
  DifferenceOptions forward_differences, linear;
  linear.linearise_solve = true;
  const TransitionDerivatives e = transition_derivatives(m, d, forward_differences);
  const TransitionDerivatives b = transition_derivatives(m, d, linear);
  // The sphere is 5e-7 above the plane: a forward nudge of its height
  // (+1e-6) makes no contact, the centred difference's downward one does.
  EXPECT_EQ(e.A, b.A);
  DifferenceOptions centred = forward_differences, linear_centred = linear;
  centred.centred = linear_centred.centred = true;
  const TransitionDerivatives ec = transition_derivatives(m, d, centred);
  const TransitionDerivatives bc = transition_derivatives(m, d, linear_centred);
  EXPECT_EQ(ec.A.col(2), bc.A.col(2));
  // The contact shows in the height column: its velocity row is far from
  // free fall's (which is 0: height does not change the acceleration).
  EXPECT_GT(std::abs(ec.A(m.nv + 2, 2)), 1.0);
}

}  // namespace
}  // namespace pliant
