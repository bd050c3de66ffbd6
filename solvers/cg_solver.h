#pragma once

// Nonlinear conjugate gradient on the primal cost, preconditioned by M^-1:
// direction s = -M^-1 grad + beta s_old with the Polak-Ribiere
// beta = max(0, grad^T (Mgrad - Mgrad_old) / (grad_old^T Mgrad_old)) (restart
// when negative), steps by the exact line search of solvers/line_search.h.

#include "solvers/constraint_problem.h"

namespace pliant {

struct SolverWorkspace;

// Minimises the primal cost by PCG into workspace.result.
void solve_cg(const ConstraintProblem& problem, SolverWorkspace& workspace);

}  // namespace pliant
