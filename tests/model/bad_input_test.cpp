// Bad model files: each must make the loader raise LoadError (never crash,
// never throw anything else, never return a model) pointing at the file and
// line of the mistake, with a message that says what is wrong and, where the
// choice is closed, what is accepted.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "pliant/load.h"

namespace pliant {
namespace {

namespace fs = std::filesystem;

const std::string kBadDir = PLIANT_TEST_DATA "/bad/";

struct BadFile {
  std::string file;                // under tests/data/bad
  int line;                        // 0 when the error concerns the whole file
  std::vector<std::string> words;  // each must appear in the message
  std::string error_file = "";     // the file the error names, when not `file` (includes)
};

// Every top-level file in tests/data/bad must be listed here (see
// EveryBadFileIsListed); files in bad/include and bad/mesh are helpers.
const std::vector<BadFile>& bad_files() {
  static const std::vector<BadFile> files = {
      // Not XML, or not MJCF at the root.
      {"malformed_xml.xml", 4, {"malformed XML", "<geom>"}},
      {"not_xml.xml", 1, {"<mujoco>"}},
      {"empty.xml", 0, {"empty", "<mujoco>"}},
      {"wrong_root.xml", 2, {"the root element must be <mujoco>", "<robot>"}},
      {"duplicate_attribute.xml", 3, {"'size'", "<geom>"}},
      {"deep_nesting.xml", 99, {"nest", "100"}},
      // Unknown elements and attributes list what is accepted.
      {"unknown_top_level.xml",
       3,
       {"unknown element <worlbody> in <mujoco>", "accepted:", "worldbody"}},
      {"unknown_body_child.xml", 5, {"unknown element <geometry> in <body>", "accepted:", "geom"}},
      {"unknown_attribute.xml", 3, {"unknown attribute 'colour' on <geom>", "accepted:", "rgba"}},
      {"worldbody_attribute.xml", 2, {"unknown attribute 'name' on <worldbody>", "accepted: none"}},
      {"unsupported_actuator.xml",
       9,
       {"unknown element <servo> in <actuator>", "accepted:", "motor"}},
      {"unsupported_composite.xml", 4, {"<composite> is not supported"}},
      {"unsupported_flex.xml", 2, {"<deformable> is not supported", "flex", "not simulated"}},
      {"unsupported_body_plugin.xml", 4, {"<plugin> is not supported", "plugins"}},
      {"weld_one_site.xml", 6, {"<weld> with sites needs both 'site1' and 'site2'"}},
      {"replicate_without_count.xml", 3, {"<replicate> needs 'count'"}},
      {"joint_in_worldbody.xml", 3, {"<joint> cannot be in <worldbody>", "inside a <body>"}},
      // Wrong number of values.
      {"pos_arity.xml", 3, {"attribute 'pos' of <body> has 2 values; expected 3"}},
      {"quat_arity.xml", 3, {"attribute 'quat' of <geom> has 3 values; expected 4"}},
      {"size_arity.xml", 5, {"attribute 'size' of <geom> has 4 values; expected 1 to 3"}},
      // <size> values as MuJoCo 3.3.8 checks them; section attributes;
      // children of a tendon's path element; a plane's grid spacing.
      {"size_nconmax_negative.xml", 2, {"'nconmax' of <size> is -5; accepted: -1 or more"}},
      {"size_integer_overflow.xml", 2, {"nconmax"}},
      {"size_memory_fraction.xml", 2, {"'memory' of <size> is '1.5M'"}},
      {"plane_two_sizes.xml", 3, {"a plane geom needs three sizes"}},
      {"mesh_content_type.xml", 3, {"'content_type' of <mesh>", "accepted:", "model/obj"}},
      {"user_data_too_long.xml",
       4,
       {"'user' of <geom> has 3 values", "<size nuser_geom> allows 2"}},
      {"section_attribute.xml", 3, {"unknown attribute 'gear' on <actuator>; accepted: none"}},
      {"tendon_path_child.xml", 6, {"<joint> takes no child elements, found <site>"}},
      // actdim: only <general> takes it, and only the value its dynamics need.
      {"actuator_actdim.xml", 4, {"actdim 2 does not fit", "accepted: 1"}},
      {"actuator_actdim_motor.xml", 4, {"unknown attribute 'actdim' on <motor>"}},
      // size="" is absent, as MuJoCo 3.3.8 reads it: the sphere has no size.
      {"empty_size.xml", 3, {"a sphere geom needs 1 positive size value"}},
      {"keyframe_qpos_length.xml", 9, {"'qpos' of <key> has 3 values; the model needs 1"}},
      // Numbers that do not parse or are not finite.
      {"bad_number.xml", 5, {"'size' of <geom> has '0.1abc'", "not a list of finite numbers"}},
      {"comma_separated.xml", 3, {"'pos' of <body> has '1,2,3'", "not a list of finite numbers"}},
      {"nan_number.xml", 3, {"'pos' of <body> has '0 nan 0'", "not a list of finite numbers"}},
      {"inf_number.xml", 5, {"'mass' of <geom> has 'inf'", "not a list of finite numbers"}},
      {"number_overflow.xml", 2, {"'timestep' of <option> has '1e999'", "finite numbers"}},
      // Finite but beyond any physical quantity.
      {"huge_number.xml", 3, {"'pos' of <body> has 1e+300", "largest magnitude", "1e10"}},
      // Height fields: data that does not fit its size, sizes that must be positive.
      {"hfield_elevation_count.xml", 3, {"'elevation' has 5 values; nrow * ncol = 6"}},
      {"hfield_zero_size.xml", 3, {"hfield 'size' must be four positive numbers"}},
      {"hfield_truncated_file.xml", 4, {"truncated_hfield.bin' has 10 bytes", "need 32"}},
      {"bad_integer.xml", 3, {"'contype' of <geom>", "whole numbers"}},
      {"size_nkey_negative.xml", 2, {"'nkey' of <size> is -2", "accepted: 0 or more"}},
      {"refsite_without_site.xml", 10, {"refsite needs a site transmission"}},
      // Model attachment: the model, its file and the body must exist; an
      // attached element may name only what was attached.
      {"attach_unknown_model.xml", 6, {"names model 'leg'", "defined: arm"}},
      {"attach_unknown_body.xml", 7, {"names body 'elbo'", "arm.xml"}},
      {"attach_missing_file.xml", 3, {"no_such_arm.xml", "does not exist"}},
      {"attach_itself.xml", 3, {"attach_itself.xml", "attaches itself"}},
      {"attach_outside_reference.xml", 40, {"unknown joint 'a_yaw'"}, "../mujoco3/attach/arm.xml"},
      // strippath keeps only the file's name, looked for in the attached
      // model's own directory (MuJoCo 3.3.8 refuses this file too).
      {"attach_stripped_path.xml",
       3,
       {"cannot open mesh file", "attach/wedge.obj"},
       "attach/arm_mesh_in_subdirectory.xml"},
      // A muscle's length range found by simulation must settle (MuJoCo
      // 3.3.8 refuses this model too).
      {"lengthrange_unsettled.xml",
       10,
       {"actuator 'free_spin'", "did not settle", "give the actuator a lengthrange"}},
      // A simulation that would take too many steps is refused, not run.
      {"lengthrange_too_long.xml",
       13,
       {"actuator 'long_pull'", "steps a pull", "at most 100000 are accepted"}},
      {"shellinertia_on_mesh.xml",
       11,
       {"shellinertia is for primitive geoms", "inertia=\"shell\""}},
      // Keywords and booleans list the accepted words.
      {"bad_enum.xml",
       4,
       {"attribute 'type' of <joint> is 'hinged'", "accepted: free, ball, slide, hinge"}},
      {"bad_bool.xml", 3, {"attribute 'mocap' of <body> is 'yes'", "accepted: false, true"}},
      {"bad_option_keyword.xml",
       2,
       {"attribute 'integrator' of <option> is 'rk4'",
        "accepted: Euler, RK4, implicit, implicitfast"}},
      {"bad_condim.xml", 3, {"attribute 'condim' of <geom> is 2", "accepted: 1, 3, 4, 6"}},
      // Orientation.
      {"two_orientations.xml",
       5,
       {"more than one orientation", "quat, axisangle, euler, xyaxes, zaxis"}},
      {"zero_quat.xml", 3, {"'quat' must not be zero"}},
      {"zero_joint_axis.xml", 4, {"'axis' of <joint> must not be zero"}},
      {"fromto_sphere.xml", 5, {"'fromto' works with capsule, cylinder, box and ellipsoid only"}},
      // Sizes and masses.
      {"negative_size.xml", 5, {"'size' of <geom> must not be negative"}},
      {"zero_box_size.xml", 5, {"box geom needs 3 positive size values", "size[1] is 0"}},
      {"negative_mass.xml", 5, {"'mass' of <geom> must not be negative"}},
      {"negative_inertial_mass.xml", 5, {"'mass' of <inertial> must not be negative"}},
      {"zero_mass_body.xml", 3, {"body 'massless' moves", "no mass", "<inertial>"}},
      {"zero_geom_mass.xml", 3, {"body 'ghost' moves", "no mass"}},
      {"inertial_missing_mass.xml", 5, {"<inertial> needs 'mass'"}},
      {"two_inertials.xml", 6, {"only one <inertial>"}},
      {"zero_timestep.xml", 2, {"'timestep' of <option> must be positive"}},
      // Names and references. An unknown reference also lists the names the
      // model defines for that kind of object, which are what is accepted.
      {"duplicate_body_name.xml", 7, {"repeated body name 'arm'", "unique"}},
      {"duplicate_joint_name.xml", 7, {"repeated joint name 'j'", "unique"}},
      {"unknown_class.xml", 8, {"unknown default class 'big'", "<default class=\"big\">"}},
      {"unknown_childclass.xml",
       8,
       {"unknown default class 'limb'", "childclass", "<default class=\"limb\">"}},
      {"nested_default_without_class.xml", 4, {"nested <default> needs a class attribute"}},
      {"default_class_twice.xml", 6, {"default class 'arm' is defined twice"}},
      {"actuator_unknown_joint.xml", 9, {"unknown joint 'wrist'", "elbow"}},
      {"tendon_unknown_joint.xml", 11, {"unknown joint 'wrist'", "elbow"}},
      {"tendon_unknown_site.xml", 12, {"unknown site 'hook'", "anchor"}},
      {"equality_unknown_body.xml", 9, {"unknown body 'frame'", "door"}},
      {"exclude_unknown_body.xml", 9, {"unknown body 'lower'", "upper"}},
      {"sensor_unknown_joint.xml", 9, {"unknown joint 'knee'", "elbow"}},
      // Sensors: missing objects, objects of the wrong kind, attributes
      // that do not apply, and sensor kinds Pliant does not compute.
      {"sensor_missing_site.xml", 12, {"unknown site 'toe'", "tip"}},
      {"sensor_missing_site_attr.xml", 12, {"<gyro> needs the attribute 'site'"}},
      {"sensor_empty_site.xml", 10, {"<touch> needs the attribute 'site' naming a site"}},
      {"sensor_ball_jointpos.xml", 12, {"<jointpos>", "hinge or slide", "'wrist'"}},
      {"sensor_hinge_ballquat.xml", 12, {"<ballquat>", "ball joint", "'elbow'"}},
      {"sensor_unlimited_limitfrc.xml", 12, {"<jointlimitfrc>", "'elbow' is not limited"}},
      {"sensor_frame_joint.xml", 12, {"'objtype'", "'joint'", "accepted: body, xbody"}},
      {"sensor_linacc_reference.xml", 12, {"<framelinacc> has no reference frame"}},
      {"sensor_quat_cutoff.xml", 12, {"<framequat>", "'cutoff'"}},
      {"sensor_negative_cutoff.xml", 12, {"'cutoff' must not be negative"}},
      {"sensor_distance_same_geom.xml", 12, {"<distance>", "two different geoms", "'link'"}},
      {"sensor_distance_two_sides.xml", 12, {"exactly one of 'geom1' and 'body1'"}},
      {"sensor_user.xml", 12, {"<user> sensors are not supported", "touch"}},
      {"unknown_mesh_reference.xml", 8, {"unknown mesh 'cube'", "tetra"}},
      {"mesh_fit_plane.xml", 6, {"a plane geom cannot be fitted to a mesh", "sphere"}},
      {"fusestatic_reference.xml", 9, {"body 'base' was fused into its parent", "fusestatic"}},
      // Joints, mocap bodies, limits.
      {"nested_free_joint.xml",
       7,
       {"free joint can only be used in a body that is a child of "
        "the world"}},
      {"mocap_with_joint.xml", 3, {"mocap body cannot have joints"}},
      {"nested_mocap.xml", 5, {"mocap body must be a child of the world body"}},
      {"range_without_limited.xml",
       7,
       {"has 'range' but not 'limited'", "limited=\"true\"", "autolimits=\"true\""}},
      {"range_inverted.xml", 4, {"limited joint needs range[0] < range[1]"}},
      {"ctrlrange_without_limited.xml", 12, {"has 'ctrlrange' but not 'ctrllimited'"}},
      // Actuators and tendons.
      {"actuator_without_target.xml",
       9,
       {"exactly one transmission target", "joint, jointinparent, tendon, site"}},
      {"actuator_two_targets.xml", 10, {"exactly one transmission target"}},
      {"tendon_empty.xml", 9, {"tendon needs at least one path element"}},
      {"contact_sensor_data.xml",
       10,
       {"'data' lists 'found' out of order", "found force torque dist pos normal tangent"}},
      {"contact_sensor_num.xml", 10, {"'num' is 200000; accepted: 1 to 100000"}},
      {"contact_sensor_two_sides.xml",
       10,
       {"takes at most one of 'geom1', 'body1', 'subtree1', 'site'"}},
      {"contact_sensor_noise.xml", 10, {"unknown attribute 'noise' on <contact>", "cutoff"}},
      {"fixed_tendon_rgba.xml",
       9,
       {"unknown attribute 'rgba' on <fixed>", "accepted:", "armature"}},
      {"tendon_armature_wrapped.xml",
       11,
       {"tendon 'cable'", "'armature' needs a path without geom wrapping", "armature=\"0\""}},
      // Cameras describe their lens one way (fovy, or a sensor with pixels).
      {"camera_fovy_and_sensorsize.xml", 3, {"'fovy' or 'sensorsize', not both"}},
      {"camera_focal_without_sensorsize.xml", 3, {"'focal'", "need 'sensorsize'"}},
      {"camera_sensorsize_without_resolution.xml", 4, {"'sensorsize' needs 'resolution'"}},
      // What MuJoCo 3.3.8's schema and compiler refuse (each checked there).
      {"visual_unknown_attribute.xml", 3, {"unknown attribute 'fovx' on <global>", "fovy"}},
      {"visual_child_twice.xml", 4, {"<visual> takes one <map>"}},
      {"custom_numeric_without_name.xml", 3, {"<numeric> needs a 'name'"}},
      {"flag_twice.xml", 4, {"<option> takes one <flag>"}},
      {"default_geom_name.xml", 4, {"'name' cannot be set in a default class", "<geom>"}},
      {"default_actuator_joint.xml", 3, {"'joint' cannot be set in a default class"}},
      {"default_geom_twice.xml", 4, {"<default> takes one <geom>"}},
      {"motor_actrange.xml", 9, {"unknown attribute 'actrange' on <motor>", "ctrlrange"}},
      {"adhesion_joint.xml", 9, {"unknown attribute 'joint' on <adhesion>", "body"}},
      {"connect_without_anchor.xml", 9, {"<connect> with 'body1' needs 'anchor'"}},
      {"mesh_fromto.xml", 6, {"'fromto' works with capsule, cylinder, box and ellipsoid only"}},
      {"hfield_on_sphere.xml", 6, {"'hfield'", "this geom is a sphere"}},
      {"spatial_one_site.xml", 6, {"needs two <site>s at least"}},
      {"spatial_repeated_site.xml", 9, {"site 's0' follows itself"}},
      {"spatial_pulley_branch.xml", 12, {"site 's2' has only pulleys beside it"}},
      {"joint_actuatorfrclimited_without_range.xml",
       4,
       {"'actuatorfrclimited' needs 'actuatorfrcrange'"}},
      // Textures: where the pixels come from.
      {"texture_builtin_without_width.xml",
       5,
       {"builtin texture needs a positive 'width' (got 0)"}},
      {"texture_2d_builtin_without_height.xml",
       3,
       {"builtin 2d texture needs a positive 'height' (got 0)"}},
      {"texture_without_image.xml", 5, {"skybox texture has no image", "fileright"}},
      {"texture_2d_side_files.xml", 3, {"2d texture has neither 'file' nor 'builtin'"}},
      // Meshes.
      {"missing_mesh_file.xml", 3, {"cannot open mesh file", "does_not_exist.stl"}},
      {"malformed_stl.xml",
       4,
       {"malformed_ascii.stl", "malformed vertex line", "expected 'vertex x y z'"}},
      {"truncated_stl.xml", 3, {"truncated_binary.stl", "wrong size", "announces 2 triangles"}},
      {"bad_obj_index.xml", 3, {"bad_index.obj", "refers to vertex 9", "valid: 1 to 4"}},
      {"inline_mesh_bad_face.xml", 3, {"uses vertex index 7", "valid indices are 0 to 3"}},
      {"inline_mesh_too_few_vertices.xml", 3, {"3 vertices", "at least 4"}},
      {"inline_mesh_flat.xml", 3, {"coplanar"}},
      // Includes: the error names the file that holds the mistake.
      {"include_missing.xml", 3, {"cannot open included file", "not_there.xml"}},
      {"include_cycle.xml", 3, {"include cycle", "include_cycle.xml"}, "include/cycle_back.xml"},
      {"include_self.xml", 2, {"include cycle", "include_self.xml"}},
      {"include_without_file.xml", 5, {"<include> needs a file attribute"}},
      {"include_bad_element.xml",
       4,
       {"unknown attribute 'densty' on <geom>", "density"},
       "include/arm_with_typo.xml"},
      {"include_wrong_root.xml",
       3,
       {"the root element must be <mujoco>", "<robot>"},
       "include/urdf_part.xml"},
      {"include_malformed.xml", 2, {"malformed XML", "<body>"}, "include/broken.xml"},
  };
  return files;
}

// Names the file in gtest's output instead of dumping the struct's bytes.
void PrintTo(const BadFile& bad, std::ostream* out) { *out << bad.file; }

bool same_file(const std::string& a, const std::string& b) {
  return fs::weakly_canonical(a) == fs::weakly_canonical(b);
}

std::string test_name(const testing::TestParamInfo<BadFile>& info) {
  std::string name = fs::path(info.param.file).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class BadInput : public testing::TestWithParam<BadFile> {};

TEST_P(BadInput, RaisesLoadErrorAtTheMistake) {
  const BadFile& bad = GetParam();
  const std::string path = kBadDir + bad.file;
  ASSERT_TRUE(fs::exists(path)) << path;
  const std::string expected_file = bad.error_file.empty() ? path : kBadDir + bad.error_file;
  // The loader reports through LoadError only; it (and the libraries it
  // uses) must not print to the user's terminal. Checks run after the
  // capture ends so that their own output is not captured.
  std::optional<LoadError> error;
  std::string wrong_outcome;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  try {
    load_model(path);
    wrong_outcome = "the file loaded without error";
  } catch (const LoadError& e) {
    error = e;
  } catch (const std::exception& e) {
    wrong_outcome = std::string("a non-LoadError exception: ") + e.what();
  } catch (...) {
    wrong_outcome = "an exception that is not a std::exception";
  }
  const std::string printed =
      testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  ASSERT_TRUE(error.has_value()) << bad.file << ": " << wrong_outcome;
  EXPECT_EQ(error->line(), bad.line) << error->what();
  EXPECT_TRUE(same_file(error->file(), expected_file))
      << "error names '" << error->file() << "', expected '" << expected_file << "'";
  EXPECT_FALSE(error->message().empty());
  for (const std::string& word : bad.words) {
    EXPECT_NE(error->message().find(word), std::string::npos)
        << "message lacks \"" << word << "\": " << error->what();
  }
  EXPECT_EQ(std::string(error->what()).rfind(error->file(), 0), 0u) << error->what();
  EXPECT_EQ(printed, "") << "the loader printed while loading " << bad.file;
}

INSTANTIATE_TEST_SUITE_P(BadInputFiles, BadInput, testing::ValuesIn(bad_files()), test_name);

TEST(BadInputTable, EveryBadFileIsListed) {
  std::set<std::string> listed;
  for (const BadFile& bad : bad_files()) listed.insert(bad.file);
  EXPECT_EQ(listed.size(), bad_files().size()) << "a file is listed twice";
  int count = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(kBadDir)) {
    if (!entry.is_regular_file()) continue;
    ++count;
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(listed.count(name)) << name << " is in tests/data/bad but not in the table";
  }
  EXPECT_GE(count, 40);
}

TEST(BadInput, MissingModelFile) {
  const std::string path = kBadDir + "does_not_exist.xml";
  ASSERT_FALSE(fs::exists(path));
  try {
    load_model(path);
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.file(), path);
    EXPECT_NE(e.message().find("cannot open the model file"), std::string::npos) << e.what();
  }
}

TEST(BadInput, UnknownAttributeNamesTheAcceptedOnes) {
  try {
    load_model_from_string(
        "<mujoco>\n<worldbody>\n<geom size=\"1\" colour=\"red\"/>\n"
        "</worldbody></mujoco>");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.file(), "<string>");
    EXPECT_NE(e.message().find("unknown attribute 'colour'"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("accepted:"), std::string::npos) << e.what();
  }
}

TEST(BadInput, IncludeFromAStringResolvesAgainstTheGivenDirectory) {
  try {
    load_model_from_string("<mujoco>\n  <include file=\"include_cycle.xml\"/>\n</mujoco>\n",
                           kBadDir, "memory.xml");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.line(), 3);
    EXPECT_TRUE(same_file(e.file(), kBadDir + "include/cycle_back.xml")) << e.what();
    EXPECT_NE(e.message().find("include cycle"), std::string::npos) << e.what();
  }
}

