#include "engine/body_motion.h"

#include <algorithm>

#include "engine/constraint/solve.h"
#include "engine/spatial.h"

namespace pliant {
namespace {

// Moves a motion vector (w; v) seen at `from` to the point `to`: v + w x (to - from).
Vector6d motion_at(const Vector6d& motion, const Vector3d& from, const Vector3d& to) {
  return spatial(angular(motion), linear(motion) + angular(motion).cross(to - from));
}

// Moves a wrench (torque; force) about `from` to the point `to`.
Vector6d wrench_at(const Vector6d& wrench, const Vector3d& from, const Vector3d& to) {
  return spatial(angular(wrench) - (to - from).cross(linear(wrench)), linear(wrench));
}

Vector6d rotate_into(const Matrix3d& mat, const Vector6d& v) {
  return spatial(mat.transpose() * angular(v), mat.transpose() * linear(v));
}

}  // namespace

ObjectFrame object_frame(const Model& m, const Data& d, ObjectType type, int id) {
  switch (type) {
    case ObjectType::kBody:
      return {d.xipos[id], d.ximat[id], id};
    case ObjectType::kGeom:
      return {d.geom_xpos[id], d.geom_xmat[id], m.geoms.body[id]};
    case ObjectType::kSite:
      return {d.site_xpos[id], d.site_xmat[id], m.sites.body[id]};
    case ObjectType::kCamera: {
      // A tracking or targeting camera is where camera_light_poses put it;
      // a fixed one is composed from its body here, as before.
      const int body = m.cameras.body[id];
      if (m.cameras.mode[id] != 0) return {d.cam_xpos[id], d.cam_xmat[id], body};
      return {d.xpos[body] + d.xmat[body] * m.cameras.pos[id],
              d.xmat[body] * m.cameras.quat[id].toRotationMatrix(), body};
    }
    default:  // kXBody
      return {d.xpos[id], d.xmat[id], id};
  }
}

Quaterniond object_quat(const Model& m, const Data& d, ObjectType type, int id) {
  switch (type) {
    case ObjectType::kBody:
      return d.xquat[id] * m.bodies.iquat[id];
    case ObjectType::kGeom:
      return d.xquat[m.geoms.body[id]] * m.geoms.quat[id];
    case ObjectType::kSite:
      return d.xquat[m.sites.body[id]] * m.sites.quat[id];
    case ObjectType::kCamera:
      // Its body's orientation times its own, whatever its mode: 3.3.8's
      // framequat reads a tracking or targeting camera so (measured), while
      // its position and axes follow cam_xpos and cam_xmat.
      return d.xquat[m.cameras.body[id]] * m.cameras.quat[id];
    default:  // kXBody
      return d.xquat[id];
  }
}

Vector6d object_velocity(const Model& m, const Data& d, ObjectType type, int id, bool local) {
  const ObjectFrame f = object_frame(m, d, type, id);
  const Vector6d v = motion_at(d.cvel[f.body], d.subtree_com[m.bodies.root[f.body]], f.pos);
  return local ? rotate_into(f.mat, v) : v;
}

Vector6d object_acceleration(const Model& m, const Data& d, ObjectType type, int id, bool local) {
  const ObjectFrame f = object_frame(m, d, type, id);
  const Vector3d& com = d.subtree_com[m.bodies.root[f.body]];
  const Vector6d v = motion_at(d.cvel[f.body], com, f.pos);
  Vector6d a = motion_at(d.cacc[f.body], com, f.pos);
  a.tail<3>() += angular(v).cross(linear(v));
  return local ? rotate_into(f.mat, a) : a;
}

void subtree_velocities(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  const int n = b.count();
  // Velocity of body i's centre of mass.
  const auto com_velocity = [&](int i) -> Vector3d {
    return linear(d.cvel[i]) + angular(d.cvel[i]).cross(d.xipos[i] - d.subtree_com[b.root[i]]);
  };
  // Each body's own momentum: linear at its centre of mass, angular about it.
  std::vector<Vector3d>& linvel = d.subtree_linvel;
  std::vector<Vector3d>& angmom = d.subtree_angmom;
  for (int i = 0; i < n; ++i) {
    linvel[i] = b.mass[i] * com_velocity(i);
    angmom[i] = d.ximat[i] * b.inertia[i].cwiseProduct(d.ximat[i].transpose() * angular(d.cvel[i]));
  }
  for (int i = n - 1; i > 0; --i) linvel[b.parent[i]] += linvel[i];
  for (int i = 0; i < n; ++i) linvel[i] /= std::max(b.subtree_mass[i], kMinValue);
  // Angular momenta about each subtree's centre: the body's own motion
  // relative to it, then each child subtree's, carried to the parent.
  for (int i = n - 1; i > 0; --i) {
    angmom[i] += (d.xipos[i] - d.subtree_com[i]).cross(b.mass[i] * (com_velocity(i) - linvel[i]));
    const int p = b.parent[i];
    angmom[p] +=
        angmom[i] +
        (d.subtree_com[i] - d.subtree_com[p]).cross(b.subtree_mass[i] * (linvel[i] - linvel[p]));
  }
}

void constraint_body_forces(const Model& m, Data& d) {
  const Bodies& b = m.bodies;
  const int n = b.count();
  // External wrenches about each tree's centre of mass.
  d.cfrc_ext[0].setZero();
  for (int i = 1; i < n; ++i) {
    const Vector6d& applied = d.xfrc_applied[i];
    if (applied.isZero(0)) {
      d.cfrc_ext[i].setZero();
    } else {
      d.cfrc_ext[i] = wrench_at(applied, d.xipos[i], d.subtree_com[b.root[i]]);
    }
  }
  // Contact wrenches: on geom2's body, minus on geom1's (not on the world).
  double force[6];
  for (int c = 0; c < static_cast<int>(d.contacts.size()); ++c) {
    const Contact& con = d.contacts[c];
    if (con.efc_address < 0) continue;
    contact_force(m, d, c, force);
    const Matrix3d& frame = con.frame;
    const Vector3d f = frame.transpose() * Vector3d(force[0], force[1], force[2]);
    const Vector3d torque =
        con.dim > 3 ? Vector3d(frame.transpose() * Vector3d(force[3], force[4], force[5]))
                    : Vector3d::Zero();
    const int bodies[2] = {m.geoms.body[con.geom1], m.geoms.body[con.geom2]};
    for (int side = 0; side < 2; ++side) {
      const int body = bodies[side];
      if (body == 0) continue;
      const double sign = side == 0 ? -1 : 1;
      const Vector3d arm = d.subtree_com[b.root[body]] - con.pos;
      d.cfrc_ext[body].head<3>() += sign * (torque - arm.cross(f));
      d.cfrc_ext[body].tail<3>() += sign * f;
    }
  }
  // Accelerations with the solved qacc; gravity as the world's acceleration.
  const Vector3d gravity = m.options.flags.gravity ? m.options.gravity : Vector3d::Zero();
  d.cacc[0] = spatial(Vector3d::Zero(), -gravity);
  for (int i = 1; i < n; ++i) {
    Vector6d acc = d.cacc[b.parent[i]];
    for (int k = 0; k < b.dof_count[i]; ++k) {
      const int dof = b.dof_adr[i] + k;
      acc += d.cdof_dot[dof] * d.qvel[dof] + d.cdof[dof] * d.qacc[dof];
    }
    d.cacc[i] = acc;
    d.cfrc_int[i] = d.cinert[i].apply(acc) + cross_force(d.cvel[i], d.cinert[i].apply(d.cvel[i])) -
                    d.cfrc_ext[i];
  }
  d.cfrc_int[0].setZero();
  for (int i = n - 1; i > 0; --i) d.cfrc_int[b.parent[i]] += d.cfrc_int[i];
}

}  // namespace pliant
