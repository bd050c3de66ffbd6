
#pragma once

#include "engine/data.h"

namespace pliant {

// Actuator lengths and moment arms (actuator_length, actuator_moment, nu x nv)
// for joint, joint-in-parent, tendon, site and slider-crank transmissions,
// with gear. Needs kinematics, com_positions and tendon_kinematics.
void transmission(const Model& model, Data& data);

// actuator_velocity = moment qvel; ctrl clamping (clampctrl flag); act_dot
// from the activation dynamics (none, integrator, filter, muscle); actuator
// force = gain * (ctrl or act) + bias, clamped to forcerange; qfrc_actuator
// = moment^T force. Respects the actuation flag.
void actuation(const Model& model, Data& data);

// Model constants of the actuators, measured at qpos0: acc0 = |M^-1 moment^T|,
// the acceleration of a unit actuator force (muscles with force < 0 use the
// peak force scale / acc0). Sizes acc0 and length_range to nu, keeping a
// length_range the compiler filled. Called by compute_model_constants once
// the transmission can run; idempotent.
void compute_actuator_constants(Model& model);

}  // namespace pliant
