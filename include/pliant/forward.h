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
// and the energy when its flag is on; step() checks
// the state, forwards and integrates.

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

// One time step with the model's integrator (Euler with implicit joint
// damping, RK4, implicit, implicitfast).
void step(const Model& model, Data& data);

// State back to qpos0, zero velocities, controls and forces, time 0. The
// arrays keep their memory, so views of them stay valid.
void reset_data(const Model& model, Data& data);
// State from keyframe `key` (throws std::out_of_range for a bad index).
void reset_to_keyframe(const Model& model, Data& data, int key);

// qpos <- qpos integrated over `h` seconds at velocity `qvel`: scalars add
// h v; quaternions turn by the body-frame angular velocity (ball, free).
void integrate_position(const Model& model, double* qpos, const double* qvel, double h);

// Potential (gravity and springs) and kinetic energy into data.energy_*.
void compute_energy(const Model& model, Data& data);

}  // namespace pliant
