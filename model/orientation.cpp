#include "model/orientation.h"

#include <cmath>
#include <vector>

#include "model/attribute_reader.h"
#include "model/numeric_limits.h"
#include "model/spec.h"

namespace pliant {

Eigen::Quaterniond quat_z_to_vector(const Eigen::Vector3d& direction) {
  const Eigen::Vector3d z(0, 0, 1);
  const double length = direction.norm();
  if (length < kMinValue) return Eigen::Quaterniond::Identity();
  const Eigen::Vector3d v = direction / length;
  Eigen::Vector3d axis = z.cross(v);
  const double sine = axis.norm();
  const double cosine = z.dot(v);
  // Parallel or antiparallel: no unique axis, so pick x for the half turn.
  if (sine < 1e-10) {
    return cosine >= 0 ? Eigen::Quaterniond::Identity() : Eigen::Quaterniond(0, 1, 0, 0);
  }
  axis /= sine;
  const double angle = std::atan2(sine, cosine);
  return Eigen::Quaterniond(Eigen::AngleAxisd(angle, axis));
}

Eigen::Quaterniond euler_to_quat(const Eigen::Vector3d& angles, const std::string& sequence) {
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  for (int i = 0; i < 3; ++i) {
    const char c = sequence[i];
    Eigen::Vector3d axis = Eigen::Vector3d::Zero();
    axis[std::tolower(c) - 'x'] = 1;
    const Eigen::Quaterniond r(Eigen::AngleAxisd(angles[i], axis));
    // Moving axes compose on the right, fixed axes on the left.
    q = std::islower(c) ? q * r : r * q;
  }
  return q.normalized();
}

std::optional<Eigen::Quaterniond> read_orientation(AttributeReader& reader,
                                                   const CompilerSettings& compiler) {
  const char* forms[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
  int given = 0;
  for (const char* form : forms) given += reader.has(form) ? 1 : 0;
  if (given == 0) return std::nullopt;
  if (given > 1) {
    reader.fail("<" + reader.node().name +
                "> gives more than one orientation; use only one of quat, axisangle, euler, "
                "xyaxes, zaxis");
  }
  const double angle_unit = compiler.degrees ? M_PI / 180.0 : 1.0;
  Eigen::Vector4d v4;
  Eigen::Vector3d v3;
  Eigen::Matrix<double, 6, 1> v6;
  if (reader.read("quat", v4)) {
    if (v4.norm() < kMinValue) reader.fail("attribute 'quat' must not be zero");
    return Eigen::Quaterniond(v4[0], v4[1], v4[2], v4[3]).normalized();
  }
  if (reader.read("axisangle", v4)) {
    const Eigen::Vector3d axis = v4.head<3>();
    if (axis.norm() < kMinValue) reader.fail("the axis of 'axisangle' must not be zero");
    return Eigen::Quaterniond(Eigen::AngleAxisd(v4[3] * angle_unit, axis.normalized()));
  }
  if (reader.read("euler", v3)) {
    return euler_to_quat(v3 * angle_unit, compiler.eulerseq);
  }
  if (reader.read("xyaxes", v6)) {
    Eigen::Vector3d x = v6.head<3>();
    Eigen::Vector3d y = v6.tail<3>();
    if (x.norm() < kMinValue) reader.fail("the x axis of 'xyaxes' must not be zero");
    x.normalize();
    y -= x * x.dot(y);
    if (y.norm() < kMinValue) reader.fail("the axes of 'xyaxes' must not be parallel");
    y.normalize();
    Eigen::Matrix3d frame;
    frame.col(0) = x;
    frame.col(1) = y;
    frame.col(2) = x.cross(y);
    return Eigen::Quaterniond(frame).normalized();
  }
  reader.read("zaxis", v3);
  if (v3.norm() < kMinValue) reader.fail("attribute 'zaxis' must not be zero");
  return quat_z_to_vector(v3);
}

}  // namespace pliant
