#pragma once

// Workloads shared by `pliant bench` and the side-by-side benchmark: the
// box piles of samples/shared/scenes.h and a stepping loop with control noise that keeps the
// statistics a benchmark reports next to its time.

#include <cstdint>
#include <random>
#include <string>

#include "pliant/data.h"
#include "samples/shared/scenes.h"

namespace pliant::bench {

// Control noise as in `pliant dump`: before each step, ctrl = scale * N(0,1)
// from a mt19937_64 seeded with `seed`.
class ControlNoise {
 public:
  explicit ControlNoise(double scale, uint64_t seed = 1) : scale_(scale), rng_(seed) {}
  // Fills ctrl[0..n) (nothing when scale is 0).
  void fill(double* ctrl, int n) {
    if (scale_ <= 0) return;
    for (int i = 0; i < n; ++i) ctrl[i] = scale_ * normal_(rng_);
  }

 private:
  double scale_;
  std::mt19937_64 rng_;
  std::normal_distribution<double> normal_{0, 1};
};

// Sums over stepped steps of what the step produced.
struct StepTally {
  long steps = 0;
  double contacts = 0, rows = 0, iterations = 0;

  void add(double ncon, double nefc, double iters) {
    ++steps;
    contacts += ncon;
    rows += nefc;
    iterations += iters;
  }
  double mean_contacts() const { return steps ? contacts / steps : 0; }
  double mean_rows() const { return steps ? rows / steps : 0; }
  double mean_iterations() const { return steps ? iterations / steps : 0; }
};

// Steps `steps` times with noise, adding each step's counts to `tally`.
// Returns the wall time in seconds.
double step_pliant(const Model& model, Data& data, long steps, ControlNoise& noise,
                   StepTally& tally);

// Heap bytes in use right now (glibc's allocator statistics).
double heap_bytes_in_use();

}  // namespace pliant::bench
