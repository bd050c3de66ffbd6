#pragma once

// The step, as a short list of named stages (docs/physics.md §6):
//   position      kinematics, com_positions, tendons, composite inertia,
//                 factor M, collision, constraint rows, transmission
//   velocity      com_velocities, passive forces, constraint reference
//                 (efc vel, aref), bias forces (RNE)
//   actuation     ctrl clamp, activation dynamics, actuator forces
//   acceleration  qfrc_smooth, qacc_smooth = M^-1 qfrc_smooth
//   constraint    the constraint solver (options.solver: Newton, CG or PGS)
//                 gives qacc, efc force and qfrc_constraint; without rows
//                 qacc = qacc_smooth
// forward() runs them, each followed by its sensors (engine/sensors.h),
// and the energy when its flag is on (pliant/energy.h); step()
// (pliant/step.h) checks the state, forwards and integrates.

#include "pliant/data.h"

namespace pliant {

void forward_position(const Model& model, Data& data);
void forward_velocity(const Model& model, Data& data);
void forward_actuation(const Model& model, Data& data);
void forward_acceleration(const Model& model, Data& data);
void forward_constraint(const Model& model, Data& data);
void forward(const Model& model, Data& data);
// The same, with the sensors skipped when `with_sensors` is false (the
// intermediate stages of RK4, whose sensordata no one reads).
void forward(const Model& model, Data& data, bool with_sensors);

}  // namespace pliant
