#pragma once

#include "pliant/model.h"

namespace pliant {

// Actuator length ranges found by simulation, as MuJoCo 3.3.8's compiler
// finds them (model.lengthrange says which actuators and how; by default
// every muscle that has no range of its own). For each actuator, twice,
// from qpos0 at rest: with gravity, contacts, friction loss, springs,
// dampers and actuation off (limits and equalities on), a force along the
// actuator's moment, scaled so that it alone would accelerate the joints by
// `accel`, pulls the actuator shorter, then longer, while the velocity
// decays with `timeconst`; the shortest length in the last `interval` of
// the first run and the longest in the second are the range. Throws
// LoadError when the range is empty or either run still moves by more
// than `tolrange` of it in that window. Call once the other actuator
// constants and the joints' springdamper values are set.
void compute_length_ranges(Model& model);

}  // namespace pliant
