#pragma once

#include "pliant/data.h"

namespace pliant {

// Passive forces into data.qfrc_passive: joint springs (hinge and slide;
// ball and free through the quaternion difference), joint damping, tendon
// spring-dampers, gravity compensation and fluid forces (engine/fluid.h,
// also kept in data.qfrc_fluid). Also ten_velocity = ten_J qvel. Needs the
// position stage and com_velocities. Zero when the passive flag is off.
void passive_forces(const Model& model, Data& data);

// How far tendon t's length lies beyond its spring's dead band
// [length_spring low, high]: L - high above it, L - low below it, else 0.
inline double tendon_spring_stretch(const Model& model, const Data& data, int t) {
  const double length = data.ten_length[t];
  const Vector2d& rest = model.tendons.length_spring[t];
  return length > rest[1] ? length - rest[1] : length < rest[0] ? length - rest[0] : 0.0;
}

}  // namespace pliant
