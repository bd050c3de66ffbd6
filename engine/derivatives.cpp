#include "engine/derivatives.h"

#include "engine/dynamics.h"
#include "engine/kinematics.h"

namespace pliant {

void smooth_velocity_derivative(const Model& m, Data& d, bool include_bias,
                                Eigen::MatrixXd& qderiv) {
  const int nv = m.nv;
  qderiv.setZero(nv, nv);

  // Actuators: force = gain * input + bias with affine gain and bias
  // depending on velocity through gainprm[2] and biasprm[2];
  // d force / d velocity = gainprm[2] input + biasprm[2], and velocity =
  // moment qvel, so qDeriv += moment^T (d force / d velocity) moment.
  if (m.options.flags.actuation) {
    const Actuators& a = m.actuators;
    int act_adr = 0;
    for (int i = 0; i < m.nu; ++i) {
      const bool stateful = a.dyn_type[i] != DynamicsType::kNone;
      const double input = stateful ? d.act[act_adr] : d.ctrl[i];
      if (stateful) ++act_adr;
      double slope = 0;
      if (a.gain_type[i] == GainType::kAffine) slope += a.gainprm[i][2] * input;
      if (a.bias_type[i] == BiasType::kAffine) slope += a.biasprm[i][2];
      if (slope == 0) continue;
      qderiv.noalias() += slope * d.actuator_moment.row(i).transpose() * d.actuator_moment.row(i);
    }
  }

  // Passive: dof damping -b on the diagonal, tendon damping -b J^T J.
  if (m.options.flags.passive) {
    for (int k = 0; k < nv; ++k) qderiv(k, k) -= m.dofs.damping[k];
    for (int t = 0; t < m.tendons.count(); ++t) {
      const double b = m.tendons.damping[t];
      if (b == 0) continue;
      qderiv.noalias() -= b * d.ten_J.row(t).transpose() * d.ten_J.row(t);
    }
  }

  // RNE: -dC/dqvel. C(q, v) is exactly quadratic in v at fixed q (cvel and
  // cdof_dot are linear in v; body accelerations and forces are sums of
  // products of two of them, plus gravity), so the central difference
  //   dC/dv_j = (C(v + e_j) - C(v - e_j)) / 2
  // with a unit step is algebraically exact; only round-off remains. The
  // velocity stage's buffers are restored by recomputing them at v.
  if (include_bias && nv > 0) {
    VectorXd& plus = d.scratch_nv;
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
  }
}

}  // namespace pliant
