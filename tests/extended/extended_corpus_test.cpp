// Tests over the extended corpus (CMake cache path PLIANT_EXTENDED_CORPUS):
// real models too big to keep in the repository. Every XML file directly in
// a robot's folder under menagerie3/ (MuJoCo Menagerie written for MuJoCo
// 3.x) is loaded; a model either loads and steps without NaN, or is refused
// with a LoadError that names the file and says what is wrong. Without the
// corpus, one test says where it was looked for and is skipped.

#include <gtest/gtest.h>
#include <pliant/pliant.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pliant/step.h"

namespace pliant {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = PLIANT_EXTENDED_CORPUS;

std::vector<std::string> menagerie3_models() {
  std::vector<std::string> models;
  const fs::path root = fs::path(kCorpus) / "menagerie3";
  std::error_code error;
  if (kCorpus.empty() || !fs::is_directory(root, error)) return models;
  for (const auto& robot : fs::directory_iterator(root)) {
    if (!robot.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(robot.path())) {
      if (file.path().extension() == ".xml") models.push_back(file.path().string());
    }
  }
  std::sort(models.begin(), models.end());
  return models;
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  const fs::path path(info.param);
  std::string name = path.parent_path().filename().string() + "_" + path.stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

TEST(ExtendedCorpus, Present) {
  if (menagerie3_models().empty()) {
    GTEST_SKIP() << "extended corpus not found (PLIANT_EXTENDED_CORPUS=\"" << kCorpus
                 << "\" has no menagerie3/): its model tests are skipped";
  }
}

class Menagerie3 : public testing::TestWithParam<std::string> {};

TEST_P(Menagerie3, LoadsAndStepsOrExplains) {
  const std::string& path = GetParam();
  try {
    const Model model = load_model(path);
    Data data(model);
    for (int i = 0; i < 200; ++i) step(model, data);
    EXPECT_EQ(data.warnings[static_cast<int>(WarningKind::kBadQacc)].count, 0) << path;
    EXPECT_EQ(data.warnings[static_cast<int>(WarningKind::kBadQpos)].count, 0) << path;
    EXPECT_EQ(data.warnings[static_cast<int>(WarningKind::kBadQvel)].count, 0) << path;
    EXPECT_TRUE(data.qpos.allFinite()) << path;
  } catch (const LoadError& error) {
    // A refusal must say where: a file of the model and a sentence.
    EXPECT_FALSE(error.file().empty()) << error.what();
    EXPECT_FALSE(error.message().empty()) << error.what();
    std::printf("not loaded: %s\n", error.what());
  }
}

INSTANTIATE_TEST_SUITE_P(Models, Menagerie3, testing::ValuesIn(menagerie3_models()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Menagerie3);

}  // namespace
}  // namespace pliant
