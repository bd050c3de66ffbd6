#include <gtest/gtest.h>

#include <cmath>

#include "engine/load.h"

namespace pliant {
namespace {

TEST(Loader, LoadsSmallModelWithDefaultsAndIds) {
  const Model m = load_model_from_string(R"(
    <mujoco model="two links">
      <default>
        <geom density="500"/>
        <default class="heavy"><geom density="2000"/></default>
      </default>
      <worldbody>
        <geom name="floor" type="plane" size="1 1 0.1"/>
        <body name="a" pos="0 0 1">
          <joint name="ja" type="hinge" axis="0 2 0"/>
          <geom type="sphere" size="0.1"/>
          <body name="b" pos="0 0 -0.5" childclass="heavy">
            <joint name="jb" type="slide"/>
            <geom type="box" size="0.1 0.2 0.3"/>
          </body>
        </body>
      </worldbody>
    </mujoco>)");
  EXPECT_EQ(m.model_name, "two links");
  ASSERT_EQ(m.body_count(), 3);
  EXPECT_EQ(m.nq, 2);
  EXPECT_EQ(m.nv, 2);
  EXPECT_EQ(m.id(ObjectType::kBody, "b"), 2);
  EXPECT_EQ(m.id(ObjectType::kJoint, "jb"), 1);
  EXPECT_EQ(m.bodies.parent[2], 1);
  EXPECT_EQ(m.dofs.parent[1], 0);
  EXPECT_DOUBLE_EQ(m.joints.axis[0].y(), 1.0);
  // Sphere of density 500 and a box of density 2000 from the child class.
  EXPECT_NEAR(m.bodies.mass[1], 500 * 4.0 / 3.0 * M_PI * 0.001, 1e-12);
  EXPECT_NEAR(m.bodies.mass[2], 2000 * 8 * 0.1 * 0.2 * 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(m.bodies.subtree_mass[1], m.bodies.mass[1] + m.bodies.mass[2]);
}

TEST(Loader, HingeRangesAreConvertedFromDegrees) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <joint limited="true" range="-30 60" ref="10"/><geom size="0.1"/>
    </body></worldbody></mujoco>)");
  EXPECT_NEAR(m.joints.range[0][0], -M_PI / 6, 1e-15);
  EXPECT_NEAR(m.joints.range[0][1], M_PI / 3, 1e-15);
  EXPECT_NEAR(m.qpos0[0], M_PI / 18, 1e-15);
}

TEST(Loader, FromtoSetsCapsuleFrameAndLength) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <geom type="capsule" fromto="0 0 0 1 0 0" size="0.05"/>
    </body></worldbody></mujoco>)");
  EXPECT_NEAR(m.geoms.pos[0].x(), 0.5, 1e-15);
  EXPECT_NEAR(m.geoms.size[0][1], 0.5, 1e-15);
  // As in MuJoCo, the geom's z axis points from `to` back towards `from`.
  const Vector3d z = m.geoms.quat[0] * Vector3d::UnitZ();
  EXPECT_NEAR(z.x(), -1.0, 1e-15);
}

TEST(Loader, FreeJointQpos0IsBodyPose) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body pos="1 2 3" euler="0 0 90">
      <freejoint/><geom size="0.1"/>
    </body></worldbody></mujoco>)");
  ASSERT_EQ(m.nq, 7);
  EXPECT_DOUBLE_EQ(m.qpos0[2], 3.0);
  EXPECT_NEAR(m.qpos0[3], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(m.qpos0[6], std::sqrt(0.5), 1e-15);
}

TEST(Loader, ExplicitInertialWinsOverGeoms) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody><body>
      <joint/><inertial pos="0 0 0.1" mass="3" diaginertia="1 2 3"/><geom size="1"/>
    </body></worldbody></mujoco>)");
  EXPECT_DOUBLE_EQ(m.bodies.mass[1], 3.0);
  EXPECT_DOUBLE_EQ(m.bodies.inertia[1].z(), 3.0);
}

TEST(Loader, SettotalmassScalesEveryBody) {
  const Model m = load_model_from_string(R"(
    <mujoco><compiler settotalmass="10"/><worldbody>
      <body><joint/><geom size="0.1"/></body>
      <body><joint/><geom size="0.2"/></body>
    </worldbody></mujoco>)");
  EXPECT_NEAR(m.bodies.mass[1] + m.bodies.mass[2], 10.0, 1e-12);
  EXPECT_NEAR(m.bodies.mass[2] / m.bodies.mass[1], 8.0, 1e-12);
}

}  // namespace
}  // namespace pliant
