#pragma once

// The Eigen types Pliant's records use, by their short names.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pliant {

using Eigen::Matrix3d;
using Eigen::Quaterniond;  // unit; Eigen stores (x, y, z, w), Pliant reads (w, x, y, z)
using Eigen::Vector2d;
using Eigen::Vector3d;
using Eigen::Vector4d;
using Eigen::VectorXd;
using Vector5d = Eigen::Matrix<double, 5, 1>;
using Vector6d = Eigen::Matrix<double, 6, 1>;  // spatial: (angular; linear)

}  // namespace pliant
