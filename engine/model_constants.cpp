#include "engine/model_constants.h"

#include "engine/actuation.h"
#include "engine/dynamics.h"
#include "engine/forward.h"
#include "engine/kinematics.h"
#include "engine/parameter_warnings.h"

namespace pliant {

void compute_model_constants(Model& m) {
  Data d(m);
  forward_position(m, d);
  const int nv = m.nv;

  // M^-1 J^T for a 6 x nv body Jacobian, then the block traces.
  Eigen::MatrixXd jac(6, nv), minv_jt(nv, 6);
  for (int b = 1; b < m.body_count() && nv > 0; ++b) {
    jac.setZero();
    point_jacobian(m, d, b, d.xipos[b], jac.topRows(3), jac.bottomRows(3));
    minv_jt = jac.transpose();
    for (int c = 0; c < 6; ++c) solve_mass(m, d, minv_jt.col(c).data());
    const Eigen::Matrix<double, 6, 6> a = jac * minv_jt;
    m.bodies.invweight0[b] =
        Vector2d((a(0, 0) + a(1, 1) + a(2, 2)) / 3, (a(3, 3) + a(4, 4) + a(5, 5)) / 3);
  }

  // The joint's diagonal block of M^-1: free joints average translation and
  // rotation separately, balls average their three, scalars take their own.
  VectorXd column(nv);
  std::vector<double> minv_diagonal(nv);
  for (int i = 0; i < nv; ++i) {
    column.setZero();
    column[i] = 1;
    solve_mass(m, d, column.data());
    minv_diagonal[i] = column[i];
  }
  for (int j = 0; j < m.joints.count(); ++j) {
    const int dof = m.joints.dof_adr[j];
    auto average = [&](int first, int count) {
      double sum = 0;
      for (int k = 0; k < count; ++k) sum += minv_diagonal[first + k];
      for (int k = 0; k < count; ++k) m.dofs.invweight0[first + k] = sum / count;
    };
    switch (m.joints.type[j]) {
      case JointType::kFree:
        average(dof, 3);
        average(dof + 3, 3);
        break;
      case JointType::kBall:
        average(dof, 3);
        break;
      default:
        average(dof, 1);
    }
  }

  for (int t = 0; t < m.tendons.count(); ++t) {
    VectorXd jt = d.ten_J.row(t).transpose();
    solve_mass(m, d, jt.data());
    m.tendons.invweight0[t] = d.ten_J.row(t).dot(jt);
    m.tendons.length0[t] = d.ten_length[t];
    if (m.tendons.length_spring[t] < 0) m.tendons.length_spring[t] = d.ten_length[t];
  }
  for (int a = 0; a < m.nu; ++a) m.actuators.length0[a] = d.actuator_length[a];

  double trace = 0;
  for (int i = 0; i < nv; ++i) trace += d.qM[m.dofs.madr[i]];
  m.stat.meaninertia = nv > 0 ? trace / nv : 1;
  compute_actuator_constants(m);
  record_parameter_warnings(m);
}

}  // namespace pliant
