#include "samples/bench/workloads.h"

#include <malloc.h>

#include <chrono>
#include <cstdio>

#include "pliant/forward.h"
#include "pliant/step.h"

namespace pliant::bench {

double step_pliant(const Model& model, Data& data, long steps, ControlNoise& noise,
                   StepTally& tally) {
  double seconds = 0;
  for (long s = 0; s < steps; ++s) {
    noise.fill(data.ctrl.data(), model.nu);
    const auto start = std::chrono::steady_clock::now();
    step(model, data);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tally.add(static_cast<double>(data.contacts.size()), data.efc.count(), data.solver.iterations);
  }
  return seconds;
}

double heap_bytes_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd);
}

}  // namespace pliant::bench
