#include "solvers/block_cholesky.h"

#include <algorithm>
#include <cmath>

#include "solvers/group_sort.h"
#include "solvers/grow.h"
#include "solvers/tree_ordering.h"

namespace pliant {

void BlockCholesky::analyse(const ConstraintProblem& p, const TreeOrdering& order) {
  n_ = p.nv;
  blocks_ = order.tree_count();
  // Blocks are the trees in elimination order.
  start_.resize(blocks_ + 1);
  block_of_.resize(n_);
  start_[0] = 0;
  for (int b = 0; b < blocks_; ++b) {
    start_[b + 1] = start_[b] + order.tree_size(order.tree_at(b));
    for (int i = start_[b]; i < start_[b + 1]; ++i) block_of_[i] = b;
  }

  // Each row couples its blocks: the earliest one gets the others as later
  // neighbours (the elimination adds the rest of the clique as fill).
  cursor_.assign(blocks_ + 1, 0);
  // Rows with the previous row's columns add nothing new.
  auto for_row_blocks = [&](int row, auto&& visit) {
    if (same_columns_as_previous(p, row)) return;
    row_trees_.clear();
    const int adr = p.row_adr[row];
    for (int k = 0; k < p.row_nnz[row]; ++k) {
      const int b = block_of_[order.position(p.col[adr + k])];
      if (!row_trees_.empty() && row_trees_.back() == b) continue;
      if (std::find(row_trees_.begin(), row_trees_.end(), b) == row_trees_.end()) {
        row_trees_.push_back(b);
      }
    }
    if (row_trees_.size() < 2) return;
    const int lowest = *std::min_element(row_trees_.begin(), row_trees_.end());
    for (int b : row_trees_) {
      if (b != lowest) visit(lowest, b);
    }
  };
  for (int i = 0; i < p.nefc; ++i) for_row_blocks(i, [&](int a, int) { ++cursor_[a + 1]; });
  neighbour_start_.assign(cursor_.begin(), cursor_.end());
  for (int b = 0; b < blocks_; ++b) neighbour_start_[b + 1] += neighbour_start_[b];
  neighbours_.resize(neighbour_start_[blocks_]);
  cursor_.assign(neighbour_start_.begin(), neighbour_start_.end() - 1);
  for (int i = 0; i < p.nefc; ++i) {
    for_row_blocks(i, [&](int a, int b) { neighbours_[cursor_[a]++] = b; });
  }

  // Symbolic elimination: pattern(b) = later neighbours of b and the
  // patterns of its children in the elimination tree, without b; the
  // parent of b is the first block of its pattern.
  pattern_start_.resize(blocks_ + 1);
  pattern_.clear();
  first_child_.assign(blocks_, -1);
  next_sibling_.assign(blocks_, -1);
  mark_.assign(blocks_, -1);
  pattern_start_[0] = 0;
  for (int b = 0; b < blocks_; ++b) {
    const int begin = static_cast<int>(pattern_.size());
    mark_[b] = b;
    auto add = [&](int c) {
      if (mark_[c] != b) {
        mark_[c] = b;
        pattern_.push_back(c);
      }
    };
    for (int k = neighbour_start_[b]; k < neighbour_start_[b + 1]; ++k) add(neighbours_[k]);
    for (int child = first_child_[b]; child >= 0; child = next_sibling_[child]) {
      for (int k = pattern_start_[child]; k < pattern_start_[child + 1]; ++k) add(pattern_[k]);
    }
    std::sort(pattern_.begin() + begin, pattern_.end());
    pattern_start_[b + 1] = static_cast<int>(pattern_.size());
    if (pattern_start_[b + 1] > begin) {
      const int parent = pattern_[begin];
      next_sibling_[b] = first_child_[parent];
      first_child_[parent] = b;
    }
  }

  // Panels: own rows, then the rows of the pattern blocks.
  height_.resize(blocks_);
  row_start_.resize(blocks_ + 1);
  panel_.resize(blocks_ + 1);
  rows_.clear();
  row_start_[0] = panel_[0] = 0;
  factor_work_ = 0;
  pattern_row_.resize(pattern_.size());
  offset_ = Offset{};
  for (int b = 0; b < blocks_; ++b) {
    for (int i = start_[b]; i < start_[b + 1]; ++i) rows_.push_back(i);
    for (int k = pattern_start_[b]; k < pattern_start_[b + 1]; ++k) {
      const int c = pattern_[k];
      pattern_row_[k] = static_cast<int>(rows_.size()) - row_start_[b];
      for (int i = start_[c]; i < start_[c + 1]; ++i) rows_.push_back(i);
    }
    row_start_[b + 1] = static_cast<int>(rows_.size());
    const int s = start_[b + 1] - start_[b];
    const double h = height_[b] = row_start_[b + 1] - row_start_[b];
    panel_[b + 1] = panel_[b] + height_[b] * s;
    // The panel's own factor and the update of the later panels it
    // reaches: about s h^2 / 2.
    factor_work_ += 0.5 * s * h * h;
  }
  // An update visits every entry of the panels on its path to the root.
  path_work_.resize(blocks_);
  for (int b = blocks_ - 1; b >= 0; --b) {
    const int s = start_[b + 1] - start_[b];
    const bool root = pattern_start_[b + 1] == pattern_start_[b];
    path_work_[b] = static_cast<double>(height_[b]) * s +
                    (root ? 0.0 : path_work_[pattern_[pattern_start_[b]]]);
  }
  // Values are set by clear_values() before use (and this factor may not
  // be the one chosen): the storage only grows here.
  grow(values_, panel_[blocks_]);
  int tallest = 0, widest = 0;
  for (int b = 0; b < blocks_; ++b) {
    tallest = std::max(tallest, height_[b]);
    widest = std::max(widest, start_[b + 1] - start_[b]);
  }
  grow(gathered_, tallest);
  inverse_diagonal_.resize(n_);
  if (scratch_.value.empty()) scratch_.value.resize(1);
  for (Scratch& scratch : scratch_.value) {
    grow(scratch.relative, tallest);
    grow(scratch.multipliers, widest);
    grow(scratch.multiplied, widest);
    grow(scratch.gathered, tallest);
  }
  // Sources: block b updates the blocks of its pattern; listed by target,
  // b ascending.
  source_start_.assign(blocks_ + 1, 0);
  for (int k = 0; k < pattern_start_[blocks_]; ++k) ++source_start_[pattern_[k] + 1];
  for (int b = 0; b < blocks_; ++b) source_start_[b + 1] += source_start_[b];
  source_block_.resize(pattern_start_[blocks_]);
  source_pattern_.resize(pattern_start_[blocks_]);
  cursor_.assign(source_start_.begin(), source_start_.end() - 1);
  for (int b = 0; b < blocks_; ++b) {
    for (int k = pattern_start_[b]; k < pattern_start_[b + 1]; ++k) {
      const int e = cursor_[pattern_[k]]++;
      source_block_[e] = b;
      source_pattern_[e] = k;
    }
  }
  schedule_threads_ = 0;
}

void BlockCholesky::clear_values(ParallelLoop* loop) {
  const long long size = panel_.empty() ? 0 : panel_[blocks_];
  // Slices of at least this many entries (a quarter of a MiB).
  constexpr long long kSlice = 1 << 15;
  const int slices = static_cast<int>(std::min<long long>((size + kSlice - 1) / kSlice, 64));
  parallel_for(loop, slices, [&](int k, int) {
    const long long begin = size * k / slices, end = size * (k + 1) / slices;
    std::fill(values_.begin() + begin, values_.begin() + end, 0.0);
  });
}

void BlockCholesky::find_offset(int row_block, int column_block, Offset& offset) const {
  const int* begin = pattern_.data() + pattern_start_[column_block];
  const int* end = pattern_.data() + pattern_start_[column_block + 1];
  const int k = static_cast<int>(std::lower_bound(begin, end, row_block) - pattern_.data());
  offset.row_block = row_block;
  offset.column_block = column_block;
  offset.row = pattern_row_[k];
}

void BlockCholesky::locate(const int* slots, int n, double** entries) {
  if (static_cast<int>(slot_unique_.size()) < n) {
    slot_unique_.resize(n);
    slot_row_.resize(n);
    slot_column_.resize(n);
  }
  // Each slot's block, listed once (a row reaches few blocks: a contact
  // between two boxes, two), its row within the block and its column's
  // start in the block's panel.
  locate_blocks_.clear();
  for (int a = 0; a < n; ++a) {
    const int b = block_of_[slots[a]];
    int u = 0;
    const int count = static_cast<int>(locate_blocks_.size());
    while (u < count && locate_blocks_[u] != b) ++u;
    if (u == count) locate_blocks_.push_back(b);
    slot_unique_[a] = u;
    slot_row_[a] = slots[a] - start_[b];
    slot_column_[a] = panel_[b] + slot_row_[a] * height_[b];
  }
  // Where each pair of the blocks (row block below column block) starts
  // in the column block's panel; 0 within one block.
  const int k = static_cast<int>(locate_blocks_.size());
  locate_pair_row_.assign(static_cast<size_t>(k) * k, 0);
  for (int u = 0; u < k; ++u) {
    for (int v = 0; v < k; ++v) {
      if (locate_blocks_[u] <= locate_blocks_[v]) continue;
      find_offset(locate_blocks_[u], locate_blocks_[v], offset_);
      locate_pair_row_[static_cast<size_t>(u) * k + v] = offset_.row;
    }
  }
  double* values = values_.data();
  for (int a = 0; a < n; ++a) {
    for (int c = 0; c <= a; ++c) {
      // Row `i` of column `j`, as at(i, j): the row's block is the column's
      // or below it.
      const bool a_is_row = slots[a] >= slots[c];
      const int i = a_is_row ? a : c, j = a_is_row ? c : a;
      const int pair_row =
          locate_pair_row_[static_cast<size_t>(slot_unique_[i]) * k + slot_unique_[j]];
      *entries++ = values + slot_column_[j] + pair_row + slot_row_[i];
    }
  }
}

// Block by block (left-looking): block t's panel first takes, from each
// earlier block b whose pattern reaches it (b ascending), H_t -= L_{rows, b}
// L_{t, b}^T through a map of b's panel rows onto t's; then t's own columns
// are factorised in place, L(r, c) = (H(r, c) - sum_k L(r, k) L(c, k)) /
// L(c, c). Every entry takes its sources' products in ascending block
// order, whatever order independent blocks are finished in.
void BlockCholesky::apply_update(int b, int pattern_index, Scratch& scratch) {
  const int s = start_[b + 1] - start_[b], h = height_[b];
  const double* panel = values_.data() + panel_[b];
  const int* rows = rows_.data() + row_start_[b];
  const int g = pattern_row_[pattern_index];
  const int t = pattern_[pattern_index];
  const int ts = start_[t + 1] - start_[t], th = height_[t];
  // This panel's rows g.. in the target panel (its pattern holds them).
  const int* target_rows = rows_.data() + row_start_[t];
  int* relative = scratch.relative.data();
  int q = ts;
  for (int r = g; r < h; ++r) {
    const int i = rows[r];
    if (i < start_[t + 1]) {
      relative[r] = i - start_[t];
    } else {
      while (target_rows[q] != i) ++q;
      relative[r] = q;
    }
  }
  // Target column k takes, entry by entry, the products of this panel's
  // columns with a non-zero in row g + k, in column order: each target
  // entry is read and written once.
  double* target = values_.data() + panel_[t];
  double* multipliers = scratch.multipliers.data();
  const double** multiplied = scratch.multiplied.data();
  for (int k = 0; k < ts; ++k) {
    int count = 0;
    for (int c = 0; c < s; ++c) {
      const double f = panel[c * h + g + k];
      if (f == 0) continue;
      multipliers[count] = f;
      multiplied[count++] = panel + c * h;
    }
    double* target_column = target + k * th;
    for (int r = g + k; r < h; ++r) {
      double sum = target_column[relative[r]];
      for (int m = 0; m < count; ++m) sum -= multiplied[m][r] * multipliers[m];
      target_column[relative[r]] = sum;
    }
  }
}

int BlockCholesky::take_sources(int b, int from, int last, Scratch& scratch) {
  int e = from;
  for (; e < source_start_[b + 1] && source_block_[e] <= last; ++e) {
    apply_update(source_block_[e], source_pattern_[e], scratch);
  }
  return e;
}

bool BlockCholesky::factor_block(int b, Scratch& scratch) {
  take_sources(b, source_start_[b], b, scratch);
  return factor_columns(b);
}

bool BlockCholesky::factor_columns(int b) {
  const int s = start_[b + 1] - start_[b], h = height_[b];
  double* panel = values_.data() + panel_[b];
  for (int c = 0; c < s; ++c) {
    double* column = panel + c * h;
    const double d = column[c];
    if (!(d > 0)) return false;
    const double l = std::sqrt(d), inverse = 1 / l;
    column[c] = l;
    inverse_diagonal_[start_[b] + c] = inverse;
    for (int r = c + 1; r < h; ++r) column[r] *= inverse;
    for (int c2 = c + 1; c2 < s; ++c2) {
      const double f = column[c2];
      if (f == 0) continue;
      double* target = panel + c2 * h;
      for (int r = c2; r < h; ++r) target[r] -= column[r] * f;
    }
  }
  return true;
}

// factor_block(b)'s multiply-adds, about: its sources' updates (each of its
// columns takes a source's rows from its own on, times the source's width)
// and its own columns.
double BlockCholesky::block_work(int b) const {
  const double s = start_[b + 1] - start_[b], h = height_[b];
  double work = 0.5 * s * s * h;
  for (int e = source_start_[b]; e < source_start_[b + 1]; ++e) {
    const int source = source_block_[e];
    const double width = start_[source + 1] - start_[source];
    work += width * s * (height_[source] - pattern_row_[source_pattern_[e]]);
  }
  return work;
}

// A top block's updates of the later top blocks are shared among threads
// from this many multiply-adds (a few microseconds: a loop's start and end
// cost about one).
constexpr double kSharedRoundWork = 16384;

bool BlockCholesky::factor(ParallelLoop* loop) {
  const int threads = loop ? loop->threads() : 1;
  if (threads <= 1 || blocks_ < 2) {
    for (int b = 0; b < blocks_; ++b) {
      if (!factor_block(b, scratch_.value[0])) return false;
    }
    return true;
  }
  if (schedule_threads_ != threads) make_schedule(threads);
  const int tasks = static_cast<int>(task_start_.size()) - 1;
  // Each task's flag: its own slot, so the threads share no written word.
  grow(task_ok_, tasks);
  parallel_for(loop, tasks, [&](int task, int worker) {
    bool ok = true;
    for (int k = task_start_[task]; k < task_start_[task + 1] && ok; ++k) {
      ok = factor_block(task_blocks_[k], scratch_.value[worker]);
    }
    task_ok_[task] = ok;
  });
  for (int task = 0; task < tasks; ++task) {
    if (!task_ok_[task]) return false;
  }
  // Above the subtrees, right-looking: each top block, once factorised,
  // updates the later top blocks side by side, each of them taking its
  // sources in ascending order from where it stopped (the sources in
  // subtrees first, before any top block is done), so every entry still
  // sees its sources in order. A round too small to share is left for the
  // target to take later (on its own turn at the latest).
  const int top = static_cast<int>(top_blocks_.size());
  shared_top_rounds_ = 0;
  if (top == 0) return true;
  grow(top_resume_, top);
  for (int k = 0; k < top; ++k) top_resume_[k] = source_start_[top_blocks_[k]];
  const auto catch_up = [&](int k, int last, Scratch& scratch) {
    top_resume_[k] = take_sources(top_blocks_[k], top_resume_[k], last, scratch);
  };
  parallel_for(loop, top,
               [&](int k, int worker) { catch_up(k, top_blocks_[0] - 1, scratch_.value[worker]); });
  for (int k = 0; k < top; ++k) {
    const int b = top_blocks_[k];
    catch_up(k, b, scratch_.value[0]);
    if (!factor_columns(b)) return false;
    if (top_round_work_[k] < kSharedRoundWork) continue;
    ++shared_top_rounds_;
    parallel_for(loop, top - k - 1, [&](int i, int worker) {
      catch_up(k + 1 + i, top_blocks_[k], scratch_.value[worker]);
    });
  }
  return true;
}

// Subtree tasks per thread.
constexpr int kTasksPerThread = 2;

// Subtrees of the elimination tree for kTasksPerThread tasks a thread: the
// heaviest subtree (by its blocks' block_work) is split at its root, which
// goes to the blocks factorised after, until none holds more than a quarter
// of a thread's share; the subtrees are then dealt, heaviest first, to the
// least loaded task.
void BlockCholesky::make_schedule(int threads) {
  schedule_threads_ = threads;
  if (static_cast<int>(scratch_.value.size()) < threads) scratch_.value.resize(threads);
  const size_t rows = scratch_.value[0].relative.size(),
               columns = scratch_.value[0].multipliers.size();
  for (Scratch& scratch : scratch_.value) {
    grow(scratch.relative, rows);
    grow(scratch.multipliers, columns);
    grow(scratch.multiplied, columns);
    grow(scratch.gathered, rows);
  }
  const auto parent = [&](int b) {
    return pattern_start_[b + 1] > pattern_start_[b] ? pattern_[pattern_start_[b]] : -1;
  };
  subtree_work_.assign(blocks_, 0.0);
  double total = 0;
  heap_.clear();
  for (int b = 0; b < blocks_; ++b) {
    subtree_work_[b] += block_work(b);
    if (parent(b) >= 0) {
      subtree_work_[parent(b)] += subtree_work_[b];
    } else {
      total += subtree_work_[b];
      heap_.push_back({subtree_work_[b], -b});  // ties: the lowest block first
    }
  }
  std::make_heap(heap_.begin(), heap_.end());
  const double limit = total / (4.0 * threads);
  top_blocks_.clear();
  while (!heap_.empty() && heap_.front().first > limit) {
    const int b = -heap_.front().second;
    if (first_child_[b] < 0) break;
    std::pop_heap(heap_.begin(), heap_.end());
    heap_.pop_back();
    top_blocks_.push_back(b);
    for (int child = first_child_[b]; child >= 0; child = next_sibling_[child]) {
      heap_.push_back({subtree_work_[child], -child});
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
  std::sort(top_blocks_.begin(), top_blocks_.end());
  // Each top block's updates of the blocks of its pattern (all above the
  // subtrees), as apply_update() counts them.
  top_round_work_.assign(top_blocks_.size(), 0.0);
  for (size_t k = 0; k < top_blocks_.size(); ++k) {
    const int b = top_blocks_[k];
    const double width = start_[b + 1] - start_[b];
    for (int e = pattern_start_[b]; e < pattern_start_[b + 1]; ++e) {
      const int t = pattern_[e];
      top_round_work_[k] += width * (start_[t + 1] - start_[t]) * (height_[b] - pattern_row_[e]);
    }
  }
  // Deal the subtrees, heaviest first (ties: the lowest block), to the
  // least loaded task.
  std::sort_heap(heap_.begin(), heap_.end());
  // More tasks than threads: a thread that joins late (busy elsewhere)
  // leaves less of the work waiting for it.
  const int tasks = kTasksPerThread * threads;
  task_load_.assign(tasks, 0.0);
  task_of_.assign(blocks_, -1);
  for (auto it = heap_.rbegin(); it != heap_.rend(); ++it) {
    const int task = static_cast<int>(std::min_element(task_load_.begin(), task_load_.end()) -
                                      task_load_.begin());
    task_load_[task] += it->first;
    task_of_[-it->second] = task;
  }
  // Every other block below the top belongs to its parent's task (parents
  // come after their children: walk down from the last).
  for (int b = blocks_ - 1; b >= 0; --b) {
    if (task_of_[b] < 0 && parent(b) >= 0 &&
        !std::binary_search(top_blocks_.begin(), top_blocks_.end(), parent(b))) {
      task_of_[b] = task_of_[parent(b)];
    }
  }
  sort_by_group(task_of_, blocks_, tasks, task_blocks_, task_start_, cursor_);
  // A block's panel rows in its own subtree come before those in the top
  // (its ancestors there come after its subtree's root).
  subtree_below_.assign(blocks_, 0);
  for (int b = 0; b < blocks_; ++b) {
    if (task_of_[b] < 0) continue;
    const int s = start_[b + 1] - start_[b];
    const int* rows = rows_.data() + row_start_[b] + s;
    int below = 0;
    while (below < height_[b] - s && task_of_[block_of_[rows[below]]] >= 0) ++below;
    subtree_below_[b] = below;
  }
}

// L y = x by columns, then L^T x = y backward. A panel's rows below its
// own block are gathered from x once per block and visited as one
// contiguous run by each column.
void BlockCholesky::solve(double* x, ParallelLoop* loop) const {
  if (loop && loop->threads() > 1 && schedule_threads_ == loop->threads()) {
    // Forward: the subtrees side by side, each by the one-thread sweep over
    // its own rows, then the blocks above them, each gathering its sources'
    // products; backward the other way round.
    const int tasks = static_cast<int>(task_start_.size()) - 1;
    parallel_for(loop, tasks, [&](int task, int worker) {
      for (int k = task_start_[task]; k < task_start_[task + 1]; ++k) {
        const int b = task_blocks_[k];
        forward_columns(b, x, scratch_.value[worker].gathered.data(), subtree_below_[b]);
      }
    });
    for (int b : top_blocks_) forward_block(b, x);
    for (auto b = top_blocks_.rbegin(); b != top_blocks_.rend(); ++b) {
      backward_block(*b, x, scratch_.value[0].gathered.data());
    }
    parallel_for(loop, tasks, [&](int task, int worker) {
      for (int k = task_start_[task + 1] - 1; k >= task_start_[task]; --k) {
        backward_block(task_blocks_[k], x, scratch_.value[worker].gathered.data());
      }
    });
    return;
  }
  double* below_x = gathered_.data();
  for (int b = 0; b < blocks_; ++b) {
    forward_columns(b, x, below_x, height_[b] - (start_[b + 1] - start_[b]));
  }
  for (int b = blocks_ - 1; b >= 0; --b) backward_block(b, x, below_x);
}

// Block b's own columns solved, each subtracting its products from the
// block's later rows and from the first `below` of the panel's rows under
// the block (gathered once into below_x, visited as one contiguous run).
void BlockCholesky::forward_columns(int b, double* x, double* below_x, int below) const {
  const int s = start_[b + 1] - start_[b], h = height_[b], own = start_[b];
  const double* panel = values_.data() + panel_[b];
  const int* rows = rows_.data() + row_start_[b] + s;
  for (int m = 0; m < below; ++m) below_x[m] = x[rows[m]];
  for (int c = 0; c < s; ++c) {
    const int j = own + c;
    const double xj = x[j] * inverse_diagonal_[j];
    x[j] = xj;
    if (xj == 0) continue;
    const double* column = panel + c * h;
    for (int r = c + 1; r < s; ++r) x[own + r] -= column[r] * xj;
    const double* __restrict lower = column + s;
    double* __restrict target = below_x;
    for (int m = 0; m < below; ++m) target[m] -= lower[m] * xj;
  }
  for (int m = 0; m < below; ++m) x[rows[m]] = below_x[m];
}

// Block t's rows take each source's columns (sources ascending, columns in
// order, zero values skipped), as the sweep above subtracts them, then its
// own columns are solved. On several threads the top blocks take them so
// (their subtree sources left their rows alone): each entry of x takes its
// products in the one-thread order.
void BlockCholesky::forward_block(int t, double* x) const {
  const int own = start_[t], ts = start_[t + 1] - own;
  for (int e = source_start_[t]; e < source_start_[t + 1]; ++e) {
    const int b = source_block_[e];
    const int sb = start_[b + 1] - start_[b], hb = height_[b];
    const double* panel = values_.data() + panel_[b] + pattern_row_[source_pattern_[e]];
    for (int c = 0; c < sb; ++c) {
      const double yc = x[start_[b] + c];
      if (yc == 0) continue;
      const double* column = panel + c * hb;
      for (int r = 0; r < ts; ++r) x[own + r] -= column[r] * yc;
    }
  }
  forward_columns(t, x, nullptr, 0);
}

void BlockCholesky::backward_block(int b, double* x, double* below_x) const {
  const int s = start_[b + 1] - start_[b], h = height_[b], own = start_[b], below = h - s;
  const double* panel = values_.data() + panel_[b];
  const int* rows = rows_.data() + row_start_[b] + s;
  for (int m = 0; m < below; ++m) below_x[m] = x[rows[m]];
  for (int c = s - 1; c >= 0; --c) {
    // The rows below the block first: they are known when the block
    // starts, so the sums of its columns over them run side by side, and
    // only the few terms of the block's own rows wait for the columns
    // solved before.
    const int j = own + c;
    const double* column = panel + c * h;
    const double* lower = column + s;
    double sum = x[j];
    for (int m = 0; m < below; ++m) sum -= lower[m] * below_x[m];
    for (int r = c + 1; r < s; ++r) sum -= column[r] * x[own + r];
    x[j] = sum * inverse_diagonal_[j];
  }
}

}  // namespace pliant
