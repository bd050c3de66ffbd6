#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pliant/load.h"
#include "pliant/load_error.h"

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
  // Sparse M: row 0 holds (0, 0), row 1 (1, 1) and (1, 0).
  EXPECT_EQ(m.dofs.madr, (std::vector<int>{0, 1}));
  EXPECT_EQ(m.dofs.mass_column, (std::vector<int>{0, 1, 0}));
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

// fusestatic moves a static body's cameras and lights into its parent with
// the body's pose (MuJoCo 3.3.8's WebAssembly build stops on such a model, so
// this is checked here rather than against it).
TEST(Loader, FusestaticMovesCamerasAndLights) {
  const Model m = load_model_from_string(R"(
    <mujoco><compiler fusestatic="true" angle="radian"/><worldbody>
      <body name="arm" pos="0 0 1"><joint/><geom size="0.1"/>
        <body name="mount" pos="0.1 0.2 0.3" euler="0 0 1.5707963267948966">
          <camera name="eye" pos="0.1 0 0"/>
          <light name="lamp" pos="0 0.1 0" dir="1 0 0"/>
        </body>
      </body>
    </worldbody></mujoco>)");
  ASSERT_EQ(m.body_count(), 2);
  ASSERT_EQ(m.cameras.count(), 1);
  ASSERT_EQ(m.lights.count(), 1);
  EXPECT_EQ(m.cameras.body[0], 1);
  EXPECT_EQ(m.lights.body[0], 1);
  EXPECT_TRUE(m.cameras.pos[0].isApprox(Vector3d(0.1, 0.3, 0.3), 1e-12));
  EXPECT_NEAR(m.cameras.quat[0].w(), std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(m.cameras.quat[0].z(), std::sqrt(0.5), 1e-12);
  EXPECT_TRUE(m.lights.pos[0].isApprox(Vector3d(0.0, 0.2, 0.3), 1e-12));
  EXPECT_LT((m.lights.dir[0] - Vector3d(0, 1, 0)).norm(), 1e-12);
}

// A fused body's mass lands where its geoms and <inertial> are, turned with
// the body (MuJoCo 3.3.8 differs here, docs/mujoco3-differences.md): fused,
// the parts give the same mass, centre and tensor as when written in the
// parent through <frame>s; and an <inertial> equal to a box geom's fuses
// like the box.
TEST(Loader, FusestaticMassEqualsTheSamePartsInTheParent) {
  const auto model = [](const std::string& inner, bool fuse) {
    return load_model_from_string(
        std::string("<mujoco><compiler angle=\"radian\" fusestatic=\"") +
        (fuse ? "true" : "false") +
        "\"/><worldbody><body name=\"arm\"><joint/><geom size=\"0.1\" mass=\"1\"/>" + inner +
        "</body></worldbody></mujoco>");
  };
  const std::string box = R"(<geom type="box" size="0.05 0.1 0.15" pos="0.05 0 0" mass="2"/>)";
  const std::string inertial =
      R"(<inertial pos="0.05 0 0" mass="2" diaginertia="0.021666666666666667 )"
      R"(0.016666666666666667 0.0083333333333333333"/>)";
  const std::string parts = R"(<geom size="0.05" pos="0.1 0 0" mass="1"/>
      <geom type="box" size="0.01 0.02 0.03" pos="0 0.1 0.05" mass="0.5"/>)";
  const Model fused = model(R"(<body pos="0.3 0 0" euler="0.4 0 1.5707963267948966">)" + parts +
                                R"(<body pos="0 0 0.2" euler="0 0.3 0">)" + box + "</body></body>",
                            true);
  const Model fused_inertial =
      model(R"(<body pos="0.3 0 0" euler="0.4 0 1.5707963267948966">)" + parts +
                R"(<body pos="0 0 0.2" euler="0 0.3 0">)" + inertial + "</body></body>",
            true);
  const Model merged =
      model(R"(<frame pos="0.3 0 0" euler="0.4 0 1.5707963267948966">)" + parts +
                R"(<frame pos="0 0 0.2" euler="0 0.3 0">)" + box + "</frame></frame>",
            false);
  const auto tensor = [](const Model& m) {
    const Eigen::Matrix3d r = m.bodies.iquat[1].toRotationMatrix();
    return Eigen::Matrix3d(r * m.bodies.inertia[1].asDiagonal() * r.transpose());
  };
  for (const Model* m : {&fused, &fused_inertial}) {
    ASSERT_EQ(m->body_count(), 2);
    EXPECT_NEAR(m->bodies.mass[1], merged.bodies.mass[1], 1e-12);
    EXPECT_LT((m->bodies.ipos[1] - merged.bodies.ipos[1]).norm(), 1e-12);
    EXPECT_LT((tensor(*m) - tensor(merged)).norm(), 1e-12);
  }
}

