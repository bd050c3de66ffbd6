#pragma once

#include "pliant/model.h"

namespace pliant {

// Fills the model quantities that need dynamics, measured at qpos0
// (docs/physics.md §3): body_invweight0 (mean diagonal of the translational
// and rotational blocks of J M^-1 J^T at each body's centre of mass; 1/mass
// and 0 for a body that only translates, 0 for bodies welded to the world),
// dof_invweight0, tendon_invweight0, stat.meaninertia (mean diagonal of M),
// tendon and actuator lengths at qpos0 (and tendon spring lengths left
// unspecified), the actuator constants (compute_actuator_constants) and the
// model's parameter warnings.
void compute_model_constants(Model& model);

}  // namespace pliant
