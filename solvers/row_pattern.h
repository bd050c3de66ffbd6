#pragma once

// The structure of a constraint problem's rows and trees, kept from one call
// to the next: a settled scene (a resting pile, a robot standing) repeats it
// step after step, and work that depends on it alone (the islands, the
// Hessian's tree ordering) can be kept instead of done again.

#include <vector>

#include "solvers/constraint_problem.h"

namespace pliant {

class RowPattern {
 public:
  // Whether `p` has the structure kept at an earlier call: its trees (M's
  // parents), its rows' sizes, addresses, columns and joins, its elliptic
  // cones. Never for the dense layout, whose structure also depends on
  // which Jacobian entries are zero, nor without joins_previous. When not,
  // the caller redoes its work for `p`, whose structure is kept for the
  // next call: at every call while calls repeat; after kept structures
  // failed to repeat, at calls further and further apart (up to 64), so
  // that a scene whose contacts change every step (a pile in motion)
  // seldom pays for the copy.
  bool repeats_or_keep(const ConstraintProblem& p);
  // Forgets the kept structure (the caller's work no longer matches it).
  void forget();

 private:
  bool same(const ConstraintProblem& p) const;
  void keep(const ConstraintProblem& p);

  bool valid_ = false;
  int skip_ = 0;  // calls left before the next copy
  int wait_ = 0;  // calls to skip after the next kept structure fails to repeat
  std::vector<int> parent_, row_nnz_, row_adr_, col_, cone_rows_;
  std::vector<unsigned char> joined_;
};

}  // namespace pliant
