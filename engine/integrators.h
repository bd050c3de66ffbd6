#pragma once

// The integrators step() chooses from (options.integrator). Each advances
// one step from a state on which forward() has run.

#include "pliant/data.h"

namespace pliant {

// Semi-implicit Euler: activations, then velocities, then positions with the
// new velocities. When any dof has damping, the damping is taken implicitly:
// (M + h diag(damping)) qacc' = qfrc_smooth + qfrc_constraint.
void integrate_euler(const Model& model, Data& data);

// Classic 4th-order Runge-Kutta over (qpos, qvel, act), running forward at
// the three intermediate points.
void integrate_rk4(const Model& model, Data& data);

// Implicit in velocity: (M - h qDeriv) qacc' = qfrc_smooth + qfrc_constraint
// with qDeriv = d(actuator + passive - bias)/d(qvel); `with_bias` false drops
// the RNE derivative (implicitfast).
void integrate_implicit(const Model& model, Data& data, bool with_bias);

// The model's integrator (options.integrator), one of the above.
void integrate(const Model& model, Data& data);

}  // namespace pliant
