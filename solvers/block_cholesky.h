#pragma once

// Cholesky factor H = L L^T of Newton's Hessian on large models, stored by
// blocks of whole kinematic trees (supernodes). The dofs are in the factor's
// order: each tree contiguous, trees in an elimination order (minimum degree,
// solvers/tree_ordering.h). Block column b holds a dense panel: the rows of
// its own tree, then the rows of every later tree its column of L reaches
// (the trees a constraint row couples to it, and the fill the elimination
// adds). The pattern is computed from every constraint row whatever its
// state, so rank-1 updates of rows changing state never leave it.
//
// Where the envelope factor (envelope_cholesky.h) costs n w^2 for a scene of
// width w, a pile of bodies factors here in the cost of its separators:
// for a settled 3-D pile of N bodies, about N^2 instead of N^(7/3).
//
// All memory is kept across calls: once sizes stop growing, no heap
// allocation.

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "solvers/constraint_problem.h"
#include "solvers/kept.h"
#include "solvers/parallel_loop.h"

namespace pliant {

class TreeOrdering;

class BlockCholesky {
 public:
  // The pattern of H = M + J^T D J (every row of p) in the ordering's
  // factor order, and the storage for it (values set by clear_values()).
  void analyse(const ConstraintProblem& p, const TreeOrdering& order);

  int size() const { return n_; }
  // Zeros every entry; on a loop of several threads, by slices side by side.
  void clear_values(ParallelLoop* loop = nullptr);

  // Where the panel row of one block starts in the panel of another, as
  // at() last found it.
  struct Offset {
    int row_block = -1, column_block = -1, row = 0;
  };
  // Entry (i, j) of the lower triangle, i >= j in factor order; (i, j) must
  // be in the pattern. Within a block directly; across blocks through the
  // panel row where block(i) starts, found by bisection over block(j)'s
  // pattern and remembered in `offset` for the next entry of the same pair
  // (threads side by side each keep their own).
  double& at(int i, int j, Offset& offset) {
    const int b = block_of_[j], bi = block_of_[i];
    int r;
    if (bi == b) {
      r = i - start_[b];
    } else {
      if (bi != offset.row_block || b != offset.column_block) find_offset(bi, b, offset);
      r = offset.row + (i - start_[bi]);
    }
    return values_[panel_[b] + (j - start_[b]) * height_[b] + r];
  }
  double& at(int i, int j) { return at(i, j, offset_); }

  // The entries (max(s_a, s_b), min(s_a, s_b)) for b <= a of the n factor
  // positions `slots` (each pair in the pattern), into entries as a packed
  // lower triangle: what at() returns, found with each slot's block once.
  void locate(const int* slots, int n, double** entries);

  // In place: the lower triangle of H becomes L. False when H is not
  // positive definite. On a loop of several threads, subtrees of the
  // elimination tree are factorised side by side, then the blocks above
  // them one by one, each sharing its updates of the later ones among the
  // threads: each entry takes the same operations in the same order as on
  // one thread, so the factor is the same to the bit.
  bool factor(ParallelLoop* loop = nullptr);
  // L L^T +- v v^T for v in the pattern of one constraint row (zero on
  // return), zero before entry `first` (a bound the caller knows spares the
  // search for the first non-zero). False on loss of positive definiteness
  // (the factor is then invalid).
  bool rank_one(double* v, bool downdate, int first = 0);

  // A batch of rank-1 updates, in order: update k's vector has the values
  // value[start[k] .. start[k + 1]) at the factor positions index[...].
  struct UpdateBatch {
    std::vector<int> start{0}, index;
    std::vector<double> value;
    std::vector<unsigned char> downdate;
    int count() const { return static_cast<int>(downdate.size()); }
    void clear() {
      start.resize(1);
      index.clear();
      value.clear();
      downdate.clear();
    }
  };
  // The batch's updates as a pipeline of `stages` stages: the blocks are
  // cut into as many ranges, ascending (an update's path climbs through
  // them in order), with equal shares of the batch's work; stage s walks
  // every update's path through its range, in order, and hands the vector
  // on to stage s + 1. Each block takes the updates in the batch's order,
  // with the same operations as rank_one() one by one: the same bits.
  // The batch must stay unchanged until the updates are taken.
  void begin_updates(const UpdateBatch& batch, int stages);
  // Takes stages whose next updates are ready until every stage has taken
  // every update. Threads side by side may each call it, in any order and
  // any number (one is enough): a thread holds one stage at a time, and
  // the lowest unfinished stage is always ready or held.
  void take_updates();
  // After take_updates() has returned on every thread that called it:
  // false when an update lost positive definiteness (the factor is then
  // invalid).
  bool updates_ok() const { return !pipeline_.value.failed.load(std::memory_order_relaxed); }
  // x <- H^-1 x. On a loop of several threads (after a factor() on as
  // many), the elimination tree's subtrees are solved side by side, with the
  // same operations on every entry in the same order: the same x to the bit.
  void solve(double* x, ParallelLoop* loop = nullptr) const;

  // Blocks the last factor() on several threads gave to its side-by-side
  // tasks (the rest ran after them, on one thread).
  int side_by_side_blocks() const { return static_cast<int>(task_blocks_.size()); }
  // Blocks above the subtrees whose updates of the later ones the last
  // factor() on several threads shared among them.
  int shared_top_rounds() const { return shared_top_rounds_; }

  // Multiply-adds of one factor(), and a bound for one rank_one() of a
  // vector whose first non-zero is at `first` (its elimination-tree path).
  double factor_work() const { return factor_work_; }
  double update_work(int first) const { return path_work_[block_of_[first]]; }

