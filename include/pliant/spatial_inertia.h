#pragma once

// The inertia of a rigid body about a reference point, as MuJoCo's cinert.

#include <array>

#include "pliant/eigen_types.h"

namespace pliant {

// Inertia of a rigid body about a reference point, as MuJoCo's 10-vector:
// rotational inertia about the point (xx, yy, zz, xy, xz, yz), mass times the
// offset of the centre of mass from the point, and mass.
struct SpatialInertia {
  std::array<double, 6> rotational{};  // kg m^2
  Vector3d first_moment{0, 0, 0};      // kg m
  double mass = 0;                     // kg

  // Momentum (angular; linear) of a body with this inertia moving with
  // `motion` = (w; v): angular I w + h x v, linear m v - h x w, with h the
  // first moment (mass times centre offset). Each entry is summed in MuJoCo
  // 3.3.8's order (left to right as written), so mass matrices and bias
  // forces round as 3.3.8's do.
  Vector6d apply(const Vector6d& motion) const {
    const double wx = motion[0], wy = motion[1], wz = motion[2];
    const double vx = motion[3], vy = motion[4], vz = motion[5];
    const auto& r = rotational;
    const double hx = first_moment[0], hy = first_moment[1], hz = first_moment[2];
    Vector6d out;
    out << r[0] * wx + r[3] * wy + r[4] * wz - hz * vy + hy * vz,
        r[3] * wx + r[1] * wy + r[5] * wz + hz * vx - hx * vz,
        r[4] * wx + r[5] * wy + r[2] * wz - hy * vx + hx * vy, hz * wy - hy * wz + mass * vx,
        hx * wz - hz * wx + mass * vy, hy * wx - hx * wy + mass * vz;
    return out;
  }
  SpatialInertia& operator+=(const SpatialInertia& other) {
    for (int i = 0; i < 6; ++i) rotational[i] += other.rotational[i];
    first_moment += other.first_moment;
    mass += other.mass;
    return *this;
  }
};

}  // namespace pliant
