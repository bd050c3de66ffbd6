#pragma once

// Stepping and resetting a simulation.
//
//   pliant::Data data(model);
//   for (int i = 0; i < 1000; ++i) pliant::step(model, data);

#include "pliant/data.h"

namespace pliant {

// One time step with the model's integrator (Euler with implicit joint
// damping, RK4, implicit, implicitfast): checks the state (a NaN, Inf or
// huge value resets it, with a warning in data.warnings), runs forward()
// (pliant/forward.h) and integrates.
void step(const Model& model, Data& data);

// State back to qpos0, zero velocities, controls and forces, time 0. The
// arrays keep their memory, so views of them stay valid; data.threads
// stays as it was.
void reset_data(const Model& model, Data& data);
// State from keyframe `key` (throws std::out_of_range for a bad index).
void reset_to_keyframe(const Model& model, Data& data, int key);

}  // namespace pliant
