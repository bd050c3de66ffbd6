#pragma once

#include "model/spec.h"
#include "pliant/model.h"

namespace pliant {

// Turns a parsed ModelSpec into the immutable Model: dense ids in depth-first
// order, frames (fromto, mesh offsets), mass and inertia from geoms or
// <inertial>, dof layout, qpos0, cross references by name. Throws LoadError
// on anything inconsistent; never returns a half-built Model.
Model compile_model(const ModelSpec& spec);

}  // namespace pliant