// A failed load leaves nothing behind: the same bad file fails the same way
// again, and a good model loads right after it.
TEST(BadInput, LoadsAGoodModelAfterAFailure) {
  const std::string good =
      "<mujoco model=\"pendulum\">\n"
      "  <worldbody>\n"
      "    <body name=\"arm\">\n"
      "      <joint name=\"swing\" type=\"hinge\" axis=\"0 1 0\"/>\n"
      "      <geom type=\"capsule\" fromto=\"0 0 0 0 0 -1\" size=\"0.05\"/>\n"
      "    </body>\n"
      "  </worldbody>\n"
      "</mujoco>\n";
  for (const char* file : {"include_cycle.xml", "duplicate_body_name.xml", "unknown_class.xml"}) {
    std::string first;
    for (int attempt = 0; attempt < 2; ++attempt) {
      try {
        load_model(kBadDir + file);
        ADD_FAILURE() << file << " loaded without error";
      } catch (const LoadError& e) {
        if (attempt == 0) first = e.what();
        EXPECT_EQ(e.what(), first) << "second load of " << file << " failed differently";
      }
    }
    const Model model = load_model_from_string(good);
    EXPECT_EQ(model.model_name, "pendulum");
    EXPECT_EQ(model.bodies.count(), 2);
    EXPECT_EQ(model.nq, 1);
  }
}

}  // namespace
}  // namespace pliant
