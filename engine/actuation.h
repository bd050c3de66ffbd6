
#pragma once

#include "pliant/data.h"

namespace pliant {

// Actuator lengths and moment arms (actuator_length, actuator_moment, nu x nv)
// for joint, joint-in-parent, tendon, site and slider-crank transmissions,
// with gear. Needs kinematics, com_positions and tendon_kinematics.
void transmission(const Model& model, Data& data);

// Ctrl clamping (clampctrl flag, applied to
// a copy: data.ctrl is not modified); act_dot
// from the activation dynamics (none, integrator, filter, muscle); actuator
// force = gain * (ctrl or act) + bias, clamped to forcerange; qfrc_actuator
// = moment^T force. Respects the actuation flag.
void actuation(const Model& model, Data& data);

// actuator_velocity = moment qvel, the rate of change of actuator_length;
// part of the velocity stage (after transmission), which actuation() reads.
void actuator_velocities(const Model& model, Data& data);

// The activation of actuator i after one step from `act` at rate `act_dot`:
// Euler, or the exact filter for filterexact, clamped to actrange when
// act-limited.
double next_activation(const Model& model, int i, double act, double act_dot);

// The control actuator i acts on: data.ctrl[i], clamped to ctrlrange when
// the actuator is ctrl-limited and the clampctrl flag is on (data.ctrl is
// never modified).
double effective_ctrl(const Model& model, const Data& data, int i);

// d actuator_force[i] / d actuator_velocity[i] at the current state (after
// actuation): affine gain and bias slopes and the muscle force-velocity
// slope; force clamping is not differentiated. Used by the implicit
// integrators.
double actuator_velocity_slope(const Model& model, const Data& data, int i);

}  // namespace pliant
