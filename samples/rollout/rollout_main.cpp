// Throughput of batched rollouts: 64 Data over one Model on 1 and 2 threads.
//
//   rollout [MODEL.xml] [STEPS]
#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "engine/load.h"
#include "samples/rollout/rollout.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : PLIANT_DEFAULT_SCENE;
  const int steps = argc > 2 ? std::stoi(argv[2]) : 200;
  try {
    const pliant::Model model = pliant::load_model(path);
    for (int threads : {1, 2}) {
      std::vector<pliant::Data> batch(64, pliant::Data(model));
      std::mt19937_64 rng(1);
      std::normal_distribution<double> normal(0, 0.01);
      for (pliant::Data& d : batch) {
        for (int i = 0; i < model.nv; ++i) d.qvel[i] = normal(rng);
      }
      const auto start = std::chrono::steady_clock::now();
      pliant::rollout(model, batch, steps, threads);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%d thread%s: %.0f steps/s (64 x %d steps in %.3f s)\n", threads,
                  threads > 1 ? "s" : "", 64.0 * steps / seconds, steps, seconds);
    }
    return 0;
  } catch (const pliant::LoadError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
