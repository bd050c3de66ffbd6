#pragma once

// Projected Gauss-Seidel on the dual: minimise
// 0.5 f^T AR f + f^T b with AR = J M^-1 J^T + diag(R), b = J a0 - aref, over
// forces in each row's set (equality free, friction loss |f| <= fl, limits,
// frictionless contacts and pyramid edges f >= 0, elliptic contacts
// f0 >= |(f_j / friction[j-1])_j|). Rows are swept in order; an elliptic
// contact is one block solved exactly over its cone. Then
// a = a0 + M^-1 J^T f.

#include "solvers/constraint_problem.h"

namespace pliant {

struct SolverWorkspace;

// The dual's matrix into workspace.ar (nefc x nefc, row-major):
// J M^-1 J^T, plus diag(R) when `regularised`; and b = J a0 - aref into
// workspace.b.
void build_dual(const ConstraintProblem& problem, SolverWorkspace& workspace, bool regularised);

// From the dual's forces in workspace.result.force: qfrc_constraint = J^T f
// and qacc = a0 + M^-1 J^T f.
void finish_dual(const ConstraintProblem& problem, SolverWorkspace& workspace);

// Minimises the dual cost by PGS into workspace.result. Iterations stop
// when scale * (dual cost decrease) < tolerance.
void solve_pgs(const ConstraintProblem& problem, SolverWorkspace& workspace);

// The exact minimiser of 0.5 f^T A f + f^T g over the elliptic cone
// f0 >= |(f_j / friction[j-1])|, for one contact block of size dim
// (A: dim x dim row-major, positive definite). Writes f (dim).
void solve_cone_block(int dim, const double* friction, const double* a, const double* g, double* f);

}  // namespace pliant
