#pragma once

// The tasks of one parallel loop not yet claimed, [front, back) in one
// atomic word. Worker 0 (the thread that opened the loop) claims from the
// front, the others from the back: with balanced loads each thread takes
// the same tasks loop after loop, and one stage's first tasks and the
// next stage's (the same contacts, rows or islands, in order) run on the
// same thread and find their memory in its cache. Internal to the engine.

#include <atomic>

namespace pliant {

class TaskRange {
 public:
  // [0, count) to claim; published to other threads by the caller's own
  // synchronisation.
  void open(int count) {
    unclaimed_.store(static_cast<unsigned long long>(count) << 32, std::memory_order_relaxed);
  }

  // The next task for `worker` (-1: none left).
  int claim(int worker) {
    unsigned long long range = unclaimed_.load(std::memory_order_relaxed);
    for (;;) {
      const auto front = static_cast<unsigned>(range), back = static_cast<unsigned>(range >> 32);
      if (front >= back) return -1;
      const unsigned long long claimed =
          worker == 0 ? range + 1 : range - (1ull << 32);  // front + 1, or back - 1
      if (unclaimed_.compare_exchange_weak(range, claimed, std::memory_order_relaxed)) {
        return static_cast<int>(worker == 0 ? front : back - 1);
      }
    }
  }

 private:
  std::atomic<unsigned long long> unclaimed_{0};  // front in the low 32 bits, back in the high
};

}  // namespace pliant
