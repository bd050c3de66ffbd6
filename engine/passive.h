#pragma once

#include "engine/data.h"

namespace pliant {

// Passive forces into data.qfrc_passive: joint springs (hinge and slide;
// ball and free through the quaternion difference), joint damping, tendon
// spring-dampers, and the inertia-box fluid model when options.density or
// options.viscosity is set (the per-geom ellipsoid model, fluidshape, is not
// supported; the parser rejects it). Also ten_velocity = ten_J qvel. Needs the
// position stage and com_velocities. Zero when the passive flag is off.
void passive_forces(const Model& model, Data& data);

// qderiv += d(fluid forces)/d(qvel) (nv x nv, dense) at the current state:
// the exact derivative of the inertia-box model. Nothing when the passive
// flag is off or the medium has neither density nor viscosity.
void add_fluid_velocity_derivative(const Model& model, const Data& data, Eigen::MatrixXd& qderiv);

}  // namespace pliant
