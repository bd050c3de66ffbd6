#pragma once

// What the constraint solvers report and the row kinds they solve: the part
// of the solvers' interface that Data exposes (public API).

#include <vector>

namespace pliant {

// Row kinds, with the integer codes of MuJoCo's mjtConstraint.
enum class RowType : int {
  kEquality = 0,
  kFrictionDof = 1,
  kFrictionTendon = 2,
  kLimitJoint = 3,
  kLimitTendon = 4,
  kContactFrictionless = 5,
  kContactPyramidal = 6,
  kContactElliptic = 7,
};

// What one solver iteration did.
struct IterationStatistics {
  double improvement = 0;  // scale * (cost decrease)
  double gradient = 0;     // scale * |gradient| (primal); 0 for PGS
  int line_search_evaluations = 0;
  int active = 0;         // rows not satisfied after the iteration
  int state_changes = 0;  // rows whose state changed in the iteration
};

struct SolverStatistics {
  int iterations = 0;
  bool converged = false;  // stopped by tolerance (or no descent left), not by the limit
  double final_improvement = 0;
  double final_gradient = 0;
  double cost = 0;                                 // final total cost
  std::vector<IterationStatistics> per_iteration;  // capacity kept across steps
};

}  // namespace pliant
