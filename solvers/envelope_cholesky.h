#pragma once

// The envelope Cholesky factor of Newton's Hessian (solvers/newton_hessian.h).

#include <vector>

namespace pliant {

// Cholesky factor H = L L^T of a symmetric positive-definite matrix stored
// by its envelope: row i holds columns first[i] .. i contiguously. The
// envelope is closed under factorisation and under rank-1 updates whose
// vector lies in it, so no fill leaves it. A dense matrix is the envelope
// with first[i] = 0.
//
// An envelope filling most of the lower triangle (a single floating tree,
// the dense layout) is stored as a dense column-major square instead: the
// factor is right-looking and updates walk contiguous columns, loops the
// compiler vectorises, where the row envelope needs an index per entry.
// Both layouts do the same operations in the same order on the envelope's
// entries (the dense layout's extra entries stay exactly zero), so they give
// bit-identical factors and solutions.
class EnvelopeCholesky {
 public:
  // Starts a pattern of size n with only the diagonal.
  void begin_pattern(int n);
  // Makes (row, column) part of the envelope (column <= row).
  void widen(int row, int column) {
    if (column < first_[row]) first_[row] = column;
  }
  // Makes every entry of the lower triangle part of the envelope.
  void make_dense();
  // Lays out the storage and the per-column row lists; nothing to do when the
  // pattern is the one laid out last. The values are then unset: call
  // clear_values() before setting entries.
  void finish_pattern();
  // factor_work() of the pattern so far, before finish_pattern().
  double pattern_factor_work() const;

  int size() const { return n_; }
  int first(int row) const { return first_[row]; }
  void clear_values();
  // Entry (i, j), first[i] <= j <= i.
  double& at(int i, int j) { return values_[row_base_[i] + column_base_[j]]; }
  double at(int i, int j) const { return values_[row_base_[i] + column_base_[j]]; }

  // In place: the lower triangle of H becomes L. False when H is not
  // positive definite.
  bool factor();
  // L L^T +- v v^T. `v` has n entries (zero outside the envelope of its
  // first non-zero, and before entry `first`) and is zero on return. False
  // on loss of positive definiteness (the factor is then invalid).
  bool rank_one(double* v, bool downdate, int first = 0);
  // x <- H^-1 x.
  void solve(double* x) const;

  // Work estimates (multiply-adds) for choosing between rank-1 updates and
  // refactoring: one factor() and one rank_one() of a vector starting at
  // column 0 (an upper bound; later starts cost less).
  double factor_work() const { return factor_work_; }
  double update_work() const { return update_work_; }

 private:
  // The dense square's factor and solve; N > 0 is the size known to the
  // compiler (one free body's 6 columns: every loop unrolls), 0 any size.
  template <int N>
  bool factor_dense();
  bool rank_one_dense(double* v, bool downdate, int first);
  template <int N>
  void solve_dense(double* x) const;

  int n_ = 0;
  bool dense_ = false;
  double factor_work_ = 0, update_work_ = 0;
  std::vector<int> first_, adr_;
  // Entry (i, j) is values_[row_base_[i] + column_base_[j]]: adr_[i] -
  // first_[i] and j in the envelope, i and j n in the dense square.
  std::vector<int> row_base_, column_base_;
  // The pattern finish_pattern() last laid out (unchanged: nothing to redo).
  std::vector<int> laid_out_first_;
  std::vector<double> values_;
  std::vector<double> inverse_diagonal_;  // 1 / L(i, i)
  // Column j's entries below the diagonal: rows column_row_[column_start_[j] ...]
  // at value slots column_slot_[...].
  std::vector<int> column_start_, column_row_, column_slot_, cursor_;
};

}  // namespace pliant
