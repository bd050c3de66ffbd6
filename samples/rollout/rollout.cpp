#include "samples/rollout/rollout.h"

#include <algorithm>
#include <thread>

#include "engine/forward.h"

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

}  // namespace pliant
