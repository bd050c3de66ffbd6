#include "python/state_rollout.h"

#include <algorithm>

#include "pliant/state.h"
#include "pliant/step.h"

namespace pliant::python {

RolloutPool::RolloutPool(int threads) {
  errors_.resize(std::max(threads, 1));
  for (int k = 1; k < threads; ++k) workers_.emplace_back([this, k] { serve(k); });
}

RolloutPool::~RolloutPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& w : workers_) w.join();
}

void RolloutPool::serve(int worker) {
  long seen = 0;
  for (;;) {
    const std::function<void(int)>* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    try {
      (*job)(worker);
    } catch (...) {
      errors_[worker] = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

void RolloutPool::run(const std::function<void(int)>& job) {
  std::fill(errors_.begin(), errors_.end(), nullptr);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    pending_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  try {
    job(0);
  } catch (...) {
    errors_[0] = std::current_exception();
  }
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
  }
  for (const std::exception_ptr& e : errors_) {
    if (e) std::rethrow_exception(e);
  }
}

namespace {

// A worker's Data, made again when its row has another model.
struct Scratch {
  const Model* model = nullptr;
  std::unique_ptr<Data> data;
};

void roll_state_row(const StateRollout& job, long b, Scratch& scratch) {
  const Model& m = *job.models[b];
  if (scratch.model != &m) {
    scratch.data = std::make_unique<Data>(m);
    scratch.model = &m;
  }
  Data& d = *scratch.data;
  reset_data(m, d);
  const long nstate = state_size(m, kStateFullPhysics);
  const long ncontrol = state_size(m, job.control_spec);
  const long nsensor = m.sensors.data_size;
  set_state(m, d, job.initial_state + b * nstate, kStateFullPhysics);
  if (job.warmstart != nullptr) {
    std::copy_n(job.warmstart + b * m.nv, m.nv, d.qacc_warmstart.data());
  }
  for (long t = 0; t < job.steps; ++t) {
    const long row = b * job.steps + t;
    if (job.control != nullptr) set_state(m, d, job.control + row * ncontrol, job.control_spec);
    step(m, d);
    get_state(m, d, job.state_out + row * nstate, kStateFullPhysics);
    if (job.sensordata_out != nullptr) {
      std::copy_n(d.sensordata.data(), nsensor, job.sensordata_out + row * nsensor);
    }
  }
}

}  // namespace

void state_rollout(const StateRollout& job, RolloutPool& pool) {
  const int workers = pool.size();
  // Row b on worker b % workers, each worker with a Data of its own.
  std::vector<Scratch> scratch(workers);
  pool.run([&](int worker) {
    for (long b = worker; b < job.batch; b += workers) roll_state_row(job, b, scratch[worker]);
  });
}

}  // namespace pliant::python
