#include "engine/dynamics.h"

#include "engine/kinematics.h"
#include "engine/spatial.h"
#include "engine/tendon.h"

namespace pliant {

// Composite rigid bodies: crb[i] is the inertia of the subtree at i (all in
// one tree-wide frame, so sums are plain sums). Then
// M(i, j) = cdof_j . (crb[body(i)] cdof_i) for j = i and its ancestors:
// a force along dof i's subtree seen by the dofs that carry it.
void composite_inertia(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  for (int i = 0; i < b.count(); ++i) d.crb[i] = d.cinert[i];
  for (int i = b.count() - 1; i > 0; --i) {
    if (b.parent[i] > 0) d.crb[b.parent[i]] += d.crb[i];
  }
  const Dofs& dofs = m.dofs;
  for (int i = 0; i < m.nv; ++i) {
    const Vector6d force = d.crb[dofs.body[i]].apply(d.cdof[i]);
    int slot = dofs.madr[i];
    d.qM[slot++] = dot6(d.cdof[i], force) + dofs.armature[i];
    for (int j = dofs.parent[i]; j >= 0; j = dofs.parent[j]) d.qM[slot++] = dot6(d.cdof[j], force);
  }
  add_tendon_armature(m, d);
}

void factor_mass(const Model& m, Data& d) {
  d.qLD = d.qM;
  tree_ldl_factor(mass_sparsity(m), d.qLD.data(), d.qLDiagInv.data());
}

void solve_mass(const Model& m, const Data& d, double* x) {
  tree_ldl_solve(mass_sparsity(m), d.qLD.data(), d.qLDiagInv.data(), x);
}

void multiply_mass(const Model& m, const Data& d, const double* x, double* y) {
  tree_multiply(mass_sparsity(m), d.qM.data(), x, y);
}

// Forward pass: body accelerations from the parent's plus each dof's
// cdof_dot * qvel (and cdof * qacc); gravity enters as an upward
// acceleration of the world. Backward pass: body forces I a + v x* I v,
// summed into parents; each dof takes its axis' share.
void bias_forces(const Model& m, Data& d, bool with_acceleration) {
  const Bodies& b = m.bodies;
  const Dofs& dofs = m.dofs;
  const Vector3d gravity = m.options.flags.gravity ? m.options.gravity : Vector3d::Zero();
  d.cacc[0] = spatial(Vector3d::Zero(), -gravity);
  for (int i = 1; i < b.count(); ++i) {
    Vector6d acc = d.cacc[b.parent[i]];
    for (int k = 0; k < b.dof_count[i]; ++k) {
      const int dof = b.dof_adr[i] + k;
      acc += d.cdof_dot[dof] * d.qvel[dof];
      if (with_acceleration) acc += d.cdof[dof] * d.qacc[dof];
    }
    d.cacc[i] = acc;
    d.cfrc_body[i] = d.cinert[i].apply(acc) + cross_force(d.cvel[i], d.cinert[i].apply(d.cvel[i]));
  }
  d.cfrc_body[0].setZero();
  for (int i = b.count() - 1; i > 0; --i) {
    if (b.parent[i] > 0) d.cfrc_body[b.parent[i]] += d.cfrc_body[i];
  }
  for (int k = 0; k < m.nv; ++k) d.qfrc_bias[k] = dot6(d.cdof[k], d.cfrc_body[dofs.body[k]]);
}

void smooth_acceleration(const Model& m, Data& d) {
  d.qfrc_smooth = d.qfrc_passive - d.qfrc_bias + d.qfrc_applied + d.qfrc_actuator;
  add_applied_wrenches(m, d, d.qfrc_smooth);
  d.qacc_smooth = d.qfrc_smooth;
  solve_mass(m, d, d.qacc_smooth.data());
}

void add_applied_wrenches(const Model& m, const Data& d, VectorXd& qfrc) {
  // External wrenches (torque; force at the body's centre of mass) map to
  // joint space through the COM Jacobian's transpose.
  for (int i = 1; i < m.body_count(); ++i) {
    const Vector6d& wrench = d.xfrc_applied[i];
    if (wrench.isZero(0)) continue;
    const Vector3d offset = d.xipos[i] - d.subtree_com[m.bodies.root[i]];
    for (int k = last_dof_of_chain(m, i); k >= 0; k = m.dofs.parent[k]) {
      const Vector3d w = angular(d.cdof[k]);
      const Vector3d v = linear(d.cdof[k]) + w.cross(offset);
      qfrc[k] += w.dot(angular(wrench)) + v.dot(linear(wrench));
    }
  }
}

Eigen::MatrixXd dense_mass_matrix(const Model& m, const Data& d) {
  Eigen::MatrixXd dense;
  dense_mass_matrix(m, d, dense);
  return dense;
}

void dense_mass_matrix(const Model& m, const Data& d, Eigen::MatrixXd& dense) {
  dense.setZero(m.nv, m.nv);
  for (int i = 0; i < m.nv; ++i) {
    int slot = m.dofs.madr[i];
    for (int j = i; j >= 0; j = m.dofs.parent[j], ++slot) {
      dense(i, j) = d.qM[slot];
      dense(j, i) = d.qM[slot];
    }
  }
}

}  // namespace pliant
