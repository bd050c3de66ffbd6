#pragma once

// A parallel loop that one thread (the driver) runs and that other threads,
// busy with work of their own, help with when they are free. The step
// solves a large constraint island on the driver while the other threads
// solve the small islands: between two small islands, a helper takes the
// open loop's tasks first, so the large island's passes use every thread
// that is free and its serial parts (ordering, analysis, rank-1 updates)
// no longer leave the others idle. Internal to the engine.
//
// The tasks of a loop are claimed in any order by any thread, as the
// ParallelLoop contract says: a loop's results do not depend on who helps.

#include <atomic>
#include <exception>
#include <mutex>

#include "engine/task_range.h"
#include "engine/thread_pool.h"
#include "solvers/parallel_loop.h"

namespace pliant {

class HelpedLoop final : public ParallelLoop {
 public:
  // `threads` counts the driver (worker 0) and helpers 1 .. threads - 1.
  explicit HelpedLoop(int threads) : threads_(threads) {}

  int threads() const override { return threads_; }
  // On the driver: opens the loop, claims its tasks beside any helper that
  // joins, and returns once every task has returned (rethrowing the first
  // exception one threw).
  void run(int count, Call call, void* context) override;

  // On helper `worker`: runs tasks of the loop open now; false when none was.
  bool help(int worker);
  // The driver's last loop is over: helpers stop waiting for another.
  void finish() { finished_.store(true); }
  // On helper `worker`: helps every loop until finish().
  void help_until_finished(int worker);

 private:
  void run_tasks(int worker);

  const int threads_;
  // The open loop's fields: written by the driver while no helper is inside
  // (inside_ == 0 and open_ false), published by open_.
  Call call_ = nullptr;
  void* context_ = nullptr;
  TaskRange tasks_;                // the driver claims from the front, helpers from the back
  std::atomic<bool> open_{false};  // a loop's tasks may be claimed
  std::atomic<int> inside_{0};     // helpers that may be claiming tasks
  std::atomic<bool> finished_{false};
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

// On `threads` threads of `pool`: driver(loop) runs with its passes on a
// helped loop while another thread runs beside() (serial work the driver
// does not read) and then, like every other thread, helps the driver's
// passes until it returns.
template <class Driver, class Beside>
void run_beside(ThreadPool& pool, int threads, Driver&& driver, Beside&& beside) {
  HelpedLoop loop(threads);
  pool.run(threads, threads, [&](int role, int) {
    if (role == 0) {
      struct Finish {
        HelpedLoop& loop;
        ~Finish() { loop.finish(); }
      } finish{loop};
      driver(&loop);
      return;
    }
    if (role == 1) beside();
    loop.help_until_finished(role);
  });
}

}  // namespace pliant
