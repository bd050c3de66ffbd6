#pragma once

// Position integration on the configuration manifold, as MuJoCo's
// mj_integratePos.

#include "pliant/model.h"

namespace pliant {

// qpos <- qpos integrated over `h` seconds (s) at velocity `qvel` (nv
// values): slide and hinge coordinates add h v; ball and free-joint
// quaternions turn by the body-frame angular velocity and are normalised.
void integrate_position(const Model& model, double* qpos, const double* qvel, double h);

}  // namespace pliant
