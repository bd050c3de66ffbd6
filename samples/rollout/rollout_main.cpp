// Throughput of batched rollouts: 64 Data over one Model on 1 and 2 threads.
//
//   rollout [MODEL.xml] [STEPS]
#include <cstdio>
#include <string>

#include "pliant/load.h"
#include "samples/rollout/rollout.h"

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : PLIANT_DEFAULT_SCENE;
  const int steps = argc > 2 ? std::stoi(argv[2]) : 200;
  try {
    const pliant::Model model = pliant::load_model(path);
    for (int threads : {1, 2}) {
      const double rate = pliant::rollout_steps_per_second(model, 64, steps, threads);
      std::printf("%d thread%s: %.0f steps/s (64 x %d steps in %.3f s)\n", threads,
                  threads > 1 ? "s" : "", rate, steps, 64.0 * steps / rate);
    }
    return 0;
  } catch (const pliant::LoadError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
