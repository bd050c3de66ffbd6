#include "model/fluid_shape.h"

#include <algorithm>
#include <array>
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

// The 15-point Gauss-Kronrod rule on [0, 1]: its nodes and weights rounded
// to eight decimals, the precision MuJoCo 3.3.8's compiler tabulates them
// at (the rounding, not the rule, sets most of the gap to the exact
// integral).
constexpr std::array<double, 15> kKronrodNodes = {
    0.00427231, 0.02544604, 0.06756779, 0.12923441, 0.20695638, 0.29707742, 0.39610752, 0.5,
    0.60389248, 0.70292258, 0.79304362, 0.87076559, 0.93243221, 0.97455396, 0.99572769};
constexpr std::array<double, 15> kKronrodWeights = {
    0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236, 0.09517529, 0.10221647, 0.10474107,
    0.10221647, 0.09517529, 0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766};

double added_mass_kappa(double a, double b, double c) {
  // l = s x^3 / (1 - x)^2 maps [0, 1) onto [0, inf); dl = s x^2 (3 - x) /
  // (1 - x)^3 dx. In units of s the integrand's factors 1 + l / r^2 stay
  // of order one across the rule.
  const double inv_a2 = 1 / (a * a), inv_b2 = 1 / (b * b), inv_c2 = 1 / (c * c);
  const double scale = std::pow(a * a * a * b * c, 0.4);
  double sum = 0;
  for (size_t i = 0; i < kKronrodNodes.size(); ++i) {
    const double x = kKronrodNodes[i], rest = 1 - x;
    const double l = scale * (x * x * x / (rest * rest));
    const double dl = scale * (x * x * (3 - x) / (rest * rest * rest));
    const double fa = 1 + l * inv_a2;
    sum += dl / (fa * std::sqrt(fa * (1 + l * inv_b2) * (1 + l * inv_c2))) * kKronrodWeights[i];
  }
  return sum * inv_a2;
}

// Following Tuckerman (1925) as MuJoCo's docs state it: with
//   kappa_i = r_x r_y r_z \int_0^inf dl / sqrt((r_i^2 + l)^3 (r_j^2 + l)(r_k^2 + l))
// (added_mass_kappa),
// the virtual mass is V kappa_i / (2 - kappa_i) and the virtual moment of
// inertia V/5 (r_j^2 - r_k^2)^2 (kappa_k - kappa_j) /
// (2 (r_j^2 - r_k^2) + (r_j^2 + r_k^2)(kappa_j - kappa_k)), zero about an
// axis of symmetry. Both divisions are guarded as in MuJoCo 3.3.8: the
// denominators' magnitudes are floored at 1e-15 (an ellipsoid whose other
// two semi-axes are nearly equal) and the inertia's numerator taken in
// magnitude, as its denominator is.
GeomFluid ellipsoid_fluid(GeomType type, const Vector3d& size,
                          const Eigen::Matrix<double, 5, 1>& coefficients) {
  GeomFluid out = GeomFluid::Zero();
  out[0] = 1;
  out.segment<5>(1) = coefficients;
  const Vector3d r = fluid_semi_axes(type, size);
  const double product = r[0] * r[1] * r[2];
  if (!(product > 0)) return out;  // a plane or a degenerate size moves no fluid
  const double volume = 4.0 / 3.0 * std::numbers::pi * product;
  constexpr double kFloor = 1e-15;  // MuJoCo's mjMINVAL
  Vector3d kappa;
  for (int i = 0; i < 3; ++i) {
    kappa[i] = added_mass_kappa(r[i], r[(i + 1) % 3], r[(i + 2) % 3]);
    out[6 + i] = volume * kappa[i] / std::max(kFloor, 2 - kappa[i]);
  }
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double difference = r[j] * r[j] - r[k] * r[k];
    const double denominator =
        std::abs(2 * difference + (r[j] * r[j] + r[k] * r[k]) * (kappa[j] - kappa[k]));
    out[9 + i] =
        volume *
        (difference * difference * std::abs(kappa[k] - kappa[j]) / std::max(kFloor, denominator)) /
        5;
  }
  return out;
}

}  // namespace pliant
