#pragma once

// <compiler fusestatic="true">: bodies without joints (and not mocap) are
// fused into their parents, as MuJoCo 3.3.8 does. Their geoms, sites, cameras
// and lights move to the parent after the parent's own, in the parent's
// frame; their child bodies take their place among the parent's children;
// their mass counts in the parent (their <inertial>, or their geoms' mass
// when they took it from their geoms). The world keeps no mass. A fused body
// no longer exists: naming it elsewhere is a load error that says it was
// fused.

#include "model/spec.h"

namespace pliant {

// Fuses in place when spec.compiler.fusestatic is set; records the fused
// bodies' names in spec.fused_bodies.
void fuse_static_bodies(ModelSpec& spec);

}  // namespace pliant
