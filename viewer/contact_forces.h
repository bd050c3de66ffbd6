#pragma once

// Contact forces read back from the constraint solver's row forces.

#include "pliant/data.h"

namespace pliant::viewer {

// The force of contact `c` in its contact frame: (normal, tangent 1,
// tangent 2, torsion, rolling 1, rolling 2), in N and N m, the force geom1
// exerts on geom2. Pyramidal rows are converted as MuJoCo's mj_contactForce
// does: normal = sum of all edge forces, tangent j = (f[2j] - f[2j+1]) mu_j.
// Returns false (and zeros) when the contact has no rows or the solver has
// not produced forces for them.
bool contact_force(const Data& data, int c, Vector6d& force);

// Constraint violation of contact `c` as its rows see it: r = dist -
// includemargin (negative when the contact is active).
double contact_violation(const Contact& contact);

}  // namespace pliant::viewer
