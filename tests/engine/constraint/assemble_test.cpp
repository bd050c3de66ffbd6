// Constraint rows on small scenes against the reference's measured numbers
// (docs/physics.md §8).

#include "engine/constraint/assemble.h"

#include <gtest/gtest.h>

#include <cmath>

#include "pliant/forward.h"
#include "pliant/load.h"

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

}  // namespace
}  // namespace pliant
