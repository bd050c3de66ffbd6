// save_xml: a loaded model written as MJCF loads back with every size,
// option, array and name equal (exactly), a step from either gives the same
// state bit for bit, and writing the reloaded model gives the same text.

#include "pliant/save_xml.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pliant/data.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "tests/model/model_difference.h"

namespace pliant {
namespace {

namespace fs = std::filesystem;

// The models of the default suite (no extended corpus): dm_control, the
// Menagerie models kept in the repository, the sample scenes and the
// MuJoCo 3.x feature models of tests/data.
std::vector<std::string> round_trip_models() {
  std::vector<std::string> out;
  const auto add_folder = [&](const std::string& folder) {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string path = entry.path().string();
      if (entry.path().extension() == ".xml" && path.find(".scenario.") == std::string::npos) {
        found.push_back(path);
      }
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  };
  add_folder(PLIANT_TEST_MODELS "/dm_control");
  add_folder(PLIANT_SCENES);
  add_folder(PLIANT_TEST_DATA "/mujoco3");
  add_folder(PLIANT_TEST_DATA "/sensors");
  for (const char* name : {"robotiq_2f85/2f85.xml", "robotiq_2f85/scene.xml",
                           "wonik_allegro/left_hand.xml", "wonik_allegro/scene_right.xml"}) {
    out.push_back(std::string(PLIANT_TEST_MODELS "/menagerie/") + name);
  }
  return out;
}

// What MJCF cannot carry (save_xml.h): a primitive fitted to a mesh loads
// back as the plain primitive, without its mesh id.
bool has_fitted_primitive(const Model& m) {
  for (int g = 0; g < m.geoms.count(); ++g) {
    const GeomType type = m.geoms.type[g];
    if (type != GeomType::kMesh && type != GeomType::kHfield && m.geoms.data_id[g] >= 0) {
      return true;
    }
  }
  return false;
}

// One step of each model from its first keyframe (or qpos0) with some
// controls: the states must agree bit for bit.
std::string step_difference(const Model& a, const Model& b) {
  Data da(a), db(b);
  if (a.keyframes.count() > 0) {
    reset_to_keyframe(a, da, 0);
    reset_to_keyframe(b, db, 0);
  }
  for (int u = 0; u < a.nu; ++u) {
    da.ctrl[u] = db.ctrl[u] = 0.3 * std::sin(1.0 + u);
  }
  for (int i = 0; i < 3; ++i) {
    step(a, da);
    step(b, db);
  }
  const auto same = [](const VectorXd& x, const VectorXd& y) {
    return x.size() == y.size() && std::equal(x.data(), x.data() + x.size(), y.data());
  };
  if (!same(da.qpos, db.qpos)) return "qpos";
  if (!same(da.qvel, db.qvel)) return "qvel";
  if (!same(da.act, db.act)) return "act";
  if (!same(da.qacc, db.qacc)) return "qacc";
  if (!same(da.sensordata, db.sensordata)) return "sensordata";
  return "";
}

// The first line where two texts differ, both versions; "" when equal.
std::string first_difference(const std::string& a, const std::string& b) {
  size_t start = 0;
  while (start < a.size() && start < b.size()) {
    const size_t ea = a.find('\n', start), eb = b.find('\n', start);
    const std::string la = a.substr(start, ea - start), lb = b.substr(start, eb - start);
    if (la != lb) return "written: " + la + "\nwritten again: " + lb;
    if (ea == std::string::npos) break;
    start = ea + 1;
  }
  return a.size() == b.size() ? "" : "the texts differ in length";
}

// The models whose reload differs in a quaternion by an ulp or two, the
// one limit of save_xml (only_quaternion_ulps): cheetah's torso inertial
// frame, and mesh geoms whose frame composes with their mesh's.
bool quaternion_limited(const std::string& path) {
  for (const char* name : {"dm_control/cheetah.xml", "mujoco3/mesh_fitaabb.xml",
                           "mujoco3/mesh_inertia.xml", "wonik_allegro/scene_right.xml"}) {
    if (path.ends_with(name)) return true;
  }
  return false;
}

TEST(SaveXml, EveryModelRoundTripsField) {
  int models = 0, exact = 0, fields = 0;
  for (const std::string& path : round_trip_models()) {
    SCOPED_TRACE(path);
    Model original;
    try {
      original = load_model(path);
    } catch (const LoadError&) {
      continue;  // scenes that need the extended corpus
    }
    const std::string text = to_xml(original);
    Model reloaded;
    try {
      reloaded = load_model_from_string(text, fs::path(path).parent_path().string(), path);
    } catch (const LoadError& error) {
      ADD_FAILURE() << "the written model does not load: " << error.what();
      continue;
    }
    test_support::ModelDifference difference = test_support::model_difference(original, reloaded);
    if (has_fitted_primitive(original)) {
      std::erase_if(difference.differ,
                    [](const std::string& line) { return line.rfind("geom_dataid:", 0) == 0; });
      difference.largest_relative.erase("geom_dataid");
    }
    ++models;
    fields += difference.compared;
    if (quaternion_limited(path)) {
      EXPECT_TRUE(test_support::only_quaternion_ulps(difference)) << difference.text();
      continue;
    }
    EXPECT_TRUE(difference.same()) << difference.text();
    EXPECT_EQ(step_difference(original, reloaded), "");
    // Written again, the reloaded model gives the same text.
    EXPECT_EQ(first_difference(text, to_xml(reloaded)), "");
    exact += difference.same() ? 1 : 0;
  }
  EXPECT_GE(models, 50);
  std::printf(
      "save_xml round trip: %d models (%d sizes, options, arrays and name lists), %d exact\n",
      models, fields, exact);
}

// What the repository's models leave out: pulleys and side sites, weld
// relpose, site equalities, mocap keyframes, a slider-crank and a
// jointinparent transmission, a spring-damper, camera intrinsics, inline
// meshes of each inertia mode and a height field, nameless objects.
constexpr const char* kFeatureModel = R"(
<mujoco model="save_xml features">
  <compiler angle="degree" autolimits="true"/>
  <option timestep="0.004" integrator="implicitfast" cone="elliptic" impratio="3">
    <flag warmstart="disable" energy="enable"/>
  </option>
  <statistic meanmass="2" extent="3" center="0 0 1"/>
  <asset>
    <texture name="grid" type="2d" builtin="checker" rgb1="1 1 1" rgb2="0 0 0" width="64"
             height="64"/>
    <material name="floor" texture="grid" texrepeat="4 4" reflectance="0.2"/>
    <texture name="sky" type="skybox" fileright="sky_r.png" fileleft="sky_l.png"
             fileup="sky_u.png" filedown="sky_d.png" filefront="sky_f.png" fileback="sky_b.png"/>
    <mesh name="wedge" vertex="0 0 0  1 0 0  0 1 0  0 0 1  0.3 0.3 0.7" scale="0.1 0.2 0.1"
          refquat="0.9 0.1 0.2 0" inertia="convex" maxhullvert="5"/>
    <mesh name="shell" vertex="0 0 0  1 0 0  0 1 0  0 0 1" inertia="shell" refpos="0.1 0 0"/>
    <mesh name="exact" vertex="0 0 0  1 0 0  0 1 0  0 0 1" face="0 2 1  0 1 3  0 3 2  1 2 3"
          inertia="exact"/>
    <hfield name="bumps" nrow="3" ncol="4" elevation="1 2 3 4 5 6 7 8 9 10 11 20"
            size="2 1 0.3 0.1"/>
  </asset>
  <worldbody>
    <geom type="plane" size="5 5 0.1" material="floor"/>
    <geom type="hfield" hfield="bumps" pos="4 0 0" euler="0 0 30"/>
    <light pos="0 0 3" dir="0.1 0.2 -1" directional="true"/>
    <camera name="eye" pos="2 -2 2" xyaxes="1 1 0 -0.3 0.3 1" sensorsize="0.004 0.003"
            resolution="640 480" focalpixel="500 500"/>
    <body name="target" mocap="true" pos="1 1 1" euler="10 20 30">
      <geom type="box" size="0.05 0.05 0.05" contype="0" conaffinity="0"/>
    </body>
    <body name="base" pos="0 0 0.5" euler="5 10 15">
      <freejoint name="free"/>
      <geom name="base" type="mesh" mesh="wedge" pos="0.1 0 0" euler="0 30 0" density="500"/>
      <geom type="mesh" mesh="shell" pos="0 0.2 0" mass="0.1"/>
      <site name="s0" pos="0.1 0.1 0"/>
      <body name="arm" pos="0 0 0.2">
        <joint name="hinge" axis="0.3 0.4 1" range="-60 45" springdamper="0.2 0.7" ref="5"/>
        <joint name="slide" type="slide" axis="1 1 0" springref="0.1" frictionloss="0.2"/>
        <geom name="wrap" type="cylinder" size="0.05 0.1" fromto="0 0 0 0.2 0 0"/>
        <geom name="ball" type="sphere" size="0.04" pos="0 0.1 0.1"/>
        <geom type="mesh" mesh="exact"/>
        <site name="s1" pos="0.3 0 0.1"/>
        <site name="side" pos="0.1 0.1 0.1"/>
        <body name="tip" pos="0.3 0 0" gravcomp="0.5">
          <joint name="ball" type="ball" range="0 60" damping="0.1" armature="0.01"/>
          <geom type="capsule" size="0.02" fromto="0 0 0 0.2 0 0"/>
          <site name="s2" pos="0.2 0 0"/>
          <site name="s3" pos="0.1 0.05 0"/>
          <site name="crank" pos="0.2 0.02 0"/>
        </body>
      </body>
    </body>
    <site name="slider" pos="0.5 0 0.2"/>
    <site name="anchor" pos="0 0 1"/>
  </worldbody>
  <contact>
    <pair name="ball_base" geom1="ball" geom2="base" condim="4" friction="0.5 0.5 0.01 0.001 0.001"/>
    <exclude name="base_tip" body1="base" body2="tip"/>
  </contact>
  <equality>
    <weld body1="tip" body2="base" relpose="0.1 0.2 0.3 0.7 0.1 0.1 0.1" active="false"/>
    <connect site1="s2" site2="anchor" active="false"/>
    <weld site1="s1" site2="anchor" torquescale="0.3" active="false"/>
    <joint joint1="slide" joint2="hinge" polycoef="0 0.5 0.1 0 0" active="false"/>
    <tendon tendon1="spatial" polycoef="0.4 0 0 0 0" active="false"/>
  </equality>
  <tendon>
    <spatial name="spatial" limited="true" range="0.1 2" stiffness="10">
      <site site="s0"/>
      <geom geom="wrap" sidesite="side"/>
      <site site="s1"/>
      <pulley divisor="2"/>
      <site site="s1"/>
      <geom geom="ball"/>
      <site site="s2"/>
    </spatial>
    <fixed springlength="0.1 0.3" stiffness="2">
      <joint joint="hinge" coef="0.5"/>
      <joint joint="slide" coef="-1"/>
    </fixed>
  </tendon>
  <actuator>
    <position joint="hinge" kp="20" dampratio="0.8" inheritrange="0.9"/>
    <motor name="crank" cranksite="crank" slidersite="slider" cranklength="0.3" gear="2"/>
    <velocity jointinparent="slide" kv="3"/>
    <intvelocity joint="slide" kp="5" actrange="-1 1"/>
    <general site="s2" refsite="s0" gear="0 0 1 0 0 0" dyntype="filterexact" dynprm="0.1"/>
    <muscle tendon="spatial" lengthrange="0.2 1.5"/>
  </actuator>
  <sensor>
    <framepos objtype="site" objname="s2" reftype="xbody" refname="arm"/>
    <distance geom1="ball" body2="target" cutoff="1"/>
    <camprojection site="s2" camera="eye"/>
    <tendonpos tendon="spatial" noise="0.01"/>
    <subtreecom body="base"/>
    <clock/>
  </sensor>
  <keyframe>
    <key name="bent" qpos="0 0 0.6 0.9 0.1 0.2 0.3 0.4 0.05 1 0.2 0 0" qvel="0 0 0 0 0 1 0.1 0.2 0 0 0"
         mpos="1 1 1.2" mquat="1 0.2 0.3 0.4" act="0.2 0.1"/>
  </keyframe>
</mujoco>
)";

TEST(SaveXml, FeatureModelRoundTrips) {
  const Model original = load_model_from_string(kFeatureModel);
  ASSERT_EQ(original.meshes.count(), 3);
  ASSERT_EQ(original.hfields.count(), 1);
  ASSERT_GT(original.tendons.wrap_type.size(), 8u);
  const std::string text = to_xml(original);
  const Model reloaded = load_model_from_string(text);
  const test_support::ModelDifference difference =
      test_support::model_difference(original, reloaded);
  // Its arm's inertial frame (three geoms' tensor diagonalised) and a mesh
  // geom's frame are quaternions no text loads into exactly.
  EXPECT_TRUE(test_support::only_quaternion_ulps(difference)) << difference.text();
  // A skybox from six side files keeps them (written by absolute path).
  const int sky = reloaded.id(ObjectType::kTexture, "sky");
  ASSERT_GE(sky, 0);
  const std::array<std::string, 6> sides{"sky_r.png", "sky_l.png", "sky_u.png",
                                         "sky_d.png", "sky_f.png", "sky_b.png"};
  for (size_t k = 0; k < sides.size(); ++k) {
    EXPECT_EQ(fs::path(reloaded.textures.side_files[sky][k]).filename(), sides[k]);
  }
  // Nameless objects stay nameless; named ones keep their names.
  EXPECT_EQ(reloaded.geoms.name[0], "");
  EXPECT_EQ(reloaded.id(ObjectType::kGeom, "wrap"), original.id(ObjectType::kGeom, "wrap"));
  EXPECT_EQ(text.find("<default"), std::string::npos);
}

TEST(SaveXml, SaveWritesAFileThatLoads) {
  const Model original = load_model(PLIANT_TEST_MODELS "/menagerie/robotiq_2f85/scene.xml");
  const fs::path directory =
      fs::temp_directory_path() / ("pliant_save_" + std::to_string(getpid()));
  fs::create_directories(directory);
  const std::string path = (directory / "robotiq.xml").string();
  save_xml(original, path);
  const Model reloaded = load_model(path);
  EXPECT_TRUE(test_support::model_difference(original, reloaded).same());
  // Saving again replaces the file; no temporary file is left beside it.
  save_xml(reloaded, path);
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(directory)) ++files;
  EXPECT_EQ(files, 1);
  fs::remove_all(directory);
}

