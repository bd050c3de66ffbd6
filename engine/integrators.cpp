#include "engine/integrators.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "engine/actuation.h"
#include "engine/derivatives.h"
#include "engine/dynamics.h"
#include "engine/forward_unchecked.h"
#include "engine/rotation.h"
#include "engine/workspace.h"
#include "model/numeric_limits.h"
#include "pliant/integrate_position.h"

namespace pliant {
namespace {

// act <- the next activation of each stateful actuator (next_activation:
// Euler or exact filter, clamped to actrange) at rate act_dot.
void advance_activations(const Model& m, Data& d, const VectorXd& act, const VectorXd& act_dot) {
  const Actuators& a = m.actuators;
  for (int u = 0; u < m.nu; ++u) {
    const int i = a.act_adr[u];
    if (i >= 0) d.act[i] = next_activation(m, u, act[i], act_dot[i]);
  }
}

// act advanced; qvel += h qacc; qpos integrated with the new qvel; the
// solver's answer is kept as the next warm start.
void advance(const Model& m, Data& d, const VectorXd& qacc) {
  const double h = m.options.timestep;
  if (m.na > 0) advance_activations(m, d, d.act, d.act_dot);  // entry by entry: may alias
  d.qacc_warmstart = d.qacc;
  d.qvel += h * qacc;
  integrate_position(m, d.qpos.data(), d.qvel.data(), h);
  d.time += h;
}

// (the matrix in w.factor_input, in M's row-ancestor layout)^-1 (qfrc_smooth
// + qfrc_constraint), returned in w.force. The factor is a function of its
// input alone: steps that share the matrix (the velocity and control
// nudges of the step's derivatives) factor it once.
const VectorXd& solve_tree_system(const Model& m, const Data& d, IntegratorScratch& w) {
  if (w.factor_input.size() != w.factored.size() || w.factor_input != w.factored) {
    w.factored = w.factor_input;
    w.factor = w.factor_input;
    w.factor_diagonal.resize(m.nv);
    tree_ldl_factor(mass_sparsity(m), w.factor.data(), w.factor_diagonal.data());
  }
  w.force = d.qfrc_smooth + d.qfrc_constraint;
  tree_ldl_solve(mass_sparsity(m), w.factor.data(), w.factor_diagonal.data(), w.force.data());
  return w.force;
}

}  // namespace

void integrate_euler(const Model& m, Data& d) {
  bool damped = false;
  for (double damping : m.dofs.damping) damped = damped || damping > 0;
  // eulerdamp off (MuJoCo 3.x): damping stays explicit, in qacc. With the
  // damper flag off there is no damping to treat implicitly (as MuJoCo
  // 3.3.8; the length-range runs, which turn dampers off, agree with its
  // ranges to round-off only so).
  if (!damped || !m.options.flags.eulerdamp || !m.options.flags.damper) {
    return advance(m, d, d.qacc);
  }
  // Same tree sparsity as M: only the diagonal changes.
  const double h = m.options.timestep;
  IntegratorScratch& w = workspace(d).integrator.value;
  w.factor_input = d.qM;
  for (int i = 0; i < m.nv; ++i) w.factor_input[m.dofs.madr[i]] += h * m.dofs.damping[i];
  advance(m, d, solve_tree_system(m, d, w));
}

// Butcher tableau: a = [1/2; 0 1/2; 0 0 1], b = [1/6 1/3 1/3 1/6],
// c = [1/2 1/2 1]. Positions at each stage integrate the weighted stage
// velocities from the initial qpos, so quaternions stay on the manifold.
void integrate_rk4(const Model& m, Data& d) {
  const double h = m.options.timestep;
  const double a[3] = {0.5, 0.5, 1.0};  // the tableau's only non-zeros: a[i][i-1]
  const double b[4] = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6};
  // The stages' state and rates live in the workspace: a step allocates nothing.
  IntegratorScratch& w = workspace(d).integrator.value;
  w.rk4_qpos = d.qpos;
  w.rk4_qvel = d.qvel;
  w.rk4_act = d.act;
  w.rk4_warmstart = d.qacc;
  const VectorXd &qpos0 = w.rk4_qpos, &qvel0 = w.rk4_qvel, &act0 = w.rk4_act;
  const double time0 = d.time;
  VectorXd *stage_vel = w.rk4_vel, *stage_acc = w.rk4_acc, *stage_act = w.rk4_act_dot;
  stage_vel[0] = d.qvel;
  stage_acc[0] = d.qacc;
  stage_act[0] = d.act_dot;
  for (int i = 1; i < 4; ++i) {
    d.qpos = qpos0;
    integrate_position(m, d.qpos.data(), stage_vel[i - 1].data(), a[i - 1] * h);
    d.qvel = qvel0 + a[i - 1] * h * stage_acc[i - 1];
    if (m.na > 0) d.act = act0 + a[i - 1] * h * stage_act[i - 1];
    d.time = time0 + a[i - 1] * h;
    forward_unchecked(m, d, false);
    stage_vel[i] = d.qvel;
    stage_acc[i] = d.qacc;
    stage_act[i] = d.act_dot;
  }
  // The weighted sums, each into its first stage's buffer (no longer needed).
  VectorXd &vel = stage_vel[0], &acc = stage_acc[0], &act_dot = stage_act[0];
  vel *= b[0];
  acc *= b[0];
  act_dot *= b[0];
  for (int i = 1; i < 4; ++i) {
    vel += b[i] * stage_vel[i];
    acc += b[i] * stage_acc[i];
    act_dot += b[i] * stage_act[i];
  }
  d.qpos = qpos0;
  integrate_position(m, d.qpos.data(), vel.data(), h);
  d.qvel = qvel0 + h * acc;
  if (m.na > 0) advance_activations(m, d, act0, act_dot);
  d.time = time0 + h;
  d.qacc_warmstart = w.rk4_warmstart;
}

