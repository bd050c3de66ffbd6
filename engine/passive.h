#pragma once

#include "engine/data.h"

namespace pliant {

// Passive forces into data.qfrc_passive: joint springs (hinge and slide;
// ball and free through the quaternion difference), joint damping, tendon
// spring-dampers, and the inertia-box fluid model when options.density or
// options.viscosity is set. Also ten_velocity = ten_J qvel. Needs the
// position stage and com_velocities. Zero when the passive flag is off.
void passive_forces(const Model& model, Data& data);

}  // namespace pliant
