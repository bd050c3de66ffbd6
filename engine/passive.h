#pragma once

#include "pliant/data.h"

namespace pliant {

// Passive forces into data.qfrc_passive: joint springs (hinge and slide;
// ball and free through the quaternion difference), joint damping, tendon
// spring-dampers, and the inertia-box fluid model when options.density or
// options.viscosity is set (the per-geom ellipsoid model, fluidshape, is not
// applied; the parser notes it). Also ten_velocity = ten_J qvel. Needs the
// position stage and com_velocities. Zero when the passive flag is off.
void passive_forces(const Model& model, Data& data);

// How far tendon t's length lies beyond its spring's dead band
// [length_spring low, high]: L - high above it, L - low below it, else 0.
inline double tendon_spring_stretch(const Model& model, const Data& data, int t) {
  const double length = data.ten_length[t];
  const Vector2d& rest = model.tendons.length_spring[t];
  return length > rest[1] ? length - rest[1] : length < rest[0] ? length - rest[0] : 0.0;
}

// qderiv += d(fluid forces)/d(qvel) (nv x nv, dense) at the current state:
// the exact derivative of the inertia-box model. Nothing when the passive
// flag is off or the medium has neither density nor viscosity.
void add_fluid_velocity_derivative(const Model& model, const Data& data, Eigen::MatrixXd& qderiv);

}  // namespace pliant
