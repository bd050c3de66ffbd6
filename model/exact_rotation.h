#pragma once

// Rotations computed with the rounding of MuJoCo 2.2.2: every product and sum
// is written out in MuJoCo's order (and built without floating-point
// contraction), so that principal frames of mesh and body inertias come out
// the same to the last bit.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pliant {

// Rotation matrix of a unit quaternion (w, x, y, z), each entry written out.
Eigen::Matrix3d quat_to_matrix(const Eigen::Quaterniond& q);

// Eigen-decomposition of a symmetric 3x3 matrix as MuJoCo 2.2.2 does it
// (mju_eig3): Jacobi rotations on the largest off-diagonal entry, accumulated
// in a quaternion, stopped when the largest off-diagonal entry is below 1e-12
// (absolute) or its rotation has 1 - cos(angle) below 1e-12; eigenvalues then
// sorted in decreasing order by 90-degree rotations. mat = R diag(values) R'.
// Returns the number of rotations applied. Useful for body inertia too.
int eigen_decompose_symmetric3(const Eigen::Matrix3d& mat, Eigen::Vector3d* values,
                               Eigen::Quaterniond* frame);

}  // namespace pliant
