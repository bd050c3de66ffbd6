#pragma once

// The contact inspector: pick a contact (or a geom) and see what its solref
// and solimp mean - the impedance curve d(r) with the current violation
// marked, the stiffness and damping of the reference spring, the resting
// depth they predict under gravity - and edit them live.

#include "viewer/state.h"

namespace pliant::viewer {

// Resting penetration (m) of a body held by one contact under gravity g.
// At rest the row force m g balances the soft constraint, which gives
// r = g (1 - d) / (K d^2) with K the reference stiffness of solref:
//   r = g (1 - d) (timeconst dampratio)^2 (dmax / d)^2   positive solref
//       (timeconst raised to 2 timestep when refsafe),
//   r = g (1 - d) / stiffness (dmax / d)^2               direct (-stiffness, -damping),
// i.e. g (1-d) (tc dr)^2 and g (1-d) / stiffness where d reaches dmax. Solved
// for r with d = d(r) by bisection.
double predicted_resting_depth(const SolRef& solref, const SolImp& solimp, double gravity,
                               double timestep, bool refsafe);

void draw_contact_inspector(ViewerState& state);

}  // namespace pliant::viewer
