#pragma once

// Worker threads that run one parallel loop at a time together with the
// calling thread: the step's parallel stages (collision's narrow phase, the
// constraint islands) when Data::threads > 1. Internal to the engine.
//
// A loop's tasks are claimed in any order by any thread, so a task must
// write only outputs of its own (its index's slot); the step's results then
// do not depend on the thread count.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "engine/task_range.h"
#include "solvers/parallel_loop.h"

namespace pliant {

class ThreadPool {
 public:
  ThreadPool() = default;
  // A copy (of a Data's workspace) starts without workers of its own.
  ThreadPool(const ThreadPool&) {}
  ThreadPool& operator=(const ThreadPool&) { return *this; }
  ~ThreadPool();

  // Runs task(i, worker) for every i in [0, count), on up to `threads`
  // threads, and returns when every task has run. `worker` (0 for the
  // calling thread, below `threads`) names the thread, for scratch memory of
  // its own. The first exception a task throws is rethrown here, after the
  // loop. With threads <= 1 the tasks run in order on the caller.
  template <class Task>
  void run(int threads, int count, Task&& task) {
    if (threads <= 1 || count <= 1) {
      for (int i = 0; i < count; ++i) task(i, 0);
      return;
    }
    using Plain = std::remove_reference_t<Task>;
    run_loop(
        std::min(threads, count), count,
        [](void* context, int i, int worker) { (*static_cast<Plain*>(context))(i, worker); },
        &task);
  }

  // Worker threads started so far (beside the caller).
  int workers() const { return static_cast<int>(threads_.size()); }

 private:
  using Call = void (*)(void* context, int task, int worker);
  void run_loop(int threads, int count, Call call, void* context);
  void work(int worker, long seen);
  void run_tasks(int worker);

  std::vector<std::thread> threads_;  // worker k + 1
  // Waiting: a thread spins for a while (a step's next parallel stage is
  // usually that near) and then sleeps on a condition; waking a sleeping
  // thread takes tens of microseconds on some machines. With more threads
  // than cores a spinning thread would hold a core another needs: there,
  // threads sleep at once.
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<long> generation_{0};  // loops started: a worker runs each one once
  std::atomic<bool> stop_{false};
  std::atomic<int> sleepers_{0};  // workers asleep on wake_ (or about to be)
  std::atomic<bool> spin_{true};  // no more threads than cores: wait by spinning first
  int taking_part_ = 0;           // workers 1..taking_part_ run this loop
  std::atomic<int> busy_{0};      // workers yet to finish (or pass) this loop
  TaskRange tasks_;               // the caller claims from the front, workers from the back
  Call call_ = nullptr;
  void* context_ = nullptr;
  std::exception_ptr error_;
};

// The pool lent to the solvers as their ParallelLoop, on `threads` threads.
class PoolLoop final : public ParallelLoop {
 public:
  PoolLoop(ThreadPool& pool, int threads) : pool_(pool), threads_(threads) {}
  int threads() const override { return threads_; }
  void run(int count, Call call, void* context) override {
    pool_.run(threads_, count, [&](int i, int worker) { call(context, i, worker); });
  }

 private:
  ThreadPool& pool_;
  int threads_;
};

}  // namespace pliant
