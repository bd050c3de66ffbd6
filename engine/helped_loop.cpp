#include "engine/helped_loop.h"

#include <thread>
#include <utility>

#include "engine/thread_pool.h"

namespace pliant {

// The order that makes it safe (every operation on open_ and inside_ is
// sequentially consistent): a helper counts itself inside before it looks
// at open_, and the driver closes open_ before it looks at inside_. Either
// the helper sees the loop closed and touches nothing, or the driver sees
// the helper and waits for it; a helper that saw the loop open reads the
// fields written before it opened.
void HelpedLoop::run(int count, Call call, void* context) {
  call_ = call;
  context_ = context;
  tasks_.open(count);
  open_.store(true);
  run_tasks(0);
  open_.store(false);
  while (inside_.load() > 0) spin_pause();
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

bool HelpedLoop::help(int worker) {
  if (!open_.load(std::memory_order_relaxed)) return false;
  inside_.fetch_add(1);
  const bool open = open_.load();
  if (open) run_tasks(worker);
  inside_.fetch_sub(1);
  return open;
}

void HelpedLoop::help_until_finished(int worker) {
  for (int idle = 0; !finished_.load();) {
    if (help(worker)) {
      idle = 0;
    } else if (++idle % 256 == 0) {
      // The driver is in a serial part: let another thread have the core
      // when threads outnumber cores.
      std::this_thread::yield();
    } else {
      spin_pause();
    }
  }
}

void HelpedLoop::run_tasks(int worker) {
  for (int i = tasks_.claim(worker); i >= 0; i = tasks_.claim(worker)) {
    try {
      call_(context_, i, worker);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

}  // namespace pliant
