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

// Model constants of the actuators, measured at qpos0: acc0 = |M^-1 moment^T|,
// the acceleration of a unit actuator force (muscles with force < 0 use the
// peak force scale / acc0). Sizes acc0 and length_range to nu, keeping a
// length_range the compiler filled. Called by compute_model_constants once
// the transmission can run; idempotent.
void compute_actuator_constants(Model& model);

}  // namespace pliant
