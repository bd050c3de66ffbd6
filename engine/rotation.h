#pragma once

// Quaternion and frame arithmetic rounded as MuJoCo 3.3.8 rounds it: every
// sum in its order, a normalisation by a reciprocal that leaves a quaternion
// within 1e-15 of unit length alone. Kinematics built from these gives
// geom frames equal to 3.3.8's to the last bit, so the collision functions,
// which follow 3.3.8 step by step, also take its decisions where two faces
// tie (docs/physics.md §6).

#include <cmath>

#include "model/exact_rotation.h"  // quat_mul, quat_matrix
#include "pliant/eigen_types.h"

namespace pliant {

// Normalises q in place (the unit quaternion when |q| < 1e-15; unchanged
// when |q| is within 1e-15 of 1).
inline void normalize_quat(Quaterniond& q) {
  const double n = std::sqrt(q.w() * q.w() + q.x() * q.x() + q.y() * q.y() + q.z() * q.z());
  if (n < 1e-15) {
    q = Quaterniond(1, 0, 0, 0);
  } else if (std::abs(n - 1) > 1e-15) {
    const double inverse = 1 / n;
    q = Quaterniond(q.w() * inverse, q.x() * inverse, q.y() * inverse, q.z() * inverse);
  }
}

// v turned by q.
inline Vector3d quat_rotate(const Quaterniond& q, const Vector3d& v) {
  if (v[0] == 0 && v[1] == 0 && v[2] == 0) return Vector3d::Zero();
  if (q.w() == 1 && q.x() == 0 && q.y() == 0 && q.z() == 0) return v;
  const double w = q.w(), x = q.x(), y = q.y(), z = q.z();
  const double t0 = w * v[0] + y * v[2] - z * v[1];
  const double t1 = w * v[1] + z * v[0] - x * v[2];
  const double t2 = w * v[2] + x * v[1] - y * v[0];
  return {v[0] + 2 * (y * t2 - z * t1), v[1] + 2 * (z * t0 - x * t2), v[2] + 2 * (x * t1 - y * t0)};
}

// The rotation about unit `axis` by `angle`.
inline Quaterniond axis_angle_quat(const Vector3d& axis, double angle) {
  if (angle == 0) return Quaterniond(1, 0, 0, 0);
  const double s = std::sin(angle * 0.5);
  return Quaterniond(std::cos(angle * 0.5), axis[0] * s, axis[1] * s, axis[2] * s);
}

// m v + p, each row's sum in order, the offset added last.
inline Vector3d frame_point(const Matrix3d& m, const Vector3d& v, const Vector3d& p) {
  return {m(0, 0) * v[0] + m(0, 1) * v[1] + m(0, 2) * v[2] + p[0],
          m(1, 0) * v[0] + m(1, 1) * v[1] + m(1, 2) * v[2] + p[1],
          m(2, 0) * v[0] + m(2, 1) * v[1] + m(2, 2) * v[2] + p[2]};
}

}  // namespace pliant
