#include "engine/kinematics.h"

#include "engine/rotation.h"
#include "engine/spatial.h"
#include "model/numeric_limits.h"

namespace pliant {

// Walks the tree root to leaves. A body's frame is its parent's composed
// with the fixed offset (pos, quat) and then with each joint in order:
// a slide moves along its world axis by q - q0; a hinge turns by q - q0
// about its axis and a ball by its quaternion, both about the joint anchor
// (so the body frame is moved back to keep the anchor fixed); a free joint
// sets the pose outright. Reference: docs/physics.md §6.
void kinematics(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  const Joints& j = m.joints;
  for (int i = 1; i < b.count(); ++i) {
    Vector3d pos;
    Quaterniond quat;
    const int first = b.joint_adr[i];
    if (b.joint_count[i] == 1 && j.type[first] == JointType::kFree) {
      // A free joint sets the pose outright.
      const int q = j.qpos_adr[first];
      pos = d.qpos.segment<3>(q);
      quat = Quaterniond(d.qpos[q + 3], d.qpos[q + 4], d.qpos[q + 5], d.qpos[q + 6]);
      normalize_quat(quat);
      d.xanchor[first] = pos;
      d.xaxis[first] = j.axis[first];
    } else {
      Vector3d offset = b.pos[i];
      Quaterniond turn = b.quat[i];
      if (b.mocap[i] >= 0) {
        offset = d.mocap_pos[b.mocap[i]];
        turn = d.mocap_quat[b.mocap[i]];
        normalize_quat(turn);
      }
      const int parent = b.parent[i];
      if (parent > 0) {
        pos = frame_point(d.xmat[parent], offset, d.xpos[parent]);
        quat = quat_mul(d.xquat[parent], turn);
      } else {
        pos = offset;
        quat = turn;
      }
      for (int k = 0; k < b.joint_count[i]; ++k) {
        const int jid = first + k;
        const int q = j.qpos_adr[jid];
        const Vector3d axis = quat_rotate(quat, j.axis[jid]);
        const Vector3d anchor = quat_rotate(quat, j.pos[jid]) + pos;
        switch (j.type[jid]) {
          case JointType::kSlide: {
            const double shift = d.qpos[q] - m.qpos0[q];
            pos = Vector3d(pos[0] + axis[0] * shift, pos[1] + axis[1] * shift,
                           pos[2] + axis[2] * shift);
            break;
          }
          case JointType::kBall:
          case JointType::kHinge: {
            Quaterniond local;
            if (j.type[jid] == JointType::kBall) {
              local = Quaterniond(d.qpos[q], d.qpos[q + 1], d.qpos[q + 2], d.qpos[q + 3]);
              normalize_quat(local);
            } else {
              local = axis_angle_quat(j.axis[jid], d.qpos[q] - m.qpos0[q]);
            }
            quat = quat_mul(quat, local);
            pos = anchor - quat_rotate(quat, j.pos[jid]);
            break;
          }
          default:
            break;
        }
        d.xanchor[jid] = anchor;
        d.xaxis[jid] = axis;
      }
    }
    normalize_quat(quat);
    d.xpos[i] = pos;
    d.xquat[i] = quat;
    d.xmat[i] = quat_matrix(quat);
    d.xipos[i] = frame_point(d.xmat[i], b.ipos[i], pos);
    d.ximat[i] = quat_matrix(quat_mul(quat, b.iquat[i]));
  }
  const Geoms& g = m.geoms;
  for (int i = 0; i < g.count(); ++i) {
    const int body = g.body[i];
    d.geom_xpos[i] = frame_point(d.xmat[body], g.pos[i], d.xpos[body]);
    d.geom_xmat[i] = quat_matrix(quat_mul(d.xquat[body], g.quat[i]));
  }
  const Sites& s = m.sites;
  for (int i = 0; i < s.count(); ++i) {
    const int body = s.body[i];
    d.site_xpos[i] = frame_point(d.xmat[body], s.pos[i], d.xpos[body]);
    d.site_xmat[i] = quat_matrix(quat_mul(d.xquat[body], s.quat[i]));
  }
}

void com_positions(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  const int nbody = b.count();
  // Subtree centres of mass: mass-weighted sums, children into parents
  // (ids are depth-first, so a reverse sweep sees children first).
  for (int i = 0; i < nbody; ++i) d.subtree_com[i] = b.mass[i] * d.xipos[i];
  for (int i = nbody - 1; i > 0; --i) d.subtree_com[b.parent[i]] += d.subtree_com[i];
  for (int i = 0; i < nbody; ++i) {
    if (b.subtree_mass[i] < kMinValue) {
      d.subtree_com[i] = d.xipos[i];
    } else {
      d.subtree_com[i] *= 1 / b.subtree_mass[i];  // 3.3.8's rounding: by the reciprocal
    }
  }
  d.cinert[0] = SpatialInertia();
  for (int i = 1; i < nbody; ++i) {
    d.cinert[i] =
        spatial_inertia(b.mass[i], b.inertia[i], d.ximat[i], d.xipos[i] - d.subtree_com[b.root[i]]);
  }
  // Motion axes: slides translate along the world axis; hinges and balls
  // rotate about their anchor; a free joint translates along the world axes
  // and rotates about the body's own axes.
  const Joints& j = m.joints;
  for (int i = 1; i < nbody; ++i) {
    const Vector3d& reference = d.subtree_com[b.root[i]];
    for (int k = 0; k < b.joint_count[i]; ++k) {
      const int jid = b.joint_adr[i] + k;
      const int dof = j.dof_adr[jid];
      switch (j.type[jid]) {
        case JointType::kFree:
          for (int a = 0; a < 3; ++a) {
            d.cdof[dof + a] = spatial(Vector3d::Zero(), Vector3d::Unit(a));
          }
          for (int a = 0; a < 3; ++a) {
            d.cdof[dof + 3 + a] = rotation_dof(d.xmat[i].col(a), d.xanchor[jid], reference);
          }
          break;
        case JointType::kBall:
          for (int a = 0; a < 3; ++a) {
            d.cdof[dof + a] = rotation_dof(d.xmat[i].col(a), d.xanchor[jid], reference);
          }
          break;
        case JointType::kSlide:
          d.cdof[dof] = spatial(Vector3d::Zero(), d.xaxis[jid]);
          break;
        case JointType::kHinge:
          d.cdof[dof] = rotation_dof(d.xaxis[jid], d.xanchor[jid], reference);
          break;
      }
    }
  }
}

// cvel accumulates cdof * qvel down the tree. Each cdof_dot is the cross
// product of the velocity *before* its own joint with its axis; the three
// axes of a ball (and the rotational three of a free joint) share one
// velocity, and a free joint's translations have no derivative.
void com_velocities(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  const Joints& j = m.joints;
  d.cvel[0].setZero();
  for (int i = 1; i < b.count(); ++i) {
    Vector6d velocity = d.cvel[b.parent[i]];
    for (int k = 0; k < b.joint_count[i]; ++k) {
      const int jid = b.joint_adr[i] + k;
      int dof = j.dof_adr[jid];
      switch (j.type[jid]) {
        case JointType::kFree:
          for (int a = 0; a < 3; ++a) {
            d.cdof_dot[dof + a].setZero();
            velocity += d.cdof[dof + a] * d.qvel[dof + a];
          }
          dof += 3;
          [[fallthrough]];
        case JointType::kBall:
          for (int a = 0; a < 3; ++a) d.cdof_dot[dof + a] = cross_motion(velocity, d.cdof[dof + a]);
          for (int a = 0; a < 3; ++a) velocity += d.cdof[dof + a] * d.qvel[dof + a];
          break;
        default:
          d.cdof_dot[dof] = cross_motion(velocity, d.cdof[dof]);
          velocity += d.cdof[dof] * d.qvel[dof];
      }
    }
    d.cvel[i] = velocity;
  }
}

int last_dof_of_chain(const Model& m, int body) {
  const Bodies& b = m.bodies;
  while (body > 0 && b.dof_count[body] == 0) body = b.parent[body];
  return body > 0 ? b.dof_adr[body] + b.dof_count[body] - 1 : -1;
}

}  // namespace pliant
