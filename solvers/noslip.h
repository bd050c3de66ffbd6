#pragma once

// Noslip post-processing (MuJoCo's `noslip_iterations`): after the main
// solver, Gauss-Seidel sweeps over the friction forces alone, with the
// regulariser R left out, so that the soft model's creep at friction-loss
// joints and at sticking contacts goes away. Normal forces stay as the main
// solver left them and bound the friction:
// - friction-loss rows: f in [-frictionloss, frictionloss], one row at a time;
// - pyramidal contacts: each pair of opposite edges keeps its sum (its share
//   of the normal force) and moves the difference, both edges >= 0;
// - elliptic contacts: the friction components minimise the block's cost
//   inside the ellipse sum (f_j / friction_j)^2 <= f_normal^2.
// Each sweep's decrease of the R-free dual cost 0.5 f^T A f + f^T b (the
// first sweep also counting the regulariser's share it drops), times the
// problem's scale, is the improvement; sweeps stop below `tolerance` or after
// `iterations`. Then a = a0 + M^-1 J^T f.

#include "solvers/constraint_problem.h"

namespace pliant {

struct SolverWorkspace;

// Post-processes workspace.result (force, qfrc_constraint, qacc) as above and
// appends its sweeps to result.statistics (iterations and per_iteration).
void apply_noslip(const ConstraintProblem& problem, SolverWorkspace& workspace, int iterations,
                  double tolerance);

// The minimiser of 0.5 x^T A x + x^T b subject to sum (x_j / d_j)^2 <= r^2
// for n <= 5 (A: n x n row-major): Newton's method on the multiplier of the
// constraint (at most 20 steps, stopping when the constraint is met within
// 1e-10 or the step is below 1e-10). Returns whether the constraint is
// active; writes zero when A plus the multiplier is not positive definite.
bool solve_ellipse_qp(int n, const double* a, const double* b, const double* d, double r,
                      double* x);

}  // namespace pliant
