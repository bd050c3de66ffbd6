// Data: copies are independent, a Data refuses a model it was not made for,
// and the library reports its version.

#include "pliant/data.h"

#include <gtest/gtest.h>
#include <pliant/pliant.h>

#include <regex>
#include <stdexcept>
#include <string>

#include "pliant/step.h"

namespace pliant {
namespace {

const std::string kScenes = PLIANT_SCENES;

TEST(Data, CopyStepsLikeTheOriginal) {
  const Model model = load_model(kScenes + "/box_tower.xml");
  Data original(model);
  for (int i = 0; i < 50; ++i) step(model, original);
  Data copy = original;  // the workspace is copied too
  for (int i = 0; i < 50; ++i) {
    step(model, original);
    step(model, copy);
  }
  EXPECT_EQ(original.qpos, copy.qpos);
  EXPECT_EQ(original.qvel, copy.qvel);
  EXPECT_EQ(original.contacts.size(), copy.contacts.size());
}

TEST(Data, MovedDataKeepsStepping) {
  const Model model = load_model(kScenes + "/box_tower.xml");
  Data reference(model);
  Data moved_from(model);
  for (int i = 0; i < 20; ++i) {
    step(model, reference);
    step(model, moved_from);
  }
  Data moved = std::move(moved_from);
  for (int i = 0; i < 20; ++i) {
    step(model, reference);
    step(model, moved);
  }
  EXPECT_EQ(reference.qpos, moved.qpos);
}

TEST(Data, StepWithAnotherModelIsRefused) {
  const Model tower = load_model(kScenes + "/box_tower.xml");
  const Model pendulum = load_model(kScenes + "/pendulum_chain.xml");
  Data data(tower);
  const Eigen::VectorXd before = data.qpos;
  try {
    step(pendulum, data);
    FAIL() << "stepping a Data with another model must throw";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("made for another model"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(forward(pendulum, data), std::invalid_argument);
  EXPECT_EQ(data.qpos, before);  // refused before anything changed
  EXPECT_NO_THROW(step(tower, data));
}

// Equal counts, another tree: the mass matrix has another size, so stepping
// would write past it; the shape check names the size that differs.
TEST(Data, SameCountsOtherTreeIsRefused) {
  const Model chain = load_model_from_string(
      "<mujoco><worldbody><body><joint/><geom size='.1'/><body><joint/><geom size='.1'/>"
      "</body></body><body><geom size='.1'/></body></worldbody></mujoco>");
  const Model apart = load_model_from_string(
      "<mujoco><worldbody><body><joint/><geom size='.1'/><body><geom size='.1'/></body></body>"
      "<body><joint/><geom size='.1'/></body></worldbody></mujoco>");
  ASSERT_EQ(chain.nv, apart.nv);
  ASSERT_EQ(chain.body_count(), apart.body_count());
  Data data(chain);
  try {
    step(apart, data);
    FAIL() << "stepping a Data with a model of another tree must throw";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(
        std::string(error.what()).find("nM 3 against 2 (entries of the sparse mass matrix qM)"),
        std::string::npos)
        << error.what();
  }
}

TEST(Data, VersionIsSemantic) {
  EXPECT_TRUE(std::regex_match(std::string(version()), std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")))
      << version();
}

TEST(Data, WarningTextNamesTheIndex) {
  for (int k = 0; k < static_cast<int>(WarningKind::kCount); ++k) {
    EXPECT_NE(std::string(warning_text(static_cast<WarningKind>(k))).find("INDEX"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace pliant
