#include "pliant/inverse.h"

#include <stdexcept>

#include "engine/constraint/solve.h"
#include "engine/derivatives.h"
#include "engine/dynamics.h"
#include "engine/sensors.h"
#include "engine/workspace.h"
#include "pliant/energy.h"
#include "pliant/forward.h"
#include "solvers/cost.h"

namespace pliant {
namespace {

// data.qacc <- the continuous-time acceleration whose step equals the
// integrator's step with data.qacc as its discrete-time acceleration:
// M qacc_c = (M + h B) qacc for Euler with implicit damping B,
// (M - h qDeriv) qacc for the implicit integrators.
void continuous_acceleration(const Model& m, Data& d) {
  const double h = m.options.timestep;
  VectorXd force(m.nv);
  switch (m.options.integrator) {
    case Integrator::kRk4:
      throw std::invalid_argument(
          "inverse dynamics: the invdiscrete flag is not supported by the RK4 integrator (it has "
          "no single discrete-time acceleration); accepted: Euler, implicit, implicitfast");
    case Integrator::kEuler: {
      bool damped = false;
      for (double damping : m.dofs.damping) damped = damped || damping > 0;
      if (!damped || !m.options.flags.eulerdamp || !m.options.flags.damper) return;
      multiply_mass(m, d, d.qacc.data(), force.data());
      for (int i = 0; i < m.nv; ++i) force[i] += h * m.dofs.damping[i] * d.qacc[i];
      break;
    }
    case Integrator::kImplicit:
    case Integrator::kImplicitFast: {
      Eigen::MatrixXd qderiv;
      smooth_velocity_derivative(m, d, m.options.integrator == Integrator::kImplicit, qderiv);
      force = (dense_mass_matrix(m, d) - h * qderiv) * d.qacc;
      break;
    }
  }
  solve_mass(m, d, force.data());
  d.qacc = force;
}

}  // namespace

void inverse(const Model& m, Data& d) {
  check_data_matches(m, d);
  forward_position(m, d);
  sensors_position(m, d);
  forward_velocity(m, d);
  sensors_velocity(m, d);
  inverse_from_velocity(m, d, true);
  if (m.options.flags.energy) compute_energy(m, d);
}

void inverse_from_velocity(const Model& m, Data& d, bool with_sensors) {
  VectorXd given;
  if (m.options.flags.invdiscrete) {
    given = d.qacc;
    continuous_acceleration(m, d);
  }
  constraint_forces(m, d);
  if (with_sensors) sensors_acceleration(m, d);
  multiply_mass(m, d, d.qacc.data(), d.qfrc_inverse.data());
  d.qfrc_inverse += d.qfrc_bias - d.qfrc_passive - d.qfrc_constraint;
  if (m.options.flags.invdiscrete) d.qacc = given;
}

void compare_forward_inverse(const Model& m, Data& d) {
  d.solver_fwdinv = {0, 0};
  const int nefc = d.efc.count();
  if (nefc == 0) return;
  VectorXd applied = d.qfrc_applied + d.qfrc_actuator;
  add_applied_wrenches(m, d, applied);
  const VectorXd constraint = d.qfrc_constraint;
  const std::vector<double> force = d.efc.force;
  inverse_from_velocity(m, d, false);
  d.solver_fwdinv[0] = (constraint - d.qfrc_constraint).norm();
  d.solver_fwdinv[1] = (applied - d.qfrc_inverse).norm();
  d.qfrc_constraint = constraint;
  d.efc.force = force;
}

}  // namespace pliant
