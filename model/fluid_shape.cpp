#include "model/fluid_shape.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pliant {

Vector3d fluid_semi_axes(GeomType type, const Vector3d& size) {
  switch (type) {
    case GeomType::kSphere:
      return Vector3d::Constant(size[0]);
    case GeomType::kCapsule:
      return Vector3d(size[0], size[0], size[1] + size[0]);
    case GeomType::kCylinder:
      return Vector3d(size[0], size[0], size[1]);
    default:
      return size;
  }
}

// Carlson (1995), "Numerical computation of real or complex elliptic
// integrals": the duplication theorem moves (x, y, z) towards their mean
// by a factor of 4 per step while R_D gains a closed-form term; once the
// three are within 1e-3 of their mean a fifth-order series in the
// remaining spread is exact to (1e-3)^6.
double carlson_rd(double x, double y, double z) {
  double sum = 0, scale = 1;
  for (int step = 0; step < 200; ++step) {
    const double mean = (x + y + 3 * z) / 5;
    const double spread =
        std::max({std::abs(mean - x), std::abs(mean - y), std::abs(mean - z)}) / mean;
    if (spread < 1e-3) {
      const double dx = (mean - x) / mean, dy = (mean - y) / mean, dz = -(dx + dy) / 3;
      const double e2 = dx * dy - 6 * dz * dz;
      const double e3 = (3 * dx * dy - 8 * dz * dz) * dz;
      const double e4 = 3 * (dx * dy - dz * dz) * dz * dz;
      const double e5 = dx * dy * dz * dz * dz;
      const double series = 1 - 3.0 / 14 * e2 + e3 / 6 + 9.0 / 88 * e2 * e2 - 3.0 / 22 * e4 -
                            9.0 / 52 * e2 * e3 + 3.0 / 26 * e5;
      return 3 * sum + scale * series / (mean * std::sqrt(mean));
    }
    const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const double lambda = sx * sy + sx * sz + sy * sz;
    sum += scale / (sz * (z + lambda));
    scale /= 4;
    x = (x + lambda) / 4;
    y = (y + lambda) / 4;
    z = (z + lambda) / 4;
  }
  return 3 * sum;  // not reached for finite positive arguments
}

// Following Tuckerman (1925) as MuJoCo's docs state it: with
//   kappa_i = r_x r_y r_z \int_0^inf dl / sqrt((r_i^2 + l)^3 (r_j^2 + l)(r_k^2 + l))
//           = 2/3 r_x r_y r_z R_D(r_j^2, r_k^2, r_i^2),
// the virtual mass is V kappa_i / (2 - kappa_i) and the virtual moment of
// inertia V/5 (r_j^2 - r_k^2)^2 (kappa_k - kappa_j) /
// (2 (r_j^2 - r_k^2) + (r_j^2 + r_k^2)(kappa_j - kappa_k)), zero about an
// axis of symmetry. Pliant evaluates kappa exactly; MuJoCo 3.3.8 uses a
// quadrature (docs/mujoco3-differences.md gives the measured gap).
GeomFluid ellipsoid_fluid(GeomType type, const Vector3d& size,
                          const Eigen::Matrix<double, 5, 1>& coefficients) {
  GeomFluid out = GeomFluid::Zero();
  out[0] = 1;
  out.segment<5>(1) = coefficients;
  const Vector3d r = fluid_semi_axes(type, size);
  const double product = r[0] * r[1] * r[2];
  if (!(product > 0)) return out;  // a plane or a degenerate size moves no fluid
  const double volume = 4.0 / 3.0 * std::numbers::pi * product;
  Vector3d kappa;
  for (int i = 0; i < 3; ++i) {
    const double rj = r[(i + 1) % 3], rk = r[(i + 2) % 3];
    kappa[i] = 2.0 / 3.0 * product * carlson_rd(rj * rj, rk * rk, r[i] * r[i]);
    out[6 + i] = volume * kappa[i] / (2 - kappa[i]);
  }
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double difference = r[j] * r[j] - r[k] * r[k];
    if (difference == 0) continue;
    const double denominator = 2 * difference + (r[j] * r[j] + r[k] * r[k]) * (kappa[j] - kappa[k]);
    out[9 + i] = volume / 5 * difference * difference * (kappa[k] - kappa[j]) / denominator;
  }
  return out;
}

}  // namespace pliant
