#pragma once

// Spatial (6-D) vector algebra in the [angular; linear] convention, with
// velocities and forces expressed in the world frame about a common reference
// point. Featherstone, "Rigid Body Dynamics Algorithms", chapter 2.

#include <cmath>

#include "model/numeric_limits.h"
#include "pliant/eigen_types.h"
#include "pliant/spatial_inertia.h"

namespace pliant {

inline Vector3d angular(const Vector6d& v) { return v.head<3>(); }
inline Vector3d linear(const Vector6d& v) { return v.tail<3>(); }

inline Vector6d spatial(const Vector3d& angular_part, const Vector3d& linear_part) {
  Vector6d out;
  out << angular_part, linear_part;
  return out;
}

// a . b summed as MuJoCo 3.3.8's vector dot product sums six entries: the
// first four in two interleaved pairs, the last two as a pair, then the two
// partial sums (measured: all 243 entries of the humanoid's mass matrix).
inline double dot6(const Vector6d& a, const Vector6d& b) {
  return ((a[0] * b[0] + a[2] * b[2]) + (a[1] * b[1] + a[3] * b[3])) + (a[4] * b[4] + a[5] * b[5]);
}

// Motion cross product v x m: the rate of change of a motion vector m carried
// by a frame moving with velocity v.
inline Vector6d cross_motion(const Vector6d& v, const Vector6d& m) {
  const Vector3d w = angular(v);
  return spatial(w.cross(angular(m)), w.cross(linear(m)) + linear(v).cross(angular(m)));
}

// Force cross product v x* f.
inline Vector6d cross_force(const Vector6d& v, const Vector6d& f) {
  const Vector3d w = angular(v);
  return spatial(w.cross(angular(f)) + linear(v).cross(linear(f)), w.cross(linear(f)));
}

// Motion subspace of a rotation about `axis` through `anchor`, seen at the
// reference point `reference`: [axis; axis x (reference - anchor)].
inline Vector6d rotation_dof(const Vector3d& axis, const Vector3d& anchor,
                             const Vector3d& reference) {
  return spatial(axis, axis.cross(reference - anchor));
}

// Rotation vector (axis times angle, angle in (-pi, pi]) of a quaternion
// that need not be unit: angle = 2 atan2(|v|, w), axis = v / |v|.
inline Vector3d rotation_vector(const Quaterniond& q) {
  const Vector3d v = q.vec();
  const double s = v.norm();
  if (s < kMinValue) return Vector3d::Zero();
  double angle = 2 * std::atan2(s, q.w());
  if (angle > M_PI) angle -= 2 * M_PI;
  return v * (angle / s);
}

// Inertia of a body (mass, principal moments in the frame `rotation`, centre
// at `offset` from the reference point) as a SpatialInertia about that point.
SpatialInertia spatial_inertia(double mass, const Vector3d& principal, const Matrix3d& rotation,
                               const Vector3d& offset);

}  // namespace pliant
