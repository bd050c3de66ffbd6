#pragma once

// Batched rollouts for pliant.rollout: `batch` independent trajectories over
// one shared, read-only Model, split across threads. Each row starts from a
// fresh Data with its qpos0 and qvel0, then for each of `steps` steps sets
// ctrl and steps once, and records qpos and qvel after the step. The results
// do not depend on the thread count.

#include "pliant/data.h"

namespace pliant::python {

// Arrays are C-contiguous: qpos0 [batch, nq], qvel0 [batch, nv],
// ctrl [batch, steps, nu]; qpos_out [batch, steps, nq], qvel_out
// [batch, steps, nv]. threads >= 1.
void batch_rollout(const Model& model, long batch, long steps, const double* qpos0,
                   const double* qvel0, const double* ctrl, double* qpos_out, double* qvel_out,
                   int threads);

}  // namespace pliant::python
