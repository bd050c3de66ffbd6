#include "engine/passive.h"

#include <algorithm>
#include <cmath>

#include "engine/kinematics.h"
#include "engine/spatial.h"

namespace pliant {
namespace {

// Guard against division by (near) zero, as MuJoCo's mjMINVAL.
constexpr double kMinValue = 1e-15;

// Rotation vector (axis times angle, angle in (-pi, pi]) of a quaternion
// that need not be unit: angle = 2 atan2(|v|, w), axis = v / |v|.
Vector3d rotation_vector(const Quaterniond& q) {
  const Vector3d v = q.vec();
  const double s = v.norm();
  if (s < kMinValue) return Vector3d::Zero();
  double angle = 2 * std::atan2(s, q.w());
  if (angle > M_PI) angle -= 2 * M_PI;
  return v * (angle / s);
}

Quaterniond quaternion_at(const double* q) { return Quaterniond(q[0], q[1], q[2], q[3]); }

// Joint springs: hinge and slide -k (q - q_spring); ball -k r with r the
// rotation vector of conj(q_spring) q (the body-frame rotation from the
// rest orientation, matching the ball's body-frame dofs); free joints
// -k (p - p_spring) on the three translations and the ball rule on the
// rotation.
void joint_springs(const Model& m, Data& d) {
  const Joints& j = m.joints;
  for (int i = 0; i < j.count(); ++i) {
    const double k = j.stiffness[i];
    if (k == 0) continue;
    const int q = j.qpos_adr[i], v = j.dof_adr[i];
    switch (j.type[i]) {
      case JointType::kFree:
      case JointType::kBall: {
        int rot = 0;
        if (j.type[i] == JointType::kFree) {
          for (int a = 0; a < 3; ++a) {
            d.qfrc_passive[v + a] -= k * (d.qpos[q + a] - m.qpos_spring[q + a]);
          }
          rot = 3;
        }
        const Quaterniond now = quaternion_at(d.qpos.data() + q + rot);
        const Quaterniond rest = quaternion_at(m.qpos_spring.data() + q + rot);
        const Vector3d r = rotation_vector(rest.conjugate() * now);
        for (int a = 0; a < 3; ++a) d.qfrc_passive[v + rot + a] -= k * r[a];
        break;
      }
      default:
        d.qfrc_passive[v] -= k * (d.qpos[q] - m.qpos_spring[q]);
    }
  }
}

// Fluid forces of the inertia-box model (MuJoCo docs, "Fluid forces",
// inertia model). Each body is replaced by the box with its mass and
// principal inertia: side s_x = sqrt(6 (I_y + I_z - I_x) / m), and so on.
// In the inertial frame, with w the angular velocity and v the velocity of
// the centre of mass relative to the wind:
//   viscous (viscosity beta), d = (s_x + s_y + s_z) / 3:
//     torque = -pi d^3 beta w,  force = -3 pi d beta v;
//   quadratic drag (density rho):
//     force_x -= 0.5 rho s_y s_z |v_x| v_x (and cyclically),
//     torque_x -= rho s_x (s_y^4 + s_z^4) / 64 |w_x| w_x (and cyclically).
// The wrench acts at the centre of mass: qfrc += Jp^T force + Jr^T torque.
void fluid_forces(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  const double beta = m.options.viscosity, rho = m.options.density;
  for (int i = 1; i < b.count(); ++i) {
    const double mass = b.mass[i];
    if (mass < kMinValue) continue;
    const Vector3d& inertia = b.inertia[i];
    const Vector3d box(
        std::sqrt(std::max(kMinValue, inertia[1] + inertia[2] - inertia[0]) / mass * 6),
        std::sqrt(std::max(kMinValue, inertia[0] + inertia[2] - inertia[1]) / mass * 6),
        std::sqrt(std::max(kMinValue, inertia[0] + inertia[1] - inertia[2]) / mass * 6));
    // Body velocity at the centre of mass, in the inertial frame: cvel is
    // about subtree_com[root], so v_com = v_ref + w x (xipos - ref).
    const Vector3d offset = d.xipos[i] - d.subtree_com[b.root[i]];
    const Vector3d w_world = angular(d.cvel[i]);
    const Vector3d v_world = linear(d.cvel[i]) + w_world.cross(offset);
    const Matrix3d& rot = d.ximat[i];
    const Vector3d w = rot.transpose() * w_world;
    const Vector3d v = rot.transpose() * (v_world - m.options.wind);

    Vector3d torque = Vector3d::Zero(), force = Vector3d::Zero();
    if (beta > 0) {
      const double diameter = (box[0] + box[1] + box[2]) / 3;
      torque -= M_PI * diameter * diameter * diameter * beta * w;
      force -= 3 * M_PI * diameter * beta * v;
    }
    if (rho > 0) {
      force[0] -= 0.5 * rho * box[1] * box[2] * std::abs(v[0]) * v[0];
      force[1] -= 0.5 * rho * box[0] * box[2] * std::abs(v[1]) * v[1];
      force[2] -= 0.5 * rho * box[0] * box[1] * std::abs(v[2]) * v[2];
      torque[0] -=
          rho * box[0] * (std::pow(box[1], 4) + std::pow(box[2], 4)) / 64 * std::abs(w[0]) * w[0];
      torque[1] -=
          rho * box[1] * (std::pow(box[0], 4) + std::pow(box[2], 4)) / 64 * std::abs(w[1]) * w[1];
      torque[2] -=
          rho * box[2] * (std::pow(box[0], 4) + std::pow(box[1], 4)) / 64 * std::abs(w[2]) * w[2];
    }
    const Vector3d force_world = rot * force, torque_world = rot * torque;
    for (int k = last_dof_of_chain(m, i); k >= 0; k = m.dofs.parent[k]) {
      const Vector3d axis = angular(d.cdof[k]);
      d.qfrc_passive[k] +=
          force_world.dot(linear(d.cdof[k]) + axis.cross(offset)) + torque_world.dot(axis);
    }
  }
}

}  // namespace

void passive_forces(const Model& m, Data& d) {
  // Tendon velocities are needed whether or not passive forces are on.
  d.ten_velocity.noalias() = d.ten_J * d.qvel;
  d.qfrc_passive.setZero();
  if (!m.options.flags.passive) return;

  joint_springs(m, d);

  // Dof damping: -b qvel.
  for (int k = 0; k < m.nv; ++k) d.qfrc_passive[k] -= m.dofs.damping[k] * d.qvel[k];

  // Tendon spring-dampers: f = -k (L - L_spring) - b L', mapped by J^T.
  const Tendons& t = m.tendons;
  for (int i = 0; i < t.count(); ++i) {
    const double force =
        -t.stiffness[i] * (d.ten_length[i] - t.length_spring[i]) - t.damping[i] * d.ten_velocity[i];
    if (force != 0) d.qfrc_passive += force * d.ten_J.row(i).transpose();
  }

  if (m.options.density > 0 || m.options.viscosity > 0) fluid_forces(m, d);
}

}  // namespace pliant
