#pragma once

#include "engine/data.h"

namespace pliant {

// Tendon lengths (ten_length) and Jacobians (ten_J, ntendon x nv): fixed
// tendons as linear combinations of joint positions; spatial tendons as the
// length of their site path (pulleys divide the segments after them). Needs
// kinematics and com_positions.
void tendon_kinematics(const Model& model, Data& data);

}  // namespace pliant
