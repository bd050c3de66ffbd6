#pragma once

// Inverse dynamics: from qpos, qvel and qacc, the generalised force that
// produces that qacc (MuJoCo's mj_inverse).
//
//   qfrc_inverse = M qacc + qfrc_bias - qfrc_passive - qfrc_constraint
//
// in N (translational dofs) or N m (rotational dofs). The constraint forces
// come in closed form from the soft-constraint model: each row's force is
// minus the gradient of its cost at jar = J qacc - aref (equalities
// -D jar, limits and contacts -D jar where jar < 0, friction loss clamped
// to its bound, elliptic cones projected by zone; docs/physics.md §5, §10).
// This is what makes inverse dynamics well defined with contacts: the
// forces are a function of the acceleration, not the answer of a
// complementarity problem.
//
// qfrc_inverse holds what the actuators, qfrc_applied and xfrc_applied must
// supply together; forward() then inverse() returns their sum
// (compare_forward_inverse measures that).

#include "pliant/data.h"

namespace pliant {

// Runs the position and velocity stages and their sensors at data.qpos and
// data.qvel, then the constraint forces at data.qacc (data.efc.force,
// data.qfrc_constraint), the acceleration sensors and data.qfrc_inverse.
// data.qacc is left as given. With the invdiscrete flag, data.qacc is read
// as the step's discrete-time acceleration (what the integrator applies:
// Euler with implicit damping, implicit, implicitfast) and converted to its
// continuous-time equivalent first; RK4 has none and throws
// std::invalid_argument.
void inverse(const Model& model, Data& data);

// The same without the position and velocity stages (they must be current:
// forward() or inverse() ran at this qpos and qvel), and without sensors
// when `with_sensors` is false.
void inverse_from_velocity(const Model& model, Data& data, bool with_sensors);

// Forward/inverse consistency at the current forward() result (MuJoCo's
// fwdinv statistics), written to data.solver_fwdinv:
//   [0] = |qfrc_constraint(forward) - qfrc_constraint(inverse)|
//   [1] = |qfrc_applied + J^T xfrc_applied + qfrc_actuator - qfrc_inverse|
// Both are 0 without constraint rows. forward()'s results are left as they
// were (qfrc_inverse keeps the inverse's answer). step() calls it after
// forward dynamics when the model's fwdinv flag is on, as MuJoCo's mj_step.
void compare_forward_inverse(const Model& model, Data& data);

}  // namespace pliant
