#pragma once

// A parallel loop the caller lends the solvers (the engine lends its thread
// pool when a large constraint island has the threads to itself). Tasks may
// run in any order on any thread, so a task writes only outputs of its own;
// where a task sums, the problem is cut into the same pieces whatever the
// thread count (row_chunks), so results do not depend on it.

#include <algorithm>
#include <type_traits>

namespace pliant {

class ParallelLoop {
 public:
  using Call = void (*)(void* context, int task, int worker);

  // Threads a loop may use (the caller's own included).
  virtual int threads() const = 0;
  // Calls call(context, i, worker) for every i in [0, count) and returns
  // when every call has returned; `worker` (below threads()) names the
  // thread, for scratch memory of its own.
  virtual void run(int count, Call call, void* context) = 0;

 protected:
  ~ParallelLoop() = default;
};

// One turn of a spin-wait: tells the core that this thread is waiting.
inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// task(i, worker) for every i in [0, count): on `loop` when it has more than
// one thread, else in order on this thread (worker 0).
template <class Task>
void parallel_for(ParallelLoop* loop, int count, Task&& task) {
  if (loop == nullptr || loop->threads() <= 1 || count <= 1) {
    for (int i = 0; i < count; ++i) task(i, 0);
    return;
  }
  using Plain = std::remove_reference_t<Task>;
  loop->run(
      count, [](void* context, int i, int worker) { (*static_cast<Plain*>(context))(i, worker); },
      &task);
}

// The first of `count` items in slice s of `slices` (s == slices: count),
// slices of sizes in proportion. One slice (the usual case of small
// problems) skips the 64-bit division, among the slowest instructions.
inline int slice_begin(int count, int s, int slices) {
  if (slices == 1) return count * s;
  return static_cast<int>(static_cast<long long>(count) * s / slices);
}

// Problems from this many rows are cut into row chunks (row_chunks): fewer
// rows stay one chunk, so small problems sum exactly as they always have.
constexpr int kRowsPerChunk = 2048;
// At most this many chunks (larger problems get larger chunks), so that a
// chunk's partial sums fit on the stack.
constexpr int kMaxRowChunks = 64;

// How many chunks a problem of `rows` rows is cut into: a function of the
// size alone, never of the threads.
inline int row_chunks(int rows) {
  return std::clamp((rows + kRowsPerChunk - 1) / kRowsPerChunk, 1, kMaxRowChunks);
}

}  // namespace pliant
