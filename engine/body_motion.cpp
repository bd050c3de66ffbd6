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
  ObjectFrame f;
  switch (type) {
    case ObjectType::kBody:
      f = {d.xipos[id], d.ximat[id], d.xquat[id] * m.bodies.iquat[id], id};
      break;
    case ObjectType::kGeom: {
      const int body = m.geoms.body[id];
      f = {d.geom_xpos[id], d.geom_xmat[id], d.xquat[body] * m.geoms.quat[id], body};
      break;
    }
    case ObjectType::kSite: {
      const int body = m.sites.body[id];
      f = {d.site_xpos[id], d.site_xmat[id], d.xquat[body] * m.sites.quat[id], body};
      break;
    }
    case ObjectType::kCamera: {
      const int body = m.cameras.body[id];
      const Quaterniond quat = d.xquat[body] * m.cameras.quat[id];
      f = {d.xpos[body] + d.xmat[body] * m.cameras.pos[id],
           d.xmat[body] * m.cameras.quat[id].toRotationMatrix(), quat, body};
      break;
    }
    default:  // kXBody
      f = {d.xpos[id], d.xmat[id], d.xquat[id], id};
  }
  return f;
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
  // Each body's own momentum: linear at its centre of mass, angular about it.
  std::vector<Vector3d>& linvel = d.subtree_linvel;
  std::vector<Vector3d>& angmom = d.subtree_angmom;
  for (int i = 0; i < n; ++i) {
    const Vector6d v = object_velocity(m, d, ObjectType::kBody, i, false);
    linvel[i] = b.mass[i] * linear(v);
    angmom[i] = d.ximat[i] * b.inertia[i].cwiseProduct(d.ximat[i].transpose() * angular(v));
  }
  for (int i = n - 1; i > 0; --i) linvel[b.parent[i]] += linvel[i];
  for (int i = 0; i < n; ++i) linvel[i] /= std::max(b.subtree_mass[i], kMinValue);
  // Angular momenta about each subtree's centre: the body's own motion
  // relative to it, then each child subtree's, carried to the parent.
  for (int i = n - 1; i >= 0; --i) {
    const Vector6d v = object_velocity(m, d, ObjectType::kBody, i, false);
    angmom[i] += (d.xipos[i] - d.subtree_com[i]).cross(b.mass[i] * (linear(v) - linvel[i]));
    if (i == 0) break;
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
  for (int i = 0; i < n; ++i) {
    d.cfrc_ext[i] = wrench_at(d.xfrc_applied[i], d.xipos[i], d.subtree_com[b.root[i]]);
  }
  d.cfrc_ext[0].setZero();
  double force[6];
  for (int c = 0; c < static_cast<int>(d.contacts.size()); ++c) {
    const Contact& con = d.contacts[c];
    if (con.efc_address < 0) continue;
    contact_force(m, d, c, force);
    const Matrix3d& frame = con.frame;
    const Vector6d world = spatial(frame.transpose() * Vector3d(force[3], force[4], force[5]),
                                   frame.transpose() * Vector3d(force[0], force[1], force[2]));
    const int body1 = m.geoms.body[con.geom1], body2 = m.geoms.body[con.geom2];
    d.cfrc_ext[body1] -= wrench_at(world, con.pos, d.subtree_com[b.root[body1]]);
    d.cfrc_ext[body2] += wrench_at(world, con.pos, d.subtree_com[b.root[body2]]);
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
