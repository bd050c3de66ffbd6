#pragma once

#include "model/model.h"

namespace pliant {

// Fills the model quantities that need dynamics, measured at qpos0
// (reference section 3): body_invweight0 (mean diagonal of the translational
// and rotational blocks of J M^-1 J^T at each body's centre of mass),
// dof_invweight0, tendon_invweight0, stat.meaninertia (mean diagonal of M),
// tendon and actuator lengths at qpos0 (and tendon spring lengths left
// unspecified), and the view statistics (center, extent) when not given.
void compute_model_constants(Model& model);

}  // namespace pliant
