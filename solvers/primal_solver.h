#pragma once

// The iteration shared by Newton and PCG on the primal cost
// (solvers/constraint_problem.h):
//
//   a = start; Ma = M a; jar = J a - aref; states, forces, cost;
//   grad = Ma - qfrc_smooth - J^T f; Mgrad = P^-1 grad; s = -Mgrad
//   repeat: alpha = exact line search along s (stop if 0);
//           a += alpha s, Ma += alpha M s, jar += alpha J s;
//           states, forces, cost, grad, Mgrad (Newton: P = H updated,
//           PCG: P = M); stop when scale (cost decrease) < tolerance or
//           scale |grad| < tolerance; next direction (Newton -Mgrad,
//           PCG Polak-Ribiere).

#include "solvers/constraint_problem.h"

namespace pliant {

struct SolverWorkspace;

enum class PrimalMethod { kNewton, kConjugateGradient };

void solve_primal(const ConstraintProblem& problem, SolverWorkspace& workspace,
                  PrimalMethod method);

}  // namespace pliant
