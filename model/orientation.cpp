#include "model/orientation.h"

#include <cmath>
#include <vector>

#include "model/attribute_reader.h"
#include "model/exact_rotation.h"
#include "model/numeric_limits.h"
#include "model/spec.h"
#include "model/unit_quaternion.h"

namespace pliant {

namespace {

// cos(angle / 2) + sin(angle / 2) (x, y, z) for a unit axis.
Eigen::Quaterniond axis_angle(const double* axis, double angle) {
  const double s = std::sin(angle / 2);
  return Eigen::Quaterniond(std::cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s);
}

// The quaternion of a frame given by its unit columns x, y, z (z = x cross
// y), by the largest of its four components, as 3.3.8's compiler finds it.
Eigen::Quaterniond frame_quat(const double* x, const double* y, const double* z) {
  const double* c[3] = {x, y, z};  // c[column][row]
  double q[4];
  if (c[0][0] + c[1][1] + c[2][2] > 0) {
    q[0] = 0.5 * std::sqrt(1 + c[0][0] + c[1][1] + c[2][2]);
    q[1] = 0.25 * (c[1][2] - c[2][1]) / q[0];
    q[2] = 0.25 * (c[2][0] - c[0][2]) / q[0];
    q[3] = 0.25 * (c[0][1] - c[1][0]) / q[0];
  } else if (c[0][0] > c[1][1] && c[0][0] > c[2][2]) {
    q[1] = 0.5 * std::sqrt(1 + c[0][0] - c[1][1] - c[2][2]);
    q[0] = 0.25 * (c[1][2] - c[2][1]) / q[1];
    q[2] = 0.25 * (c[1][0] + c[0][1]) / q[1];
    q[3] = 0.25 * (c[2][0] + c[0][2]) / q[1];
  } else if (c[1][1] > c[2][2]) {
    q[2] = 0.5 * std::sqrt(1 - c[0][0] + c[1][1] - c[2][2]);
    q[0] = 0.25 * (c[2][0] - c[0][2]) / q[2];
    q[1] = 0.25 * (c[1][0] + c[0][1]) / q[2];
    q[3] = 0.25 * (c[2][1] + c[1][2]) / q[2];
  } else {
    q[3] = 0.5 * std::sqrt(1 - c[0][0] - c[1][1] + c[2][2]);
    q[0] = 0.25 * (c[0][1] - c[1][0]) / q[3];
    q[1] = 0.25 * (c[2][0] + c[0][2]) / q[3];
    q[2] = 0.25 * (c[2][1] + c[1][2]) / q[3];
  }
  normalize_as_compiler(q, 4);
  return Eigen::Quaterniond(q[0], q[1], q[2], q[3]);
}

}  // namespace

Eigen::Quaterniond quat_z_to_vector(const Eigen::Vector3d& direction) {
  double z[3] = {direction[0], direction[1], direction[2]};
  normalize_as_compiler(z, 3);
  double axis[3] = {-z[1], z[0], 0};  // +z cross z
  const double sine = normalize_as_compiler(axis, 3);
  // Parallel or antiparallel (3.3.8's threshold, measured: a direction
  // 1e-7 off z counts as parallel, 1.00001e-7 does not): no unique axis, so
  // a half turn about x, or none.
  if (sine <= 1e-7) {
    const double x[3] = {1, 0, 0};
    return unit_as_compiler(axis_angle(x, z[2] > 0 ? 0.0 : M_PI));
  }
  return unit_as_compiler(axis_angle(axis, std::atan2(sine, z[2])));
}

Eigen::Quaterniond euler_to_quat(const Eigen::Vector3d& angles, const std::string& sequence) {
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  for (int i = 0; i < 3; ++i) {
    const char c = sequence[i];
    double axis[3] = {0, 0, 0};
    axis[std::tolower(c) - 'x'] = 1;
    const Eigen::Quaterniond r = axis_angle(axis, angles[i]);
    // Moving axes compose on the right, fixed axes on the left.
    q = std::islower(c) ? quat_mul(q, r) : quat_mul(r, q);
  }
  return unit_as_compiler(q);
}

double degrees_as_compiler(double degrees) { return degrees / 180 * M_PI; }

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
  // Degrees become radians as 3.3.8's orientations take them (d / 180 * pi;
  // joint ranges multiply by pi / 180 instead, compiler.cpp).
  const auto radians = [&](double a) { return compiler.degrees ? degrees_as_compiler(a) : a; };
  Eigen::Vector4d v4;
  Eigen::Vector3d v3;
  Eigen::Matrix<double, 6, 1> v6;
  if (reader.read("quat", v4)) {
    if (v4.norm() < kMinValue) reader.fail("attribute 'quat' must not be zero");
    return unit_as_compiler(Eigen::Quaterniond(v4[0], v4[1], v4[2], v4[3]));
  }
  if (reader.read("axisangle", v4)) {
    double axis[3] = {v4[0], v4[1], v4[2]};
    if (v4.head<3>().norm() < kMinValue) reader.fail("the axis of 'axisangle' must not be zero");
    normalize_as_compiler(axis, 3);
    return unit_as_compiler(axis_angle(axis, radians(v4[3])));
  }
  if (reader.read("euler", v3)) {
    return euler_to_quat(Eigen::Vector3d(radians(v3[0]), radians(v3[1]), radians(v3[2])),
                         compiler.eulerseq);
  }
  if (reader.read("xyaxes", v6)) {
    double x[3] = {v6[0], v6[1], v6[2]}, y[3] = {v6[3], v6[4], v6[5]};
    if (v6.head<3>().norm() < kMinValue) reader.fail("the x axis of 'xyaxes' must not be zero");
    normalize_as_compiler(x, 3);
    const double along = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    for (int k = 0; k < 3; ++k) y[k] -= x[k] * along;
    if (Eigen::Vector3d(y[0], y[1], y[2]).norm() < kMinValue) {
      reader.fail("the axes of 'xyaxes' must not be parallel");
    }
    normalize_as_compiler(y, 3);
    const double z[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                         x[0] * y[1] - x[1] * y[0]};
    return frame_quat(x, y, z);
  }
  reader.read("zaxis", v3);
  if (v3.norm() < kMinValue) reader.fail("attribute 'zaxis' must not be zero");
  return quat_z_to_vector(v3);
}

}  // namespace pliant
