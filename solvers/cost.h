#pragma once

// The soft-constraint cost of every row type, its force (minus its gradient)
// and its state, as functions of jar = J a - aref.
//
//   equality            always quadratic: 0.5 D jar^2, f = -D jar
//   friction loss       Huber: jar <= -R fl: f = +fl, cost -0.5 R fl^2 - fl jar;
//                       jar >= R fl: f = -fl, cost -0.5 R fl^2 + fl jar;
//                       else quadratic
//   limit, frictionless contact, pyramid edge
//                       jar >= 0 satisfied (f = 0, no cost), else quadratic
//   elliptic cone       with U0 = mu jar0, Uj = friction[j-1] jar_j,
//                       N = U0, T = |U_1:|: top zone (N >= mu T) satisfied,
//                       bottom zone (mu N + T <= 0) all rows quadratic,
//                       middle zone cost 0.5 Dm (N - mu T)^2 with
//                       Dm = D0 / (mu^2 (1 + mu^2)).

#include "solvers/constraint_problem.h"

namespace pliant {

enum class RowState : int {
  kSatisfied = 0,
  kQuadratic = 1,
  kLinearNeg = 2,
  kLinearPos = 3,
  kCone = 4,  // elliptic middle zone (every row of the cone)
};

// Largest cone dimension; each cone's Hessian takes kMaxConeDim^2 slots.
constexpr int kMaxConeDim = 6;

// Classifies every row at `jar`, writes its state and force, and returns the
// constraint cost (without the Gauss term). With `cone_hessian` (ncone x 36
// doubles), also writes the dim x dim Hessian (row-major) of the cost of
// each cone in its middle zone with respect to that cone's jar.
double evaluate_constraints(const ConstraintProblem& p, const double* jar, RowState* state,
                            double* force, double* cone_hessian);

// Cost, force and Hessian of one elliptic cone at its jar (dim entries),
// with the rows' D (dim entries): returns the cost; writes force (dim), the
// state of its rows (dim) and, if non-null, the Hessian (dim x dim,
// row-major) of the middle zone (untouched in the other zones).
double elliptic_cone_cost(const ConeGroup& cone, const double* d, const double* jar, double* force,
                          RowState* state, double* hessian);

// Cost of one non-elliptic row at jar; writes its force and state.
double row_cost(RowType type, double jar, double r, double d, double frictionloss, double* force,
                RowState* state);

// Gauss term 0.5 (a - a0)^T M (a - a0), from Ma = M a:
// 0.5 (Ma - qfrc_smooth)^T (a - a0).
double gauss_cost(const ConstraintProblem& p, const double* qacc, const double* ma);

// Total cost at `qacc` (Gauss plus constraints), using the scratch arrays
// jar (nefc), ma (nv), state and force (nefc).
double total_cost(const ConstraintProblem& p, const double* qacc, double* jar, double* ma,
                  RowState* state, double* force);

}  // namespace pliant
