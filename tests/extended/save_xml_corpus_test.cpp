// save_xml over the extended corpus (PLIANT_EXTENDED_CORPUS): every model of
// menagerie3/, dm_control/ and menagerie/ that loads is written as MJCF and
// loaded back; its sizes, options, arrays and names must be equal, exactly,
// or differ only as save_xml's one limit allows (a quaternion no text loads
// into, 2 ulps off, and the constants measured from it, 1e-12 relative:
// test_support::only_quaternion_ulps). A summary line counts each kind.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "pliant/load.h"
#include "pliant/save_xml.h"
#include "tests/model/model_difference.h"

namespace pliant {
namespace {

namespace fs = std::filesystem;

const std::string kCorpus = PLIANT_EXTENDED_CORPUS;

// The XML files directly in each robot's folder (menagerie, menagerie3) and
// the dm_control suite.
std::vector<std::string> corpus_models() {
  std::vector<std::string> models;
  std::error_code error;
  if (kCorpus.empty() || !fs::is_directory(kCorpus, error)) return models;
  const auto add_xml = [&](const fs::path& folder) {
    if (!fs::is_directory(folder, error)) return;
    for (const auto& file : fs::directory_iterator(folder)) {
      if (file.path().extension() == ".xml") models.push_back(file.path().string());
    }
  };
  for (const char* collection : {"menagerie3", "menagerie"}) {
    const fs::path root = fs::path(kCorpus) / collection;
    if (!fs::is_directory(root, error)) continue;
    for (const auto& robot : fs::directory_iterator(root)) {
      if (robot.is_directory()) add_xml(robot.path());
    }
  }
  add_xml(fs::path(kCorpus) / "dm_control");
  std::sort(models.begin(), models.end());
  return models;
}

TEST(SaveXmlCorpus, EveryModelRoundTrips) {
  const std::vector<std::string> models = corpus_models();
  if (models.empty()) {
    GTEST_SKIP() << "extended corpus not found (PLIANT_EXTENDED_CORPUS=\"" << kCorpus << "\")";
  }
  int loaded = 0, exact = 0, quaternion_ulps = 0, refused = 0;
  for (const std::string& path : models) {
    SCOPED_TRACE(path);
    Model original;
    try {
      original = load_model(path);
    } catch (const LoadError&) {
      ++refused;  // models Pliant refuses (tests/extended/extended_corpus_test.cpp)
      continue;
    }
    ++loaded;
    Model reloaded;
    try {
      reloaded =
          load_model_from_string(to_xml(original), fs::path(path).parent_path().string(), path);
    } catch (const LoadError& error) {
      ADD_FAILURE() << "the written model does not load: " << error.what();
      continue;
    }
    const test_support::ModelDifference difference =
        test_support::model_difference(original, reloaded);
    if (difference.same()) {
      ++exact;
    } else if (test_support::only_quaternion_ulps(difference)) {
      ++quaternion_ulps;
      std::printf("within the quaternion limit: %s\n%s", path.c_str(), difference.text().c_str());
    } else {
      ADD_FAILURE() << difference.text();
    }
  }
  std::printf(
      "save_xml corpus: %zu models, %d refused by the loader, %d loaded: %d round-trip exactly, "
      "%d within the quaternion limit\n",
      models.size(), refused, loaded, exact, quaternion_ulps);
}

}  // namespace
}  // namespace pliant
