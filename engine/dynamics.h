#pragma once

#include "pliant/data.h"
#include "solvers/tree_ldl.h"

namespace pliant {

// The tree sparsity of the model's mass matrix (dof parents, row addresses,
// each entry's column, the simple dofs).
inline TreeSparsity mass_sparsity(const Model& model) {
  return {model.nv,
          model.dofs.parent.data(),
          model.dofs.madr.data(),
          model.dofs.mass_column.data(),
          static_cast<int>(model.dofs.mass_column.size()),
          model.dofs.any_simple ? model.dofs.simplenum.data() : nullptr};
}

// Joint-space inertia M by composite rigid bodies, with armature on the
// diagonal and tendon armature (engine/tendon.h), into data.qM
// (tree-sparse, see solvers/tree_ldl.h). Needs tendon_kinematics.
void composite_inertia(const Model& model, Data& data);

// data.qLD, data.qLDiagInv <- the L^T D L factor of data.qM.
void factor_mass(const Model& model, Data& data);

// x <- M^-1 x with the current factor.
void solve_mass(const Model& model, const Data& data, double* x);

// y = M x with the current data.qM.
void multiply_mass(const Model& model, const Data& data, const double* x, double* y);

// Recursive Newton-Euler: generalized force C(q, v) + g(q) (gravity,
// Coriolis and centrifugal) into data.qfrc_bias; with `acceleration`, the
// inverse dynamics M qacc + C instead.
void bias_forces(const Model& model, Data& data, bool with_acceleration = false);

// qfrc_smooth = passive - bias + applied + actuator + J^T xfrc_applied, and
// qacc_smooth = M^-1 qfrc_smooth.
void smooth_acceleration(const Model& model, Data& data);

// qfrc += J^T xfrc_applied: each body's (torque; force) at its centre of
// mass, as generalised force.
void add_applied_wrenches(const Model& model, const Data& data, VectorXd& qfrc);

// The M column layout helper: M as a dense nv x nv matrix (tests, small nv).
Eigen::MatrixXd dense_mass_matrix(const Model& model, const Data& data);
// The same into `dense` (resized to nv x nv; no allocation once it has that size).
void dense_mass_matrix(const Model& model, const Data& data, Eigen::MatrixXd& dense);

}  // namespace pliant
