// Constraint rows on small scenes against the reference's measured numbers
// (mujoco-model.md section 8).

#include "engine/constraint/assemble.h"

#include <gtest/gtest.h>

#include <cmath>

#include "engine/forward.h"
#include "engine/load.h"

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
