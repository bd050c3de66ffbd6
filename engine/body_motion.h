#pragma once

// Motion of frames and subtrees, as sensors read it: the pose, velocity and
// acceleration of any frame object (body, body frame, geom, site, camera),
// subtree momenta, and the body wrenches after the constraint solver.

#include "pliant/data.h"

namespace pliant {

// A frame object's pose in the world and the body it moves with.
struct ObjectFrame {
  Vector3d pos;
  Matrix3d mat;
  int body = 0;
};

// kBody is the body's inertial frame (xipos), kXBody its body frame (xpos);
// kGeom, kSite and kCamera their own frames. Needs kinematics.
ObjectFrame object_frame(const Model& model, const Data& data, ObjectType type, int id);
// The same frame's orientation as the product of its body's quaternion and
// its own (not renormalised), as MuJoCo's frame sensors give it.
Quaterniond object_quat(const Model& model, const Data& data, ObjectType type, int id);

// (angular; linear) velocity of the frame's origin, in the world frame or,
// when `local`, in the frame's own axes. Needs com_velocities.
Vector6d object_velocity(const Model& model, const Data& data, ObjectType type, int id, bool local);

// (angular; linear) acceleration of the frame's origin with the centripetal
// term w x v added to the linear part, gravity included as an upward
// acceleration (a body at rest reads +g up). Needs constraint_body_forces.
Vector6d object_acceleration(const Model& model, const Data& data, ObjectType type, int id,
                             bool local);

// subtree_linvel (velocity of each subtree's centre of mass) and
// subtree_angmom (its angular momentum about that centre). Needs
// com_velocities.
void subtree_velocities(const Model& model, Data& data);

// cacc with the solved qacc, cfrc_ext (xfrc_applied and contact forces) and
// cfrc_int (the wrench each body's parent exerts on its subtree). Needs the
// constraint solver's forces.
void constraint_body_forces(const Model& model, Data& data);

}  // namespace pliant
