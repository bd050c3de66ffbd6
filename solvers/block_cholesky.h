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

#include <vector>

#include "solvers/constraint_problem.h"

namespace pliant {

class TreeOrdering;

class BlockCholesky {
 public:
  // The pattern of H = M + J^T D J (every row of p) in the ordering's
  // factor order, and the storage for it (values set by clear_values()).
  void analyse(const ConstraintProblem& p, const TreeOrdering& order);

  int size() const { return n_; }
  void clear_values();
  // Entry (i, j) of the lower triangle, i >= j in factor order; (i, j) must
  // be in the pattern. Within a block directly; across blocks through the
  // panel row where block(i) starts, found by bisection over block(j)'s
  // pattern and remembered for the next entry of the same pair.
  double& at(int i, int j) {
    const int b = block_of_[j], bi = block_of_[i];
    int r;
    if (bi == b) {
      r = i - start_[b];
    } else {
      if (bi != cached_row_block_ || b != cached_column_block_) find_offset(bi, b);
      r = cached_offset_ + (i - start_[bi]);
    }
    return values_[panel_[b] + (j - start_[b]) * height_[b] + r];
  }

  // The entries (max(s_a, s_b), min(s_a, s_b)) for b <= a of the n factor
  // positions `slots` (each pair in the pattern), into entries as a packed
  // lower triangle: what at() returns, found with each slot's block once.
  void locate(const int* slots, int n, double** entries);

  // In place: the lower triangle of H becomes L. False when H is not
  // positive definite.
  bool factor();
  // L L^T +- v v^T for v in the pattern of one constraint row (zero on
  // return), zero before entry `first` (a bound the caller knows spares the
  // search for the first non-zero). False on loss of positive definiteness
  // (the factor is then invalid).
  bool rank_one(double* v, bool downdate, int first = 0);
  // x <- H^-1 x.
  void solve(double* x) const;

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
  // factor(): panel rows of one block mapped to rows of another; the
  // columns updating one target column and their multipliers (the widest
  // block's width).
  std::vector<int> relative_;
  std::vector<double> multipliers_;
  std::vector<const double*> multiplied_;
  // locate(): each slot's block, and where its column starts in values_.
  std::vector<int> slot_block_, slot_column_;
  // rank_one() and solve(): one panel's entries of a vector below its own
  // rows, gathered (the tallest panel's height).
  mutable std::vector<double> gathered_;
  // at(): panel row where block cached_row_block_ starts in the panel of
  // cached_column_block_; pattern_row_[k] is that row for pattern_[k].
  std::vector<int> pattern_row_;
  int cached_row_block_ = -1, cached_column_block_ = -1, cached_offset_ = 0;
  void find_offset(int row_block, int column_block);
};

}  // namespace pliant
