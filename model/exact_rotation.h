#pragma once

// Rotations computed with MuJoCo's rounding: every product and sum is
// written out in MuJoCo's order (and built without floating-point
// contraction), so that principal frames of mesh and body inertias, and the
// frames kinematics builds (engine/rotation.h), come out the same to the
// last bit.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pliant {

// Hamilton product a * b, each component summed in MuJoCo's order.
inline Eigen::Quaterniond quat_mul(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return Eigen::Quaterniond(a.w() * b.w() - a.x() * b.x() - a.y() * b.y() - a.z() * b.z(),
                            a.w() * b.x() + a.x() * b.w() + a.y() * b.z() - a.z() * b.y(),
                            a.w() * b.y() - a.x() * b.z() + a.y() * b.w() + a.z() * b.x(),
                            a.w() * b.z() + a.x() * b.y() - a.y() * b.x() + a.z() * b.w());
}

// Rotation matrix of a unit quaternion (w, x, y, z), each entry written out
// as MuJoCo writes it; the identity quaternion gives the identity outright
// (as MuJoCo 3.3.8; the written-out entries are the same numbers).
inline Eigen::Matrix3d quat_matrix(const Eigen::Quaterniond& q) {
  if (q.w() == 1 && q.x() == 0 && q.y() == 0 && q.z() == 0) return Eigen::Matrix3d::Identity();
  const double q00 = q.w() * q.w(), q01 = q.w() * q.x(), q02 = q.w() * q.y(), q03 = q.w() * q.z(),
               q11 = q.x() * q.x(), q12 = q.x() * q.y(), q13 = q.x() * q.z(), q22 = q.y() * q.y(),
               q23 = q.y() * q.z(), q33 = q.z() * q.z();
  Eigen::Matrix3d r;
  r(0, 0) = q00 + q11 - q22 - q33;
  r(1, 1) = q00 - q11 + q22 - q33;
  r(2, 2) = q00 - q11 - q22 + q33;
  r(0, 1) = 2 * (q12 - q03);
  r(0, 2) = 2 * (q13 + q02);
  r(1, 0) = 2 * (q12 + q03);
  r(1, 2) = 2 * (q23 - q01);
  r(2, 0) = 2 * (q13 - q02);
  r(2, 1) = 2 * (q23 + q01);
  return r;
}

// Eigen-decomposition of a symmetric 3x3 matrix as MuJoCo 3.3.8 does it
// (mju_eig3): Jacobi rotations on the largest off-diagonal entry, accumulated
// in a quaternion, stopped when the largest off-diagonal entry is below 1e-12
// (absolute) or its rotation has 1 - cos(angle) below 1e-12; eigenvalues then
// sorted in decreasing order by 90-degree rotations. mat = R diag(values) R'.
// Returns the number of rotations applied. Useful for body inertia too.
int eigen_decompose_symmetric3(const Eigen::Matrix3d& mat, Eigen::Vector3d* values,
                               Eigen::Quaterniond* frame);

}  // namespace pliant
