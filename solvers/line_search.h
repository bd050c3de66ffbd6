#pragma once

// The exact line search shared by the primal solvers. Along a + alpha s the
// total cost is a convex piecewise quadratic in alpha (with smooth
// non-quadratic pieces for elliptic cones in their middle zone); it is
// minimised as MuJoCo 3.3.8 does: one Newton step from 0 always tried, then
// Newton steps on the 1-D function the way of descent, bracketing the
// minimum once the derivative changes sign, until |derivative| < gtol with
// gtol = tolerance * ls_tolerance * |s| / scale, or ls_iterations
// evaluations (MuJoCo's option defaults: 0.01 and 50).

#include "solvers/constraint_problem.h"

namespace pliant {

// The 1-D problem at the current point a along direction s.
struct LineSearchInput {
  const ConstraintProblem* problem = nullptr;
  const double* jar = nullptr;  // J a - aref, nefc
  const double* jv = nullptr;   // J s, nefc
  // Gauss term along the line: gauss[0] + gauss[1] alpha + gauss[2] alpha^2 with
  // gauss[0] = 0.5 (Ma - qfrc_smooth)^T (a - a0), gauss[1] = s^T (Ma - qfrc_smooth),
  // gauss[2] = 0.5 s^T M s.
  double gauss[3] = {0, 0, 0};
  double search_norm = 0;  // |s|
  // Scratch, nefc: the rows whose piece can still change within the
  // search's window. Without it every evaluation visits every row.
  int* live = nullptr;
};

// The 1-D function at one alpha: cost and its first and second derivative
// (a non-positive second, from round-off, replaced by 1e-15 as MuJoCo does;
// a tiny positive one is kept, so a short search direction still gets its
// full Newton step).
struct LinePoint {
  double alpha = 0;
  double cost = 0;
  double d1 = 0;
  double d2 = 0;
};

struct LineSearchResult {
  double alpha = 0;  // 0: no step lowers the cost; negative along a climbing s
  double cost = 0;   // total cost at alpha
  int evaluations = 0;
};

// Evaluates the 1-D function at alpha.
LinePoint evaluate_line(const LineSearchInput& input, double alpha);

// Minimises along the line.
LineSearchResult exact_line_search(const LineSearchInput& input);

}  // namespace pliant
