#include "samples/rollout/rollout.h"

#include <gtest/gtest.h>

#include <random>

#include "pliant/load.h"

namespace pliant {
namespace {

// Results are bit-identical whatever the number of threads.
TEST(Rollout, ThreadCountDoesNotChangeResults) {
  const Model model = load_model(std::string(PLIANT_SCENES) + "/default.xml");
  auto run = [&](int threads) {
    std::vector<Data> batch(8, Data(model));
    std::mt19937_64 rng(3);
    std::normal_distribution<double> normal(0, 0.1);
    for (Data& d : batch) {
      for (int i = 0; i < model.nv; ++i) d.qvel[i] = normal(rng);
    }
    rollout(model, batch, 100, threads);
    return batch;
  };
  const std::vector<Data> one = run(1), two = run(2), four = run(4);
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_TRUE(one[i].qpos == two[i].qpos) << "data " << i;
    EXPECT_TRUE(one[i].qpos == four[i].qpos) << "data " << i;
    EXPECT_TRUE(one[i].qvel == two[i].qvel) << "data " << i;
  }
  EXPECT_GT(one[0].time, 0.0);
}

}  // namespace
}  // namespace pliant
