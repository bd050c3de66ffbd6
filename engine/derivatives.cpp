#include "engine/derivatives.h"

#include <algorithm>
#include <vector>

#include "engine/actuation.h"
#include "engine/dynamics.h"
#include "engine/fluid.h"
#include "engine/kinematics.h"
#include "engine/passive.h"
#include "engine/tendon.h"
#include "engine/workspace.h"

namespace pliant {
namespace {

// True when dof a is dof b, an ancestor or a descendant of it: the pairs
// (a, b) where the tree-sparse mass matrix can be non-zero. Parents have
// lower ids, so walk up from the larger id.
bool same_chain(const Model& m, int a, int b) {
  int high = std::max(a, b);
  const int low = std::min(a, b);
  while (high > low) high = m.dofs.parent[high];
  return high == low;
}

// qderiv += scale * row^T row on the entries of the tree pattern only.
// MuJoCo 2.2.2 stores qDeriv with the sparsity of M, so couplings between
// dofs on different branches (a tendon across two fingers) are dropped from
// the implicit integrator's matrix; Pliant keeps the same matrix. Only the
// row's non-zero columns (listed into `nonzero`) are visited: an actuator on
// one joint adds one entry. The row is zero outside columns [begin, end).
using MatrixRow = Eigen::Ref<const Eigen::RowVectorXd, 0, Eigen::InnerStride<>>;
void add_outer_in_tree_pattern(const Model& m, const MatrixRow& row, int begin, int end,
                               double scale, Eigen::MatrixXd& qderiv, std::vector<int>& nonzero) {
  nonzero.clear();
  for (int a = begin; a < end; ++a) {
    if (row[a] != 0) nonzero.push_back(a);
  }
  for (const int a : nonzero) {
    for (const int b : nonzero) {
      if (same_chain(m, a, b)) qderiv(a, b) += scale * row[a] * row[b];
    }
  }
}

}  // namespace

void smooth_velocity_derivative(const Model& m, Data& d, bool include_bias,
                                Eigen::MatrixXd& qderiv) {
  const int nv = m.nv;
  qderiv.setZero(nv, nv);
  std::vector<int>& nonzero = workspace(d).integrator.value.nonzero_columns;
  nonzero.reserve(nv);

  // Actuators: d force_i / d velocity_i (actuator_velocity_slope) with
  // velocity_i = moment_i qvel, so qDeriv += moment^T diag(slope) moment,
  // kept to the tree pattern (see add_outer_in_tree_pattern).
  if (m.options.flags.actuation) {
    for (int i = 0; i < m.nu; ++i) {
      const double slope = actuator_velocity_slope(m, d, i);
      if (slope != 0)
        add_outer_in_tree_pattern(m, d.actuator_moment.row(i), d.actuator_moment_begin[i],
                                  d.actuator_moment_end[i], slope, qderiv, nonzero);
    }
  }

  // Passive: dof damping -b on the diagonal, tendon damping -b J^T J.
  if (m.options.flags.damper) {
    for (int k = 0; k < nv; ++k) qderiv(k, k) -= m.dofs.damping[k];
    for (int t = 0; t < m.tendons.count(); ++t) {
      const double b = m.tendons.damping[t];
      if (b == 0) continue;
      add_outer_in_tree_pattern(m, d.ten_J.row(t), 0, nv, -b, qderiv, nonzero);
    }
  }

  // Fluid forces (both models).
  add_fluid_velocity_derivative(m, d, !include_bias, qderiv);

  // RNE: -dC/dqvel. C(q, v) is exactly quadratic in v at fixed q (cvel and
  // cdof_dot are linear in v; body accelerations and forces are sums of
  // products of two of them, plus gravity), so the central difference
  //   dC/dv_j = (C(v + e_j) - C(v - e_j)) / 2
  // with a unit step is algebraically exact; only round-off remains. The
  // velocity stage's buffers are restored by recomputing them at v. Tendon
  // armature's velocity product stays out of the derivative, as in 3.3.8.
  if (include_bias && nv > 0) {
    VectorXd& plus = workspace(d).scratch_nv;
    for (int j = 0; j < nv; ++j) {
      const double saved = d.qvel[j];
      d.qvel[j] = saved + 1;
      com_velocities(m, d);
      bias_forces(m, d);
      plus = d.qfrc_bias;
      d.qvel[j] = saved - 1;
      com_velocities(m, d);
      bias_forces(m, d);
      qderiv.col(j) -= 0.5 * (plus - d.qfrc_bias);
      d.qvel[j] = saved;
    }
    com_velocities(m, d);
    bias_forces(m, d);
    add_tendon_armature_bias(m, d);  // the rest of qfrc_bias (forward_velocity)
  }
}

}  // namespace pliant
