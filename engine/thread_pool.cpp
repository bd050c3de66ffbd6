#include "engine/thread_pool.h"

#include <chrono>
#include <utility>

namespace pliant {
namespace {

// Spins until done() or about a millisecond has passed; returns done().
// Without `spin` (more threads than cores, where a spinning thread would
// take a core from one with work) it only looks once.
template <class Done>
bool spin_until(bool spin, Done done) {
  if (!spin) return done();
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0;; ++round) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
      spin_pause();
    }
    if (std::chrono::steady_clock::now() - start > std::chrono::milliseconds(1)) return done();
  }
}

}  // namespace

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPool::run_loop(int threads, int count, Call call, void* context) {
  const int helpers = threads - 1;
  while (workers() < helpers) {
    // A new worker starts at the loops begun so far: this one is its first.
    const int worker = workers() + 1;
    const long seen = generation_.load();
    threads_.emplace_back([this, worker, seen] { work(worker, seen); });
    spin_.store(workers() + 1 <= static_cast<int>(std::thread::hardware_concurrency()));
  }
  // Every worker is between loops here (each acknowledged the last one,
  // taking part or not): they read these fields only after seeing the new
  // generation.
  call_ = call;
  context_ = context;
  error_ = nullptr;
  tasks_.open(count);
  taking_part_ = helpers;
  busy_.store(workers(), std::memory_order_relaxed);
  generation_.fetch_add(1);  // publishes the fields above
  if (sleepers_.load() > 0) {
    // Taking the lock orders this wake-up after a sleeper's last look at
    // the generation.
    { std::lock_guard<std::mutex> lock(mutex_); }
    wake_.notify_all();
  }
  run_tasks(0);
  if (!spin_until(spin_.load(), [this] { return busy_.load(std::memory_order_acquire) == 0; })) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_.load(std::memory_order_acquire) == 0; });
  }
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ThreadPool::run_tasks(int worker) {
  for (int i = tasks_.claim(worker); i >= 0; i = tasks_.claim(worker)) {
    try {
      call_(context_, i, worker);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ThreadPool::work(int worker, long seen) {
  for (;;) {
    const auto started = [&] { return stop_.load() || generation_.load() != seen; };
    if (!spin_until(spin_.load(), started)) {
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1);
      wake_.wait(lock, started);
      sleepers_.fetch_sub(1);
    }
    if (stop_.load()) return;
    seen = generation_.load();
    if (worker <= taking_part_) run_tasks(worker);
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

}  // namespace pliant
