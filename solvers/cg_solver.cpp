#include "solvers/cg_solver.h"

#include "solvers/primal_solver.h"
#include "solvers/workspace.h"

namespace pliant {

void solve_cg(const ConstraintProblem& problem, SolverWorkspace& workspace) {
  solve_primal(problem, workspace, PrimalMethod::kConjugateGradient);
}

}  // namespace pliant
