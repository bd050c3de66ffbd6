#include "engine/passive.h"

#include <algorithm>
#include <cmath>

#include "engine/fluid.h"
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
  d.qfrc_fluid.setZero();
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

  fluid_forces(m, d);
  d.qfrc_passive += d.qfrc_fluid;

  // Gravity compensation is passive force, except on joints that ask for it
  // to count as actuator force (added in actuation()).
  if (m.has_gravcomp) {
    const Joints& j = m.joints;
    for (int k = 0; k < m.nv; ++k) {
      if (!j.actgravcomp[m.dofs.joint[k]]) d.qfrc_passive[k] += d.qfrc_gravcomp[k];
    }
  }
}

}  // namespace pliant
