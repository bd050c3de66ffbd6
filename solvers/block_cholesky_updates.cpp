// BlockCholesky's rank-1 updates: one at a time, and a batch as a pipeline
// of stages on several threads.

#include <algorithm>
#include <cmath>

#include "solvers/block_cholesky.h"
#include "solvers/grow.h"
#include "solvers/parallel_loop.h"

namespace pliant {

// Column by column along the elimination tree from v's first non-zero
// (within a block the next column, from a block's last column the first of
// its parent block), as the envelope factor's update:
// r = sqrt(L_jj^2 +- v_j^2), c = r / L_jj, s = v_j / L_jj; below the
// diagonal L_kj <- (L_kj +- s v_k) / c and v_k <- c v_k - s L_kj (new).
bool BlockCholesky::rank_one(double* v, bool downdate, int first) {
  int j = first;
  while (j < n_ && v[j] == 0) ++j;
  bool ok = true;
  walk_path(v, downdate ? -1 : 1, j, blocks_, gathered_.data(), ok);
  return ok;
}

// A block's entries of v, its own rows then the panel's rows below them,
// are gathered once, rotated by each of its columns as one contiguous run
// (the column's panel entries below its diagonal), and the rows below are
// scattered back: the same operations on every entry, in the same order,
// as entry by entry. After block b, v's non-zeros lie in the rows of b's
// panel below its own (its column of L holds those of its children).
int BlockCholesky::walk_path(double* v, double sign, int j, int end_block, double* panel_v,
                             bool& ok) {
  int last = -1;
  while (j < n_ && block_of_[j] < end_block) {
    const int b = block_of_[j], own = start_[b], h = height_[b];
    const int s = start_[b + 1] - own;
    const int* rows = rows_.data() + row_start_[b];
    last = b;
    if (!ok) {
      for (int c = j - own; c < s; ++c) v[own + c] = 0;
      for (int m = s; m < h; ++m) v[rows[m]] = 0;
      j = h > s ? rows[s] : n_;
      continue;
    }
    for (int c = 0; c < s; ++c) {
      panel_v[c] = v[own + c];
      v[own + c] = 0;
    }
    for (int m = s; m < h; ++m) panel_v[m] = v[rows[m]];
    for (int c = j - own; c < s && ok; ++c) {
      const double vj = panel_v[c];
      if (vj == 0) continue;
      double* column = values_.data() + panel_[b] + c * h;
      const double ljj = column[c];
      const double r2 = ljj * ljj + sign * vj * vj;
      if (!(r2 > 1e-15 * ljj * ljj)) {
        // Rank loss: the caller refactorises. The rest of the walk clears v
        // (every later entry of v lies in a block on the path).
        ok = false;
        break;
      }
      // One division: 1 / ljj is kept already, and 1 / root is kept next.
      const double root = std::sqrt(r2), inverse_root = 1 / root;
      const double inverse_ljj = inverse_diagonal_[own + c];
      const double cosine = root * inverse_ljj, sine = vj * inverse_ljj;
      const double inverse_cosine = ljj * inverse_root;
      column[c] = root;
      inverse_diagonal_[own + c] = inverse_root;
      const double signed_sine = sign * sine;
      double* __restrict l = column + c + 1;
      double* __restrict u = panel_v + c + 1;
      for (int m = 0, count = h - c - 1; m < count; ++m) {
        l[m] = (l[m] + signed_sine * u[m]) * inverse_cosine;
        u[m] = cosine * u[m] - sine * l[m];
      }
    }
    if (ok) {
      for (int m = s; m < h; ++m) v[rows[m]] = panel_v[m];
    } else {
      for (int m = s; m < h; ++m) v[rows[m]] = 0;
    }
    j = h > s ? rows[s] : n_;
  }
  return last;
}

// The stages' ranges share the batch's work (the panel entries its paths
// rotate): each update's count is added to its first block, and every
// block's to its parent's (parents come after their children), so a
// block's count is the number of updates walking through it.
void BlockCholesky::begin_updates(const UpdateBatch& batch, int stages) {
  Pipeline& pipe = pipeline_.value;
  const int count = batch.count();
  stages = std::clamp(stages, 1, std::max(blocks_, 1));
  path_visits_.assign(blocks_, 0.0);
  for (int k = 0; k < count; ++k) {
    int first = n_;
    for (int e = batch.start[k]; e < batch.start[k + 1]; ++e) {
      if (batch.value[e] != 0) first = std::min(first, batch.index[e]);
    }
    if (first < n_) path_visits_[block_of_[first]] += 1;
  }
  double total = 0;
  for (int b = 0; b < blocks_; ++b) {
    if (pattern_start_[b + 1] > pattern_start_[b]) {
      path_visits_[pattern_[pattern_start_[b]]] += path_visits_[b];
    }
    const double s = start_[b + 1] - start_[b];
    path_visits_[b] *= s * height_[b] - 0.5 * s * (s + 1);
    total += path_visits_[b];
  }
  while (static_cast<int>(pipe.stages.size()) < stages) {
    pipe.stages.push_back(std::make_unique<UpdateStage>());
  }
  int tallest = 0;
  for (int b = 0; b < blocks_; ++b) tallest = std::max(tallest, height_[b]);
  // What a stage hands on: the rows below one panel, or a vector passed
  // through whole.
  const size_t handed = static_cast<size_t>(count) * tallest + batch.index.size();
  double share = 0;
  int s = 0;
  for (int b = 0; b < blocks_ && s < stages - 1; ++b) {
    share += path_visits_[b];
    while (s < stages - 1 && share >= total * (s + 1) / stages) pipe.stages[s++]->end_block = b + 1;
  }
  for (; s < stages; ++s) pipe.stages[s]->end_block = blocks_;
  for (s = 0; s < stages; ++s) {
    UpdateStage& stage = *pipe.stages[s];
    grow(stage.v, n_);  // zero between updates: grown with zeros
    grow(stage.panel_v, tallest);
    grow(stage.out_start, count + 1);
    grow(stage.out_index, handed);
    grow(stage.out_value, handed);
    stage.out_start[0] = 0;
    stage.done.store(0, std::memory_order_relaxed);
    stage.held.store(false, std::memory_order_relaxed);
  }
  pipe.count = stages;
  pipe.batch = &batch;
  pipe.failed.store(false, std::memory_order_relaxed);
}

void BlockCholesky::take_updates() {
  Pipeline& pipe = pipeline_.value;
  const int count = pipe.batch->count();
  for (;;) {
    bool finished = true, took = false;
    for (int s = 0; s < pipe.count; ++s) {
      if (pipe.stages[s]->done.load(std::memory_order_acquire) == count) continue;
      finished = false;
      took = take_stage(s) || took;
    }
    if (finished) return;
    if (!took) spin_pause();
  }
}

// Holding the stage (its blocks, vector and output are then this
// thread's), each ready update in order: its vector from the batch or the
// stage before, walked through the stage's blocks, and what is left of it
// (the rows below the last block walked) handed on. A path starting in a
// later stage is handed on whole. After a loss of rank, updates are
// passed by: the factor is rebuilt.
bool BlockCholesky::take_stage(int s) {
  Pipeline& pipe = pipeline_.value;
  UpdateStage& stage = *pipe.stages[s];
  if (stage.held.load(std::memory_order_relaxed) ||
      stage.held.exchange(true, std::memory_order_acquire)) {
    return false;
  }
  const UpdateBatch& batch = *pipe.batch;
  const UpdateStage* previous = s > 0 ? pipe.stages[s - 1].get() : nullptr;
  const int ready = previous ? previous->done.load(std::memory_order_acquire) : batch.count();
  int k = stage.done.load(std::memory_order_relaxed);
  const bool took = k < ready;
  const bool last_stage = s + 1 == pipe.count;
  double* v = stage.v.data();
  for (; k < ready; ++k) {
    const int* index;
    const double* value;
    int n;
    if (previous) {
      const int from = previous->out_start[k];
      index = previous->out_index.data() + from;
      value = previous->out_value.data() + from;
      n = previous->out_start[k + 1] - from;
    } else {
      index = batch.index.data() + batch.start[k];
      value = batch.value.data() + batch.start[k];
      n = batch.start[k + 1] - batch.start[k];
    }
    int out = stage.out_start[k];
    if (!pipe.failed.load(std::memory_order_relaxed)) {
      int j = n_;
      for (int e = 0; e < n; ++e) {
        if (value[e] == 0) continue;
        v[index[e]] = value[e];
        j = std::min(j, index[e]);
      }
      auto hand_on = [&](int i) {
        if (v[i] != 0) {
          stage.out_index[out] = i;
          stage.out_value[out++] = v[i];
        }
        v[i] = 0;
      };
      if (j < n_ && block_of_[j] < stage.end_block) {
        bool ok = true;
        const double sign = batch.downdate[k] ? -1 : 1;
        const int b = walk_path(v, sign, j, stage.end_block, stage.panel_v.data(), ok);
        if (!ok) pipe.failed.store(true, std::memory_order_relaxed);
        if (!last_stage) {
          const int* rows = rows_.data() + row_start_[b];
          for (int m = start_[b + 1] - start_[b]; m < height_[b]; ++m) hand_on(rows[m]);
        }
      } else {
        for (int e = 0; e < n; ++e) hand_on(index[e]);
      }
    }
    stage.out_start[k + 1] = out;
    stage.done.store(k + 1, std::memory_order_release);
  }
  stage.held.store(false, std::memory_order_release);
  return took;
}

}  // namespace pliant
