#include "solvers/newton_solver.h"

#include "solvers/primal_solver.h"

namespace pliant {

void solve_newton(const ConstraintProblem& problem, SolverWorkspace& workspace) {
  solve_primal(problem, workspace, PrimalMethod::kNewton);
}

}  // namespace pliant
