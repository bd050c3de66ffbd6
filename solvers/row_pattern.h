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
  // Whether `p` has the kept trees (M's parents), rows (sizes, addresses,
  // columns, joins) and elliptic cones. Never for the dense layout, whose
  // structure also depends on which Jacobian entries are zero, nor without
  // joins_previous.
  bool repeats(const ConstraintProblem& p) const;
  // Keeps p's structure (forgets it where repeats() could not hold).
  void keep(const ConstraintProblem& p);
  void forget() { valid_ = false; }

 private:
  bool valid_ = false;
  std::vector<int> parent_, row_nnz_, row_adr_, col_, cone_rows_;
  std::vector<unsigned char> joined_;
};

}  // namespace pliant
