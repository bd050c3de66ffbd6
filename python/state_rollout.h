#pragma once

// Rollouts from full states, as mujoco.rollout: each row starts from a
// reset Data set to its initial state (mj_setState, mjSTATE_FULLPHYSICS),
// optionally its warm start, then for each step sets that step's controls
// (the components of a state mask) and steps once, recording the full
// physics state and the sensor data after the step. Rows run on the
// threads of a RolloutPool; a pool kept across calls keeps its threads
// (mujoco.rollout.Rollout's persistent pool). Results do not depend on the thread count or on
// earlier calls: every row starts from a reset Data.

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "pliant/data.h"

namespace pliant::python {

// Threads that wait for work between calls.
class RolloutPool {
 public:
  explicit RolloutPool(int threads);
  ~RolloutPool();
  RolloutPool(const RolloutPool&) = delete;
  RolloutPool& operator=(const RolloutPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs job(worker) once on each of size() workers (the caller is worker
  // 0) and returns when all have; rethrows the first error.
  void run(const std::function<void(int)>& job);

 private:
  void serve(int worker);
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
  std::vector<std::exception_ptr> errors_;
};

struct StateRollout {
  // One model per row (the same pointer for all rows when shared); all of
  // the same sizes.
  std::vector<const Model*> models;
  long batch = 0, steps = 0;
  const double* initial_state = nullptr;  // [batch, nstate] full physics
  const double* warmstart = nullptr;      // [batch, nv] or nullptr
  const double* control = nullptr;        // [batch, steps, ncontrol] or nullptr
  unsigned control_spec = 0;              // state bits of the controls
  double* state_out = nullptr;            // [batch, steps, nstate]
  double* sensordata_out = nullptr;       // [batch, steps, nsensordata] or nullptr
};

void state_rollout(const StateRollout& job, RolloutPool& pool);

}  // namespace pliant::python
