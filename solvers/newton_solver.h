#pragma once

// Newton's method on the primal cost (solvers/constraint_problem.h): the
// direction is -H^-1 grad with Newton's Hessian (solvers/newton_hessian.h),
// steps by the exact line search of solvers/line_search.h. The iteration is
// the primal solver's (solvers/primal_solver.h), shared with CG.

#include "solvers/constraint_problem.h"

namespace pliant {

struct SolverWorkspace;

// Minimises the primal cost by Newton's method into workspace.result.
void solve_newton(const ConstraintProblem& problem, SolverWorkspace& workspace);

}  // namespace pliant
