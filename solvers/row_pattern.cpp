#include "solvers/row_pattern.h"

#include <algorithm>
#include <cstring>

namespace pliant {
namespace {

// Whether `kept` holds a copy of values[0, n).
template <class T>
bool same_values(const std::vector<T>& kept, const T* values, int n) {
  return static_cast<int>(kept.size()) == n &&
         (n == 0 || std::memcmp(kept.data(), values, sizeof(T) * n) == 0);
}

bool keepable(const ConstraintProblem& p) { return !p.dense_hessian && p.joins_previous; }

// The extent of the rows' entries in col: past the last one.
int entries_end(const ConstraintProblem& p) {
  int end = 0;
  for (int i = 0; i < p.nefc; ++i) end = std::max(end, p.row_adr[i] + p.row_nnz[i]);
  return end;
}

// The longest wait between copies, in calls.
constexpr int kLongestWait = 63;

}  // namespace

bool RowPattern::repeats_or_keep(const ConstraintProblem& p) {
  if (valid_) {
    if (same(p)) {
      wait_ = 0;
      return true;
    }
    valid_ = false;
    skip_ = wait_;
    wait_ = std::min(kLongestWait, 2 * wait_ + 1);
  }
  if (skip_ > 0) {
    --skip_;
  } else {
    keep(p);
  }
  return false;
}

void RowPattern::forget() {
  valid_ = false;
  skip_ = 0;
}

bool RowPattern::same(const ConstraintProblem& p) const {
  if (!keepable(p)) return false;
  // The columns are compared once the sizes and addresses are the kept
  // ones, so that the kept columns span the rows' entries.
  if (!same_values(row_nnz_, p.row_nnz, p.nefc) || !same_values(row_adr_, p.row_adr, p.nefc) ||
      !same_values(joined_, p.joins_previous, p.nefc) ||
      !same_values(parent_, p.mass_tree.parent, p.nv) ||
      !same_values(col_, p.col, static_cast<int>(col_.size()))) {
    return false;
  }
  if (static_cast<int>(cone_rows_.size()) != 2 * p.ncone) return false;
  for (int c = 0; c < p.ncone; ++c) {
    if (cone_rows_[2 * c] != p.cones[c].first_row || cone_rows_[2 * c + 1] != p.cones[c].dim) {
      return false;
    }
  }
  return true;
}

void RowPattern::keep(const ConstraintProblem& p) {
  valid_ = keepable(p);
  if (!valid_) return;
  parent_.assign(p.mass_tree.parent, p.mass_tree.parent + p.nv);
  row_nnz_.assign(p.row_nnz, p.row_nnz + p.nefc);
  row_adr_.assign(p.row_adr, p.row_adr + p.nefc);
  joined_.assign(p.joins_previous, p.joins_previous + p.nefc);
  col_.assign(p.col, p.col + entries_end(p));
  cone_rows_.clear();
  for (int c = 0; c < p.ncone; ++c) {
    cone_rows_.push_back(p.cones[c].first_row);
    cone_rows_.push_back(p.cones[c].dim);
  }
}

}  // namespace pliant