 private:
  int n_ = 0, blocks_ = 0;
  double factor_work_ = 0;
  // Block b: factor positions [start_[b], start_[b + 1]); its panel has
  // height_[b] rows, listed at rows_[row_start_[b] ...] (ascending, its own
  // first), and is stored column-major at values_[panel_[b] ...].
  std::vector<int> start_, block_of_, height_, row_start_, rows_, panel_;
  std::vector<double> values_, inverse_diagonal_;
  std::vector<double> path_work_;  // entries of a block's panel and its ancestors'
  // Symbolic analysis: each block's later neighbours, its pattern blocks,
  // the elimination tree (children lists) and a marker.
  std::vector<int> neighbour_start_, neighbours_, pattern_start_, pattern_, first_child_,
      next_sibling_, mark_, cursor_, row_trees_;
  // factor(), per thread: panel rows of one block mapped to rows of
  // another; the columns updating one target column and their multipliers
  // (the widest block's width).
  struct Scratch {
    std::vector<int> relative;
    std::vector<double> multipliers;
    std::vector<const double*> multiplied;
    std::vector<double> gathered;  // solve(): one panel's x below its own rows
  };
  // Kept through a Data's reset (its contents are rewritten before use).
  mutable Kept<std::vector<Scratch>> scratch_;
  // The blocks updating each block (those whose pattern holds it), in
  // ascending order, with the index in their pattern where it is found.
  std::vector<int> source_start_, source_block_, source_pattern_;
  // The parallel factor's schedule for schedule_threads_ threads (0: none
  // since the last analyse): per task, the blocks of its subtrees in
  // ascending order; then the blocks above every subtree (the top), in
  // order, right-looking.
  int schedule_threads_ = 0;
  std::vector<int> task_start_, task_blocks_, top_blocks_;
  std::vector<double> subtree_work_, task_load_;
  std::vector<int> task_of_;  // a block's task, -1 for the top
  // Per block of a subtree task: its panel rows under its own that lie in
  // the subtree (the rest, in the top, gather from it in forward_block).
  std::vector<int> subtree_below_;
  std::vector<std::pair<double, int>> heap_;  // (subtree work, -root)
  std::vector<unsigned char> task_ok_;        // no pivot failed in the task
  // A top block's next source to take, and its updates of later top blocks
  // (multiply-adds).
  std::vector<int> top_resume_;
  std::vector<double> top_round_work_;
  int shared_top_rounds_ = 0;
  void make_schedule(int threads);
  double block_work(int b) const;
  // solve()'s steps for one block: the forward step gathering its sources'
  // products (as the one-thread sweep scatters them; the top blocks on
  // several threads), and the backward step.
  void forward_block(int b, double* x) const;
  // The one-thread sweep's step for block b, subtracting from the first
  // `below` panel rows under the block only.
  void forward_columns(int b, double* x, double* below_x, int below) const;
  void backward_block(int b, double* x, double* below_x) const;
  // Block b's panel takes its sources' updates from source index `from`
  // on, in order, while the source block is at most `last`; returns the
  // index of the first source not taken.
  int take_sources(int b, int from, int last, Scratch& scratch);
  // Block b's own columns are factorised in place (every source taken);
  // false when a pivot is not positive.
  bool factor_columns(int b);
  // Both: every source's update, then the own columns.
  bool factor_block(int b, Scratch& scratch);
  void apply_update(int source, int pattern_index, Scratch& scratch);
  // locate()'s scratch: per slot, its block's index in locate_blocks_, its
  // row within the block, its column's start; the blocks' pairwise row
  // offsets.
  std::vector<int> slot_unique_, slot_row_, slot_column_;
  std::vector<int> locate_blocks_, locate_pair_row_;
  // rank_one(): one panel's entries of a vector, its own rows and those
  // below; solve(): those below its own rows; gathered (the tallest panel's
  // height).
  mutable std::vector<double> gathered_;
  // pattern_row_[k]: the panel row where block pattern_[k] starts in the
  // panel of the block whose pattern holds it.
  std::vector<int> pattern_row_;
  Offset offset_;  // at()'s on one thread
  void find_offset(int row_block, int column_block, Offset& offset) const;

  // rank_one()'s walk of v's path from row j through the blocks before
  // end_block, with panel_v for one panel's entries; returns the last
  // block walked (-1: none). On a loss of positive definiteness, ok turns
  // false and the rest of the walk clears v.
  int walk_path(double* v, double sign, int j, int end_block, double* panel_v, bool& ok);
  // The update pipeline: one stage's blocks, its vector and panel scratch
  // (zero between updates), the updates it has finished, whether a thread
  // holds it, and what it hands to the next stage (update k's entries
  // from out_start[k], ascending positions).
  struct UpdateStage {
    alignas(64) std::atomic<int> done{0};
    std::atomic<bool> held{false};
    int end_block = 0;
    std::vector<double> v, panel_v, out_value;
    std::vector<int> out_start, out_index;
  };
  struct Pipeline {
    std::vector<std::unique_ptr<UpdateStage>> stages;
    int count = 0;  // stages in use
    const UpdateBatch* batch = nullptr;
    std::atomic<bool> failed{false};
  };
  Kept<Pipeline> pipeline_;
  std::vector<double> path_visits_;  // begin_updates(): updates through each block
  // Stage s takes its ready updates; false when none was ready.
  bool take_stage(int s);
};

}  // namespace pliant
