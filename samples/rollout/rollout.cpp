#include "samples/rollout/rollout.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "pliant/forward.h"
#include "pliant/step.h"

namespace pliant {

void rollout(const Model& model, std::vector<Data>& data, int steps, int threads) {
  threads = std::max(1, std::min<int>(threads, static_cast<int>(data.size())));
  // Static partition: thread t takes data t, t + threads, ... (no sharing).
  auto work = [&](int first) {
    for (size_t i = first; i < data.size(); i += threads) {
      for (int k = 0; k < steps; ++k) step(model, data[i]);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (std::thread& thread : pool) thread.join();
}

double rollout_steps_per_second(const Model& model, int count, int steps, int threads) {
  std::vector<Data> batch(count, Data(model));
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal(0, 0.01);
  for (Data& d : batch) {
    for (int i = 0; i < model.nv; ++i) d.qvel[i] = normal(rng);
  }
  const auto start = std::chrono::steady_clock::now();
  rollout(model, batch, steps, threads);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<double>(count) * steps / seconds;
}

}  // namespace pliant
