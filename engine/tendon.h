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

// Tendon armature (MuJoCo 3.3.8's): qM += armature J^T J for each tendon,
// within M's sparsity (a tendon across two kinematic trees couples them
// not at all, as in 3.3.8). After composite_inertia.
void add_tendon_armature(const Model& model, Data& data);

// Its velocity-product force: qfrc_bias += armature J^T ((d/dt J) qvel) for
// each spatial tendon (a fixed tendon's J is constant). After the bias
// forces' RNE.
void add_tendon_armature_bias(const Model& model, Data& data);

}  // namespace pliant
