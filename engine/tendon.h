#pragma once

#include "pliant/data.h"

namespace pliant {

// Tendon lengths (ten_length) and Jacobians (ten_J, ntendon x nv): fixed
// tendons as linear combinations of joint positions; spatial tendons as the
// length of their site path, wrapping around sphere and cylinder geoms
// (optionally steered by a side site) and divided by pulleys after them.
// Needs kinematics and com_positions. Matches MuJoCo 2.2.2 to round-off,
// except where its side-site test is decided by round-off (a side site
// exactly perpendicular, about the geom centre, to a path end).
void tendon_kinematics(const Model& model, Data& data);

}  // namespace pliant
