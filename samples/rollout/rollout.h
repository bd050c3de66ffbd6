#pragma once

// Batched rollouts: many Data stepped over one shared, read-only Model, split
// across threads. Each Data is owned by one thread at a time and the step
// has no shared mutable state, so results do not depend on the thread count.

#include <vector>

#include "pliant/data.h"

namespace pliant {

// Steps every data `steps` times, using `threads` threads (>= 1); each Data
// stays with one thread for the whole call.
void rollout(const Model& model, std::vector<Data>& data, int steps, int threads);

// Throughput of batched rollouts: `count` Data over `model`, each starting
// from qvel ~ N(0, 0.01^2) (mt19937_64 seeded with 1), stepped `steps`
// times on `threads` threads. Returns steps per second over the batch.
double rollout_steps_per_second(const Model& model, int count, int steps, int threads);

}  // namespace pliant
