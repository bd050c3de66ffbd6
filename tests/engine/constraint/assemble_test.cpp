// Constraint rows on small scenes against the reference's measured numbers
// (docs/physics.md §8).

#include "engine/constraint/assemble.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pliant/forward.h"
#include "pliant/impedance.h"
#include "pliant/load.h"
#include "pliant/state.h"
#include "pliant/step.h"

namespace pliant {
namespace {

TEST(ConstraintRows, SlideLimitImpedanceTable) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <joint type="slide" axis="1 0 0" limited="true" range="0 1"/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    </body></worldbody></mujoco>)");
  Data d(m);
  d.qvel[0] = -0.1;  // moving into the lower limit at 0.1 m/s
  const double expected_d[] = {0.90625, 0.925, 0.94375, 0.95};
  for (int i = 0; i < 4; ++i) {
    d.qpos[0] = -0.00025 * (i + 1);
    forward(m, d);
    ASSERT_EQ(d.efc.count(), 1);
    EXPECT_EQ(d.efc.type[0], ConstraintType::kLimitJoint);
    EXPECT_NEAR(d.efc.impedance[0].d, expected_d[i], 1e-12);
    EXPECT_NEAR(d.efc.impedance[0].K, 2770.083, 1e-3);
    EXPECT_NEAR(d.efc.impedance[0].B, 105.263, 1e-3);
  }
  d.qpos[0] = -0.00025;
  forward(m, d);
  EXPECT_NEAR(d.efc.R[0], 0.1034483, 1e-7);
  EXPECT_NEAR(d.efc.aref[0], 11.153913, 1e-6);
}

TEST(ConstraintRows, HingeLimitRowAtPointSix) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <joint type="hinge" limited="true" range="-30 30"/><geom size="0.1" pos="0.2 0 0"/>
    </body></worldbody></mujoco>)");
  Data d(m);
  d.qpos[0] = 0.6;
  forward(m, d);
  ASSERT_EQ(d.efc.count(), 1);
  EXPECT_NEAR(d.efc.pos[0], -0.0764012, 1e-7);
  EXPECT_DOUBLE_EQ(d.efc.J[0], -1.0);
}

TEST(ConstraintRows, EllipticCondim6RegularisersWithImpratio4) {
  // A 2 kg sphere pressed into the floor (deeper than the solimp width, so
  // d = dmax = 0.95): R0 = (1-d)/d * diagApprox = 0.0526316 * 0.5.
  const Model m = load_model_from_string(R"(
    <mujoco><option cone="elliptic" impratio="4"/><worldbody>
      <geom type="plane" size="1 1 1" condim="6"/>
      <body pos="0 0 0.098"><freejoint/><geom size="0.1" mass="2" condim="6"/></body>
    </worldbody></mujoco>)");
  Data d(m);
  forward(m, d);
  ASSERT_EQ(d.contacts.size(), 1u);
  ASSERT_EQ(d.efc.count(), 6);
  const double expected[] = {0.0263158, 0.0263158 / 4, 0.0263158 / 4, 263.158, 657894.7, 657894.7};
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(d.efc.type[i], ConstraintType::kContactElliptic);
    EXPECT_NEAR(d.efc.R[i], expected[i], 1e-6 * expected[i]) << "row " << i;
  }
  EXPECT_NEAR(d.contacts[0].mu, 0.5, 1e-15);
}

TEST(ConstraintRows, FrictionLossRowHasNoSpring) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <joint type="slide" frictionloss="1"/><geom size="0.1"/>
    </body></worldbody></mujoco>)");
  Data d(m);
  d.qvel[0] = 0.5;
  forward(m, d);
  ASSERT_EQ(d.efc.count(), 1);
  EXPECT_EQ(d.efc.type[0], ConstraintType::kFrictionDof);
  EXPECT_DOUBLE_EQ(d.efc.frictionloss[0], 1.0);
  EXPECT_DOUBLE_EQ(d.efc.impedance[0].K, 0.0);
  EXPECT_DOUBLE_EQ(d.efc.aref[0], -d.efc.impedance[0].B * 0.5);
}

TEST(ConstraintRows, EqualityBetweenStaticBodiesIsDropped) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <body name="a"><geom size="0.1"/></body>
      <body name="b" pos="1 0 0"><geom size="0.1"/></body>
    </worldbody><equality><connect body1="a" body2="b" anchor="0 0 0"/></equality></mujoco>)");
  Data d(m);
  forward(m, d);
  EXPECT_EQ(d.efc.count(), 0);
}

TEST(ConstraintRows, DisableFlagsRemoveRows) {
  Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <joint type="slide" frictionloss="1" limited="true" range="0.1 1"/><geom size="0.1"/>
    </body></worldbody></mujoco>)");
  Data d(m);
  forward(m, d);
  EXPECT_EQ(d.efc.count(), 2);
  m.options.flags.limit = false;
  forward(m, d);
  EXPECT_EQ(d.efc.count(), 1);
  m.options.flags.constraint = false;
  forward(m, d);
  EXPECT_EQ(d.efc.count(), 0);
}

