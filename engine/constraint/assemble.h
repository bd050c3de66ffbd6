#pragma once

#include "pliant/data.h"

namespace pliant {

// Builds every constraint row for the current positions into data.efc
// (docs/physics.md §1): equality (connect 3, weld 6, joint and tendon
// coupling 1), friction loss (dofs, then tendons), limits (hinge and slide
// lower and upper, ball, tendon), contacts (frictionless, pyramidal
// 2(dim-1) edges, elliptic dim rows); then diagApprox, impedance and R with
// the cone adjustments (§2 and §3). Honours the disable flags and
// inactive equalities. Needs the position stage and collide().
void assemble_constraints(const Model& model, Data& data);

// efc vel = J qvel and aref = -B vel - K d (pos - margin). Needs the velocity
// stage (qvel).
void constraint_reference(const Model& model, Data& data);

// Whether rows use the sparse layout: options.jacobian, where auto means
// sparse from nv >= 8.
bool use_sparse_jacobian(const Model& model);

}  // namespace pliant