TEST(SaveXml, PathThatCannotBeWrittenThrowsAndWritesNothing) {
  const Model model = load_model(PLIANT_SCENES "/pendulum_chain.xml");
  const fs::path directory = fs::temp_directory_path() / ("pliant_bad_" + std::to_string(getpid()));
  fs::create_directories(directory);
  const fs::path file = directory / "plain_file";
  std::ofstream(file) << "not a directory";
  for (const fs::path& bad : {directory / "missing" / "model.xml", file / "model.xml", directory}) {
    try {
      save_xml(model, bad.string());
      ADD_FAILURE() << "no error for " << bad;
    } catch (const LoadError& error) {
      EXPECT_EQ(error.file(), bad.string());
      EXPECT_NE(error.message().find("cannot write the model"), std::string::npos) << error.what();
    }
  }
  // Only the plain file is there: nothing partial was written.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(directory)) ++files;
  EXPECT_EQ(files, 1);
  fs::remove_all(directory);
}

TEST(SaveXml, NumbersReadBackExactly) {
  Model model = load_model(PLIANT_SCENES "/pendulum_chain.xml");
  model.options.timestep = 0.1 + 0.2;  // 0.30000000000000004
  model.bodies.gravcomp[1] = -0.0;
  const Model reloaded = load_model_from_string(to_xml(model));
  EXPECT_EQ(reloaded.options.timestep, model.options.timestep);
  EXPECT_NE(to_xml(model).find("timestep=\"0.30000000000000004\""), std::string::npos);
}

}  // namespace
}  // namespace pliant