// A step writes its rows over the last step's (the arrays are not cleared):
// at every step of a scene whose rows come and go (a ball thrown off the
// floor, a swinging arm reaching its limit, friction loss, a box landing),
// the rows equal those a fresh Data builds from the same state.
TEST(ConstraintRows, RowsOverLastStepsEqualAFreshDatas) {
  const Model m = load_model_from_string(R"(
    <mujoco><option timestep="0.005"/><worldbody>
      <geom type="plane" size="2 2 0.1"/>
      <body pos="0 0 1">
        <joint type="hinge" axis="0 1 0" limited="true" range="-20 20" frictionloss="0.05"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      </body>
      <body pos="0.8 0 0.095"><freejoint/><geom type="sphere" size="0.1"/></body>
      <body pos="-0.6 0 0.3"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
    </worldbody></mujoco>)");
  Data d(m);
  d.qvel[1 + 2] = 2;  // the ball (dofs 1-6), sunk into the floor, thrown up
  std::vector<double> state(state_size(m, kStateIntegration));
  forward(m, d);
  int previous = d.efc.count();
  bool fewer = false, more = false;
  for (int k = 0; k < 200; ++k) {
    step(m, d);
    forward(m, d);  // over the rows of the step's own forward
    get_state(m, d, state.data(), kStateIntegration);
    Data fresh(m);
    set_state(m, fresh, state.data(), kStateIntegration);
    forward(m, fresh);
    const ConstraintRows &a = d.efc, &b = fresh.efc;
    ASSERT_EQ(a.count(), b.count()) << "step " << k;
    fewer = fewer || a.count() < previous;
    more = more || a.count() > previous;
    previous = a.count();
    for (int i = 0; i < a.count(); ++i) {
      ASSERT_EQ(a.type[i], b.type[i]) << "step " << k << " row " << i;
      ASSERT_EQ(a.id[i], b.id[i]);
      ASSERT_EQ(a.pos[i], b.pos[i]);
      ASSERT_EQ(a.margin[i], b.margin[i]);
      ASSERT_EQ(a.frictionloss[i], b.frictionloss[i]);
      ASSERT_EQ(a.diag_approx[i], b.diag_approx[i]);
      ASSERT_EQ(a.R[i], b.R[i]);
      ASSERT_EQ(a.D[i], b.D[i]);
      ASSERT_EQ(a.impedance[i].K, b.impedance[i].K);
      ASSERT_EQ(a.impedance[i].B, b.impedance[i].B);
      ASSERT_EQ(a.impedance[i].d, b.impedance[i].d);
      ASSERT_EQ(a.aref[i], b.aref[i]);
      ASSERT_EQ(a.row_nnz[i], b.row_nnz[i]);
      ASSERT_EQ(a.row_adr[i], b.row_adr[i]);
    }
    ASSERT_EQ(a.J.size(), b.J.size()) << "step " << k;
    ASSERT_EQ(a.col, b.col) << "step " << k;
    ASSERT_EQ(a.J, b.J) << "step " << k;
  }
  // The scene did what the test needs: rows both went and came.
  EXPECT_TRUE(fewer);
  EXPECT_TRUE(more);
}

// Contacts of the same two bodies come one after another and share their
// Jacobian's columns, but each keeps its own solref and solimp: a body with
// two spheres of different softness on the floor, and a second body after
// it. Every contact's rows carry the impedance and reference spring of its
// own parameters, and its Jacobian is that of its own point.
TEST(ConstraintRows, ContactsOfOneBodyPairKeepTheirOwnParameters) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom type="plane" size="2 2 0.1"/>
      <body pos="0 0 0.098"><freejoint/>
        <geom type="sphere" size="0.1" pos="-0.2 0 0"/>
        <geom type="sphere" size="0.1" pos="0.2 0 0" solref="0.05 0.5" solimp="0.5 0.8 0.01"/>
        <geom type="sphere" size="0.1" pos="0 0.2 0" solref="-2000 -30"/>
      </body>
      <body pos="1 0 0.099"><freejoint/><geom type="sphere" size="0.1"/></body>
    </worldbody></mujoco>)");
  Data d(m);
  forward(m, d);
  ASSERT_EQ(d.contacts.size(), 4u);
  EXPECT_FALSE(d.contacts[0].solref == d.contacts[1].solref);
  EXPECT_FALSE(d.contacts[1].solimp == d.contacts[2].solimp);
  for (const Contact& con : d.contacts) {
    ASSERT_GE(con.efc_address, 0);
    const SolImp solimp = sanitize(con.solimp);
    const SpringDamper kb = reference_spring(sanitize(con.solref), solimp.dmax, m.options.timestep,
                                             m.options.flags.refsafe);
    const double expected_d = impedance(solimp, con.dist - con.includemargin).d;
    for (int r = 0; r < 4; ++r) {
      const int i = con.efc_address + r;
      EXPECT_EQ(d.efc.type[i], ConstraintType::kContactPyramidal);
      EXPECT_DOUBLE_EQ(d.efc.impedance[i].K, kb.K) << "contact geom " << con.geom2 << " row " << r;
      EXPECT_DOUBLE_EQ(d.efc.impedance[i].B, kb.B) << "contact geom " << con.geom2 << " row " << r;
      EXPECT_DOUBLE_EQ(d.efc.impedance[i].d, expected_d) << "contact geom " << con.geom2;
    }
    // The normal's part of every edge: J_n = (J+ + J-) / 2 of the first
    // pair of edges; its translation is the normal, its rotation about
    // the free joint's anchor (the body's origin) is (point - anchor) x
    // normal.
    const int i = con.efc_address;
    const int adr = d.efc.row_adr[i];
    ASSERT_EQ(d.efc.row_nnz[i], 6);
    const int body = m.geoms.body[con.geom2];
    const Eigen::Vector3d normal = con.frame.row(0).transpose();
    // The free joint's rotation dofs turn about the body's own axes.
    const Eigen::Vector3d moment =
        d.xmat[body].transpose() * (con.pos - d.xpos[body]).cross(normal);
    for (int k = 0; k < 6; ++k) {
      const double normal_part = 0.5 * (d.efc.J[adr + k] + d.efc.J[adr + 6 + k]);
      EXPECT_NEAR(normal_part, k < 3 ? normal[k] : moment[k - 3], 1e-12) << "column " << k;
    }
  }
}

}  // namespace
}  // namespace pliant
