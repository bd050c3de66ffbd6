#include "engine/model_constants.h"

#include <algorithm>
#include <cmath>

#include "engine/actuation.h"
#include "engine/camera_light.h"
#include "engine/dynamics.h"
#include "engine/kinematics.h"
#include "engine/length_range.h"
#include "engine/parameter_warnings.h"
#include "engine/spatial.h"
#include "engine/tendon.h"
#include "model/numeric_limits.h"
#include "pliant/edit_model.h"
#include "pliant/forward.h"
#include "pliant/jacobian.h"

namespace pliant {
namespace {

// Which bodies are "simple" (MuJoCo 3.x's body_simple): 1 when the body's
// inertial frame is its own frame, it is a root (or hangs from a static child
// of the world), it has no child bodies, and its joints sit at the body
// origin along coordinate axes with no rotational joint before another joint;
// 2 when, in addition, all its joints are slides. A level-2 body moves only by
// translation, so its inverse weights are 1 / mass.
void classify_simple_bodies(Model& m) {
  constexpr double kAxisEps = 1e-14;  // MuJoCo's mjEPS
  Bodies& b = m.bodies;
  const Joints& j = m.joints;
  b.simple.assign(b.count(), 0);
  b.simple[0] = 1;  // the world: its own root, inertial frame at its origin
  for (int i = 1; i < b.count(); ++i) {
    const int parent = b.parent[i];
    const bool same_frame =
        b.ipos[i].isZero(0) && b.iquat[i].w() == 1 && b.iquat[i].vec().isZero(0);
    const bool rooted = b.root[i] == i || (b.parent[parent] == 0 && b.dof_count[parent] == 0);
    b.simple[i] = same_frame && rooted ? 1 : 0;
    if (parent > 0) b.simple[parent] = 0;
    bool rotation_found = false, all_slides = true;
    for (int k = b.joint_adr[i]; k < b.joint_adr[i] + b.joint_count[i]; ++k) {
      const JointType type = j.type[k];
      int axes = 0;
      for (int c = 0; c < 3; ++c) axes += std::abs(j.axis[k][c]) > kAxisEps;
      const bool scalar = type == JointType::kHinge || type == JointType::kSlide;
      if (rotation_found || !j.pos[k].isZero(0) || (scalar && axes != 1)) b.simple[i] = 0;
      if (type == JointType::kBall || type == JointType::kHinge) rotation_found = true;
      all_slides = all_slides && type == JointType::kSlide;
    }
    if (b.simple[i] && b.dof_count[i] > 0 && all_slides) b.simple[i] = 2;
  }
  // A body carrying a site of a spatial tendon with armature is not simple
  // (measured on MuJoCo 3.3.8: the world too, and a slider hung by one).
  const Tendons& ten = m.tendons;
  for (int t = 0; t < ten.count(); ++t) {
    if (ten.armature[t] == 0) continue;
    for (int k = ten.wrap_adr[t]; k < ten.wrap_adr[t] + ten.wrap_count[t]; ++k) {
      if (ten.wrap_type[k] == WrapType::kSite) b.simple[m.sites.body[ten.wrap_obj[k]]] = 0;
    }
  }
}

// MuJoCo's dof_simplenum: each dof of a simple body counts the simple dofs
// from it to the end of their run.
void count_simple_dofs(Model& m) {
  std::vector<int>& count = m.dofs.simplenum;
  count.assign(m.nv, 0);
  m.dofs.any_simple = false;
  for (int k = m.nv - 1; k >= 0; --k) {
    if (m.bodies.simple[m.dofs.body[k]] == 0) continue;
    count[k] = 1 + (k + 1 < m.nv ? count[k + 1] : 0);
    m.dofs.any_simple = true;
  }
}

// a . b over n entries that are zero outside [begin, end), summed as MuJoCo
// 3.3.8 sums a dot product of length n: four interleaved partial sums over
// the first 4 floor(n / 4) entries, combined pairwise, then the last n mod 4
// summed in turn and added as one (measured on 3.3.8's own dot product for
// n = 1 to 15, and on body_invweight0 of the humanoid, the quadruped and the
// height-field drop). Only the run is read, so a tree's constants cost its
// size, not the model's.
double dot_as_mujoco(const double* a, const double* b, int begin, int end, int n) {
  const int head = n >= 4 ? n - n % 4 : 0;
  double partial[4] = {0, 0, 0, 0};
  int k = begin;
  for (; k < std::min(end, head); ++k) partial[k % 4] += a[k] * b[k];
  double sum = (partial[0] + partial[2]) + (partial[1] + partial[3]);
  double tail[3] = {0, 0, 0};
  for (; k < end; ++k) tail[k - head] = a[k] * b[k];
  if (n - head == 1) sum += tail[0];
  if (n - head == 2) sum += tail[0] + tail[1];
  if (n - head == 3) sum += (tail[0] + tail[1]) + tail[2];
  return sum;
}

}  // namespace

void compute_actuator_constants(Model& m) {
  Actuators& a = m.actuators;
  a.acc0.assign(m.nu, 0);
  if (a.length_range.size() != static_cast<size_t>(m.nu))
    a.length_range.assign(m.nu, Vector2d::Zero());
  if (m.nu == 0) return;
  Data d(m);
  forward_position(m, d);
  // acc0 = |M^-1 moment^T| at qpos0. A body transmission (adhesion) counts
  // no contacts there, as MuJoCo measures it before any collision: 0.
  VectorXd column(m.nv);
  for (int i = 0; i < m.nu; ++i) {
    column = d.actuator_moment.row(i).transpose();
    if (a.trn_type[i] == TransmissionType::kBody) column.setZero();
    solve_mass(m, d, column.data());
    a.acc0[i] = std::sqrt(dot_as_mujoco(column.data(), column.data(), 0, m.nv, m.nv));
  }
  // A position-like actuator (gain kp, bias -kp) with a positive biasprm[2]
  // was given a damping ratio: its damping is dampratio 2 sqrt(kp m), with m
  // the inertia its transmission reflects, sum over dofs of M(k,k) /
  // moment(k)^2 at qpos0 (as MuJoCo 3.x computes it).
  for (int i = 0; i < m.nu; ++i) {
    auto& gain = a.gainprm[i];
    auto& bias = a.biasprm[i];
    if (gain[0] != -bias[1] || bias[2] <= 0) continue;
    double mass = 0;
    for (int k = 0; k < m.nv; ++k) {
      const double moment = d.actuator_moment(i, k);
      if (moment * moment > kMinValue) mass += d.qM[m.dofs.madr[k]] / (moment * moment);
    }
    bias[2] = -bias[2] * 2 * std::sqrt(gain[0] * mass);
  }
  compute_length_ranges(m);
}

void compute_model_constants(Model& m) {
  classify_simple_bodies(m);
  count_simple_dofs(m);
  // The track modes' offsets are measured at qpos0 (sized first: the pass
  // below places the cameras with them).
  m.cameras.pos0.assign(m.cameras.count(), Vector3d::Zero());
  m.cameras.poscom0.assign(m.cameras.count(), Vector3d::Zero());
  m.cameras.mat0.assign(m.cameras.count(), Matrix3d::Identity());
  m.lights.pos0.assign(m.lights.count(), Vector3d::Zero());
  m.lights.poscom0.assign(m.lights.count(), Vector3d::Zero());
  m.lights.dir0.assign(m.lights.count(), Vector3d::Zero());
  Data d(m);
  forward_position(m, d);
  camera_light_constants(m, d);
  const int nv = m.nv;

  // Each tree's dofs are one run (bodies are numbered depth first), and
  // M^-1 couples nothing across trees: every solve below runs on the run of
  // the tree it concerns, so the constants cost the sum over trees of
  // their size squared, not the model's (a pile of 5 000 free boxes is
  // 5 000 small trees).
  std::vector<int> run_begin(m.body_count(), 0), run_end(m.body_count(), 0);
  for (int k = 0; k < nv; ++k) {
    const int root = m.bodies.root[m.dofs.body[k]];
    if (run_end[root] == 0) run_begin[root] = k;
    run_end[root] = k + 1;
  }
  const TreeSparsity tree = mass_sparsity(m);
  VectorXd column = VectorXd::Zero(nv);  // zero outside the run being solved
  VectorXd saved = VectorXd::Zero(nv);   // e, the column before the solve
  // e^T M^-1 e for a vector e on a tree's run (given as a functor writing
  // it into `column`), leaving `column` zero again.
  const auto inverse_quadratic = [&](int begin, int end, const auto& fill) {
    fill(column);
    saved.segment(begin, end - begin) = column.segment(begin, end - begin);
    tree_ldl_solve_range(tree, d.qLD.data(), d.qLDiagInv.data(), column.data(), begin, end);
    const double value = dot_as_mujoco(saved.data(), column.data(), begin, end, nv);
    column.segment(begin, end - begin).setZero();
    saved.segment(begin, end - begin).setZero();
    return value;
  };

  // The translational and rotational blocks of J M^-1 J^T at each body's
  // centre of mass, by their mean diagonals: for each of the six rows of
  // the body's Jacobian (translation, then rotation), row^T M^-1 row.
  for (int b = 1; b < m.body_count() && nv > 0; ++b) {
    double translation = 0, rotation = 0;
    const int root = m.bodies.root[b];
    const int begin = run_begin[root], end = run_end[root];
    // As MuJoCo 3.3.8: a body that only translates has weights 1 / mass
    // and 0 (MuJoCo 2.2.2 averaged the translational diagonal over three
    // axes, a third or two thirds of this for one or two slides).
    if (m.bodies.weld[b] == 0 || end == begin) {
      translation = rotation = 0;
    } else if (m.bodies.simple[b] == 2) {
      translation = 1 / std::max(kMinValue, m.bodies.mass[b]);
      rotation = 0;
    } else {
      const Vector3d offset = d.xipos[b] - d.subtree_com[root];
      for (int row = 0; row < 6; ++row) {
        const double value = inverse_quadratic(begin, end, [&](VectorXd& e) {
          for (int k = last_dof_of_chain(m, b); k >= 0; k = m.dofs.parent[k]) {
            const Vector3d w = angular(d.cdof[k]);
            const Vector3d v = linear(d.cdof[k]) + w.cross(offset);
            e[k] = row < 3 ? v[row] : w[row - 3];
          }
        });
        (row < 3 ? translation : rotation) += value;
      }
      // The mean of each block's diagonal, as 3.3.8 rounds it.
      translation /= 3;
      rotation /= 3;
    }
    m.bodies.invweight0[b] = Vector2d(translation, rotation);
  }

  // The joint's diagonal block of M^-1: free joints average translation and
  // rotation separately, balls average their three, scalars take their own.
  std::vector<double> minv_diagonal(nv);
  for (int i = 0; i < nv; ++i) {
    const int root = m.bodies.root[m.dofs.body[i]];
    minv_diagonal[i] =
        inverse_quadratic(run_begin[root], run_end[root], [&](VectorXd& e) { e[i] = 1; });
  }
  for (int j = 0; j < m.joints.count(); ++j) {
    const int dof = m.joints.dof_adr[j];
    const int body = m.joints.body[j];
    if (m.bodies.simple[body] == 2) {
      m.dofs.invweight0[dof] = 1 / std::max(kMinValue, m.bodies.mass[body]);
      continue;
    }
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
    const VectorXd row = d.ten_J.row(t).transpose();
    VectorXd jt = row;
    solve_mass(m, d, jt.data());
    m.tendons.invweight0[t] = dot_as_mujoco(row.data(), jt.data(), 0, m.nv, m.nv);
    m.tendons.length0[t] = d.ten_length[t];
  }
  // A tendon spring without a springlength (the -1 -1 default) rests at the
  // tendon's length at qpos_spring, the joints' spring reference, as MuJoCo
  // 3.3.8 computes it. Any other value, negative ones included, is kept.
  bool unset = false;
  for (const Vector2d& rest : m.tendons.length_spring) unset |= rest == Vector2d(-1, -1);
  if (unset) {
    Data spring(m);
    for (int q = 0; q < m.nq; ++q) spring.qpos[q] = m.qpos_spring[q];
    kinematics(m, spring);
    tendon_kinematics(m, spring);
    for (int t = 0; t < m.tendons.count(); ++t) {
      Vector2d& rest = m.tendons.length_spring[t];
      if (rest == Vector2d(-1, -1)) rest = Vector2d::Constant(spring.ten_length[t]);
    }
  }
  for (int a = 0; a < m.nu; ++a) m.actuators.length0[a] = d.actuator_length[a];

  // springdamper: stiffness I / (tc^2 ratio^2) and damping 2 I / tc, I the
  // joint's effective inertia at qpos0: the dof count over the sum of its
  // dofs' dof_invweight0 (diagonal of M^-1, averaged per joint part), as
  // MuJoCo 3.3.8 takes it. The diagonal of M itself overstates I wherever
  // the dof is coupled to others (flybody's halteres: 3.1e-8 relative).
  for (int j = 0; j < m.joints.count(); ++j) {
    const double timeconst = m.joints.springdamper[j][0], ratio = m.joints.springdamper[j][1];
    if (!(timeconst > 0 && ratio > 0)) continue;
    const int first = m.joints.dof_adr[j], count = joint_dof_count(m.joints.type[j]);
    double weight_sum = 0;
    for (int k = first; k < first + count; ++k) weight_sum += m.dofs.invweight0[k];
    const double inertia = count / std::max(kMinValue, weight_sum);
    m.joints.stiffness[j] = inertia / (timeconst * timeconst * ratio * ratio);
    for (int k = first; k < first + count; ++k) m.dofs.damping[k] = 2 * inertia / timeconst;
  }

  double trace = 0;
  for (int i = 0; i < nv; ++i) trace += d.qM[m.dofs.madr[i]];
  m.stat.meaninertia = nv > 0 ? trace / nv : 1;
  compute_actuator_constants(m);
  record_parameter_warnings(m);
}

void set_const(Model& m) {
  Bodies& b = m.bodies;
  b.subtree_mass = b.mass;
  for (int i = b.count() - 1; i > 0; --i) b.subtree_mass[b.parent[i]] += b.subtree_mass[i];
  compute_model_constants(m);
}

}  // namespace pliant
