#pragma once

// Position integration on the configuration manifold, as MuJoCo's
// mj_integratePos.

#include "pliant/model.h"

namespace pliant {

// qpos <- qpos integrated over `h` seconds (s) at velocity `qvel` (nv
// values): slide and hinge coordinates add h v; ball and free-joint
// quaternions turn by the body-frame angular velocity and are normalised.
void integrate_position(const Model& model, double* qpos, const double* qvel, double h);

// qvel <- the velocity that moves qpos1 to qpos2 in `h` seconds (s), the
// inverse of integrate_position (MuJoCo's mj_differentiatePos): slide and
// hinge (q2 - q1) / h; ball and free rotations the body-frame rotation
// vector of q1^-1 q2 (the shorter way round), divided by h.
void differentiate_position(const Model& model, double* qvel, double h, const double* qpos1,
                            const double* qpos2);

}  // namespace pliant