void integrate_implicit(const Model& m, Data& d, bool with_bias) {
  IntegratorScratch& w = workspace(d).integrator.value;
  Eigen::MatrixXd& qderiv = w.velocity_derivative;
  smooth_velocity_derivative(m, d, with_bias, qderiv);
  const double h = m.options.timestep;
  if (!with_bias) {
    // implicitfast, as MuJoCo 3.3.8: M - h qDeriv in M's own layout (its
    // lower triangle; qDeriv is symmetric here), factored by the tree's
    // L^T D L. A simple body's dofs have a diagonal block there, so the
    // derivative's entries between two of them are left out (measured: a
    // free box in a fluid, whose drag couples its three translations,
    // steps as if they were zero).
    const TreeSparsity tree = mass_sparsity(m);
    w.factor_input = d.qM;
    for (int i = 0; i < m.nv; ++i) {
      for (int slot = tree.address[i]; slot < tree.row_end(i); ++slot) {
        w.factor_input[slot] -= h * qderiv(i, tree.column[slot]);
      }
    }
    advance(m, d, solve_tree_system(m, d, w));
    return;
  }
  // implicit: M - h qDeriv is not symmetric (the RNE term); a dense LU.
  Eigen::MatrixXd& system = w.implicit_system;
  dense_mass_matrix(m, d, system);
  system -= h * qderiv;
  w.implicit_lu.compute(system);
  w.force = d.qfrc_smooth + d.qfrc_constraint;
  w.qacc.resize(m.nv);
  w.qacc.noalias() = w.implicit_lu.solve(w.force);
  advance(m, d, w.qacc);
}

void integrate_position(const Model& m, double* qpos, const double* qvel, double h) {
  const Joints& j = m.joints;
  for (int i = 0; i < j.count(); ++i) {
    double* q = qpos + j.qpos_adr[i];
    const double* v = qvel + j.dof_adr[i];
    int rotation_offset = 0;
    switch (j.type[i]) {
      case JointType::kFree:
        for (int k = 0; k < 3; ++k) q[k] += h * v[k];
        rotation_offset = 3;
        [[fallthrough]];
      case JointType::kBall: {
        // Rotate by the body-frame angular velocity, q <- unit(q) exp(h w / 2),
        // rounded as MuJoCo 3.3.8 integrates a quaternion: the axis w / |w|
        // by the reciprocal (+x below 1e-15), the quaternion made unit
        // before the product and left as the product gives it (kinematics
        // makes it unit again).
        double* qq = q + rotation_offset;
        const double* w = v + rotation_offset;
        const double speed = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        Vector3d axis(1, 0, 0);
        if (speed >= kMinValue) {
          const double inverse = 1 / speed;
          axis = Vector3d(w[0] * inverse, w[1] * inverse, w[2] * inverse);
        }
        Quaterniond quat(qq[0], qq[1], qq[2], qq[3]);
        normalize_quat(quat);
        quat = quat_mul(quat, axis_angle_quat(axis, h * speed));
        qq[0] = quat.w();
        qq[1] = quat.x();
        qq[2] = quat.y();
        qq[3] = quat.z();
        break;
      }
      default:
        q[0] += h * v[0];
    }
  }
}

void differentiate_position(const Model& m, double* qvel, double h, const double* qpos1,
                            const double* qpos2) {
  const Joints& j = m.joints;
  for (int i = 0; i < j.count(); ++i) {
    const double* a = qpos1 + j.qpos_adr[i];
    const double* b = qpos2 + j.qpos_adr[i];
    double* v = qvel + j.dof_adr[i];
    int rotation_offset = 0;
    switch (j.type[i]) {
      case JointType::kFree:
        for (int k = 0; k < 3; ++k) v[k] = (b[k] - a[k]) / h;
        rotation_offset = 3;
        [[fallthrough]];
      case JointType::kBall: {
        const double* qa = a + rotation_offset;
        const double* qb = b + rotation_offset;
        // The rotation from qa to qb in qa's frame: qa^-1 qb, as an angle
        // in [-pi, pi] about its axis.
        const Quaterniond relative = Quaterniond(qa[0], qa[1], qa[2], qa[3]).conjugate() *
                                     Quaterniond(qb[0], qb[1], qb[2], qb[3]);
        const Vector3d axis = relative.vec();
        const double sine = axis.norm();
        double angle = 2 * std::atan2(sine, relative.w());
        if (angle > std::numbers::pi) angle -= 2 * std::numbers::pi;
        const Vector3d rotation = sine > 0 ? Vector3d(axis * (angle / sine)) : Vector3d::Zero();
        for (int k = 0; k < 3; ++k) v[rotation_offset + k] = rotation[k] / h;
        break;
      }
      default:
        v[0] = (b[0] - a[0]) / h;
    }
  }
}

void integrate(const Model& m, Data& d) {
  switch (m.options.integrator) {
    case Integrator::kEuler:
      integrate_euler(m, d);
      break;
    case Integrator::kRk4:
      integrate_rk4(m, d);
      break;
    case Integrator::kImplicit:
    case Integrator::kImplicitFast:
      integrate_implicit(m, d, m.options.integrator == Integrator::kImplicit);
      break;
  }
}

}  // namespace pliant
