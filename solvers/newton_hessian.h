#pragma once

// Newton's Hessian H = M + J^T diag(D over quadratic rows) J plus each
// elliptic cone's Hessian in its middle zone, factorised by Cholesky and
// kept current by rank-1 updates and downdates as rows change state
// (refactorised when a downdate loses rank or a cone changes).

#include "solvers/constraint_problem.h"

namespace pliant {

struct SolverWorkspace;

// Newton's Hessian at the rows' states in workspace.state: build_hessian
// chooses the factor (dense, envelope in tree order, or blocks in
// minimum-degree order), assembles H and factorises it; update_hessian
// follows the changes from workspace.old_state by rank-1 updates (or
// refactorises); solve_hessian applies H^-1 to x (nv entries) in place.
void build_hessian(const ConstraintProblem& problem, SolverWorkspace& workspace);
void update_hessian(const ConstraintProblem& problem, SolverWorkspace& workspace);
void solve_hessian(const ConstraintProblem& problem, SolverWorkspace& workspace, double* x);

// update_hessian in its parts, for a caller that runs the rank-1 updates
// beside other work: what the states' changes call for (the changed rows
// listed in the workspace), the rank-1 updates and downdates (false on
// loss of rank: the factor is then invalid and must be rebuilt), and the
// rebuild.
enum class HessianChange { kNone, kRankOne, kRebuild };
HessianChange plan_hessian_update(const ConstraintProblem& problem, SolverWorkspace& workspace);
bool rank_one_updates(const ConstraintProblem& problem, SolverWorkspace& workspace);
// rank_one_updates on the problem's loop, with beside(context), work of
// the caller's, as one more task of the same loop. A block factor's
// updates run as a pipeline, a stage a thread (BlockCholesky::
// take_updates): the same bits as one by one.
bool rank_one_updates_beside(const ConstraintProblem& problem, SolverWorkspace& workspace,
                             void (*beside)(void* context), void* context);
void rebuild_hessian(const ConstraintProblem& problem, SolverWorkspace& workspace);

}  // namespace pliant
