#pragma once

// The soft-constraint parameters of one constraint, turned into what the rows
// need (docs/physics.md §2):
//   solimp -> impedance d(r) in (0, 1): how much of the constraint force is
//             applied, rising with the violation r;
//   solref -> stiffness K and damping B of the reference acceleration
//             aref = -B v - K d r, from (timeconst, dampratio) or, in the
//             direct form, (-stiffness, -damping);
//   R = (1 - d)/d * diagApprox regularises the row (softness).

#include "pliant/solver_params.h"

namespace pliant {

struct Impedance {
  double K = 0;   // stiffness of the reference spring, 1/s^2 (per unit d)
  double B = 0;   // damping of the reference, 1/s
  double d = 0;   // impedance at the current violation
  double dd = 0;  // derivative of d with respect to the violation r, 1/m
};

// Impedance d and its derivative d'(r) at violation r (r = pos - margin; the
// sign is ignored, only |r| matters). With x = |r| / width and y the sigmoid
//   y(x) = x^p / m^(p-1)               for x <= m
//        = 1 - (1-x)^p / (1-m)^(p-1)   for x > m      (y = x when p = 1),
// d = dmin + y (dmax - dmin), constant dmax beyond the width, and the average
// of dmin and dmax when the curve is flat. `solimp` must be sanitised.
struct ImpedanceValue {
  double d;
  double derivative;
};
ImpedanceValue impedance(const SolImp& solimp, double r);

// What MuJoCo accepts: dmin, dmax, midpoint clamped to [1e-4, 0.9999],
// width >= 0, power >= 1.
SolImp sanitize(const SolImp& solimp);

// solref with both entries of one sign; mixed signs fall back to (0.02, 1).
SolRef sanitize(const SolRef& solref);

// K and B from solref, with the refsafe rule timeconst >= 2 * timestep
// (positive form only). dmax scales them so that the impedance-weighted
// reference has the intended time constant.
struct SpringDamper {
  double K, B;
};
SpringDamper reference_spring(const SolRef& solref, double dmax, double timestep, bool refsafe);

}  // namespace pliant
