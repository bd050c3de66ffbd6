#include "engine/passive.h"

#include <algorithm>
#include <cmath>

#include "engine/kinematics.h"
#include "engine/spatial.h"
#include "model/numeric_limits.h"

namespace pliant {
namespace {

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

// The inertia-box fluid model (MuJoCo docs, "Fluid forces", inertia
// model) replaces each body by the box with its mass and principal inertia:
// side s_x = sqrt(6 (I_y + I_z - I_x) / m), and so on. It works in the
// body's inertial frame R (ximat) on w, the angular velocity, and v, the
// velocity of the centre of mass relative to the wind.
struct FluidBody {
  Vector3d box;     // m, box sides
  Vector3d offset;  // xipos - subtree_com[root]
  Vector3d w, v;    // inertial-frame angular and linear velocity
};

bool fluid_body(const Model& m, const Data& d, int i, FluidBody& out) {
  const Bodies& b = m.bodies;
  const double mass = b.mass[i];
  if (mass < kMinValue) return false;
  const Vector3d& I = b.inertia[i];
  out.box = Vector3d(std::sqrt(std::max(kMinValue, I[1] + I[2] - I[0]) / mass * 6),
                     std::sqrt(std::max(kMinValue, I[0] + I[2] - I[1]) / mass * 6),
                     std::sqrt(std::max(kMinValue, I[0] + I[1] - I[2]) / mass * 6));
  // cvel is about subtree_com[root], so v_com = v_ref + w x (xipos - ref).
  out.offset = d.xipos[i] - d.subtree_com[b.root[i]];
  const Vector3d w_world = angular(d.cvel[i]);
  const Vector3d v_world = linear(d.cvel[i]) + w_world.cross(out.offset);
  out.w = d.ximat[i].transpose() * w_world;
  out.v = d.ximat[i].transpose() * (v_world - m.options.wind);
  return true;
}

// Coefficients of the model, per inertial axis a (b, c the other two):
//   viscous (viscosity beta), d = (s_x + s_y + s_z) / 3:
//     torque = -pi d^3 beta w,  force = -3 pi d beta v;
//   quadratic drag (density rho):
//     force_a -= 0.5 rho s_b s_c |v_a| v_a,
//     torque_a -= rho s_a (s_b^4 + s_c^4) / 64 |w_a| w_a.
struct FluidCoefficients {
  double linear_torque = 0, linear_force = 0;  // viscous
  Vector3d quadratic_torque{0, 0, 0}, quadratic_force{0, 0, 0};
};

FluidCoefficients fluid_coefficients(const Model& m, const Vector3d& box) {
  FluidCoefficients c;
  const double beta = m.options.viscosity, rho = m.options.density;
  if (beta > 0) {
    const double diameter = (box[0] + box[1] + box[2]) / 3;
    c.linear_torque = M_PI * diameter * diameter * diameter * beta;
    c.linear_force = 3 * M_PI * diameter * beta;
  }
  if (rho > 0) {
    for (int a = 0; a < 3; ++a) {
      const double sb = box[(a + 1) % 3], sc = box[(a + 2) % 3];
      c.quadratic_force[a] = 0.5 * rho * sb * sc;
      c.quadratic_torque[a] = rho * box[a] * (std::pow(sb, 4) + std::pow(sc, 4)) / 64;
    }
  }
  return c;
}

// The fluid wrench acts at the centre of mass: qfrc += Jp^T R force +
// Jr^T R torque.
void fluid_forces(const Model& m, Data& d) {
  for (int i = 1; i < m.body_count(); ++i) {
    FluidBody fb;
    if (!fluid_body(m, d, i, fb)) continue;
    const FluidCoefficients c = fluid_coefficients(m, fb.box);
    Vector3d torque = -c.linear_torque * fb.w, force = -c.linear_force * fb.v;
    for (int a = 0; a < 3; ++a) {
      force[a] -= c.quadratic_force[a] * std::abs(fb.v[a]) * fb.v[a];
      torque[a] -= c.quadratic_torque[a] * std::abs(fb.w[a]) * fb.w[a];
    }
    const Vector3d force_world = d.ximat[i] * force, torque_world = d.ximat[i] * torque;
    for (int k = last_dof_of_chain(m, i); k >= 0; k = m.dofs.parent[k]) {
      const Vector3d axis = angular(d.cdof[k]);
      d.qfrc_passive[k] +=
          force_world.dot(linear(d.cdof[k]) + axis.cross(fb.offset)) + torque_world.dot(axis);
    }
  }
}

// Gravity compensation: a force -gravcomp m g at each such body's centre of
// mass, as generalized force J^T f into qfrc_gravcomp.
void gravity_compensation(const Model& m, Data& d) {
  const Vector3d& g = m.options.gravity;
  if (!m.has_gravcomp || !m.options.flags.gravity || g.squaredNorm() == 0) return;
  const Bodies& b = m.bodies;
  for (int i = 1; i < m.body_count(); ++i) {
    if (b.gravcomp[i] == 0) continue;
    const Vector3d force = -b.gravcomp[i] * b.mass[i] * g;
    const Vector3d offset = d.xipos[i] - d.subtree_com[b.root[i]];
    for (int k = last_dof_of_chain(m, i); k >= 0; k = m.dofs.parent[k]) {
      d.qfrc_gravcomp[k] += force.dot(linear(d.cdof[k]) + angular(d.cdof[k]).cross(offset));
    }
  }
}

}  // namespace

void passive_forces(const Model& m, Data& d) {
  // Tendon velocities are needed whether or not passive forces are on.
  d.ten_velocity.noalias() = d.ten_J * d.qvel;
  d.qfrc_passive.setZero();
  d.qfrc_gravcomp.setZero();
  // As MuJoCo 3.x: springs and dampers switch separately; with both off no
  // passive force is computed (fluid and gravity compensation included).
  const bool spring = m.options.flags.spring, damper = m.options.flags.damper;
  if (!spring && !damper) return;
  gravity_compensation(m, d);

  if (spring) joint_springs(m, d);

  // Dof damping: -b qvel.
  if (damper) {
    for (int k = 0; k < m.nv; ++k) d.qfrc_passive[k] -= m.dofs.damping[k] * d.qvel[k];
  }

  // Tendon spring-dampers: f = -k s - b L', mapped by J^T, where s is the
  // stretch beyond the rest length's dead band (tendon_spring_stretch).
  const Tendons& t = m.tendons;
  for (int i = 0; i < t.count(); ++i) {
    const double force = (spring ? -t.stiffness[i] * tendon_spring_stretch(m, d, i) : 0) -
                         (damper ? t.damping[i] * d.ten_velocity[i] : 0);
    if (force != 0) d.qfrc_passive += force * d.ten_J.row(i).transpose();
  }

  if (m.options.density > 0 || m.options.viscosity > 0) fluid_forces(m, d);

  // Gravity compensation is passive force, except on joints that ask for it
  // to count as actuator force (added in actuation()).
  if (m.has_gravcomp) {
    const Joints& j = m.joints;
    for (int k = 0; k < m.nv; ++k) {
      if (!j.actgravcomp[m.dofs.joint[k]]) d.qfrc_passive[k] += d.qfrc_gravcomp[k];
    }
  }
}

void add_fluid_velocity_derivative(const Model& m, const Data& d, Eigen::MatrixXd& qderiv) {
  const OptionFlags& flags = m.options.flags;
  if ((!flags.spring && !flags.damper) || (m.options.density <= 0 && m.options.viscosity <= 0)) {
    return;
  }
  // Each local force component depends on its own velocity component only:
  // D = diag(d torque_a / d w_a, d force_a / d v_a) = -(linear + 2 quadratic
  // |w_a|) and -(linear + 2 quadratic |v_a|). With G_k = R^T [Jr_k; Jp_k]
  // the inertial-frame velocity per unit qvel_k,
  // qDeriv(k1, k2) += sum_a D_a G_k1[a] G_k2[a].
  for (int i = 1; i < m.body_count(); ++i) {
    FluidBody fb;
    if (!fluid_body(m, d, i, fb)) continue;
    const FluidCoefficients c = fluid_coefficients(m, fb.box);
    Vector6d diag;
    for (int a = 0; a < 3; ++a) {
      diag[a] = -(c.linear_torque + 2 * c.quadratic_torque[a] * std::abs(fb.w[a]));
      diag[3 + a] = -(c.linear_force + 2 * c.quadratic_force[a] * std::abs(fb.v[a]));
    }
    const Matrix3d& rot = d.ximat[i];
    for (int k1 = last_dof_of_chain(m, i); k1 >= 0; k1 = m.dofs.parent[k1]) {
      const Vector3d axis1 = angular(d.cdof[k1]);
      Vector6d g1;
      g1 << rot.transpose() * axis1,
          rot.transpose() * (linear(d.cdof[k1]) + axis1.cross(fb.offset));
      const Vector6d dg1 = diag.cwiseProduct(g1);
      for (int k2 = last_dof_of_chain(m, i); k2 >= 0; k2 = m.dofs.parent[k2]) {
        const Vector3d axis2 = angular(d.cdof[k2]);
        Vector6d g2;
        g2 << rot.transpose() * axis2,
            rot.transpose() * (linear(d.cdof[k2]) + axis2.cross(fb.offset));
        qderiv(k1, k2) += dg1.dot(g2);
      }
    }
  }
}

}  // namespace pliant