// An attribute written as "" (or spaces) is absent, as MuJoCo 3.3.8 reads
// it: the default (or the class's value) applies.
TEST(Loader, EmptyAttributeIsAbsent) {
  const Model m = load_model_from_string(R"(
    <mujoco>
      <default><default class="red"><geom rgba="1 0 0 1"/></default></default>
      <worldbody>
        <geom name="plain" size="0.1" rgba=""/>
        <body childclass="" pos="0 0 1">
          <geom name="classed" class="red" size="0.1" rgba="  " friction=""/>
          <geom name="noclass" class="" size="0.1"/>
        </body>
      </worldbody>
    </mujoco>)");
  EXPECT_EQ(m.geoms.rgba[0], Vector4d(0.5, 0.5, 0.5, 1));
  EXPECT_EQ(m.geoms.rgba[1], Vector4d(1, 0, 0, 1));
  EXPECT_EQ(m.geoms.friction[1].x(), 1);
  EXPECT_EQ(m.geoms.rgba[2], Vector4d(0.5, 0.5, 0.5, 1));
}

// The line search's options are read and kept (and written back by
// save_xml); bad values are load errors.
TEST(Loader, LineSearchOptions) {
  const Model m = load_model_from_string(R"(
    <mujoco><option ls_iterations="4" ls_tolerance="0.05"/>
      <worldbody><geom size="0.1"/></worldbody></mujoco>)");
  EXPECT_EQ(m.options.ls_iterations, 4);
  EXPECT_EQ(m.options.ls_tolerance, 0.05);
  for (const std::string& note : m.warnings) EXPECT_EQ(note.find("ls_"), std::string::npos) << note;
  EXPECT_THROW(
      load_model_from_string("<mujoco><option ls_iterations=\"-1\"/><worldbody/></mujoco>"),
      LoadError);
  EXPECT_THROW(
      load_model_from_string("<mujoco><option ls_tolerance=\"-0.1\"/><worldbody/></mujoco>"),
      LoadError);
}

// multiccd is applied (several contacts per general convex pair), so it
// loads without a note, enabled or not.
TEST(Loader, MulticcdLoadsWithoutANote) {
  for (const std::string flag : {"enable", "disable"}) {
    const Model m = load_model_from_string("<mujoco><option><flag multiccd=\"" + flag +
                                           "\"/></option><worldbody/></mujoco>");
    EXPECT_EQ(m.options.flags.multiccd, flag == "enable");
    for (const std::string& note : m.warnings) {
      EXPECT_EQ(note.find("multiccd"), std::string::npos) << note;
    }
  }
}

// A shortcut element in a class whose default is another shortcut takes
// its own kind's gain and bias, as MuJoCo 3.3.8: a <velocity> in a
// <position kp kv> class has no position term, a <damper> no class gain;
// a <position> keeps the class's kv.
TEST(Loader, ShortcutsInAnotherShortcutsClass) {
  const Model m = load_model_from_string(R"(
    <mujoco>
      <default><default class="servo"><position kp="50" kv="3"/></default></default>
      <worldbody><body><joint name="j"/><geom size="0.1"/></body></worldbody>
      <actuator>
        <velocity class="servo" joint="j" kv="2"/>
        <position class="servo" joint="j"/>
        <damper class="servo" joint="j" kv="1" ctrlrange="0 1"/>
      </actuator>
    </mujoco>)");
  const auto& gain = m.actuators.gainprm;
  const auto& bias = m.actuators.biasprm;
  EXPECT_EQ(gain[0][0], 2);
  EXPECT_EQ(bias[0][0], 0);
  EXPECT_EQ(bias[0][1], 0);
  EXPECT_EQ(bias[0][2], -2);
  EXPECT_EQ(gain[1][0], 50);
  EXPECT_EQ(bias[1][1], -50);
  EXPECT_EQ(bias[1][2], -3);
  EXPECT_EQ(gain[2][0], 0);
  EXPECT_EQ(gain[2][2], -1);
}

// Length ranges by simulation: all the pulls together are bounded too, so
// a model loads in seconds (three actuators of 100 000-step pulls: refused).
TEST(Loader, LengthRangeSimulationHasATotalBudget) {
  std::string xml = R"(
    <mujoco>
      <compiler><lengthrange mode="all" inttotal="100" timestep="0.001"/></compiler>
      <worldbody><body><joint name="a"/><geom size="0.1"/></body>
        <body pos="1 0 0"><joint name="b"/><geom size="0.1"/></body>
        <body pos="2 0 0"><joint name="c"/><geom size="0.1"/></body></worldbody>
      <actuator><motor joint="a"/><motor joint="b"/><motor joint="c"/></actuator>
    </mujoco>)";
  try {
    load_model_from_string(xml);
    ADD_FAILURE() << "loaded";
  } catch (const LoadError& e) {
    EXPECT_NE(e.message().find("at most 400000"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pliant
