#include "engine/spatial.h"

namespace pliant {

SpatialInertia spatial_inertia(double mass, const Vector3d& principal, const Matrix3d& rotation,
                               const Vector3d& offset) {
  // Rotate the principal moments into the world (R diag(I) R'), then move
  // them from the centre of mass to the reference point: + m (|d|^2 E -
  // d d'). Each entry is summed in MuJoCo 3.3.8's order, so that the mass
  // matrix equals 3.3.8's to the bit where the frames do.
  const Matrix3d& r = rotation;
  Matrix3d t;  // diag(I) R'
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) t(i, j) = r(j, i) * principal[i];
  }
  const auto entry = [&](int a, int b) {
    return r(a, 0) * t(0, b) + r(a, 1) * t(1, b) + r(a, 2) * t(2, b);
  };
  const Vector3d& d = offset;
  SpatialInertia out;
  out.rotational = {entry(0, 0) + mass * (d[1] * d[1] + d[2] * d[2]),
                    entry(1, 1) + mass * (d[0] * d[0] + d[2] * d[2]),
                    entry(2, 2) + mass * (d[0] * d[0] + d[1] * d[1]),
                    entry(0, 1) - mass * d[0] * d[1],
                    entry(0, 2) - mass * d[0] * d[2],
                    entry(1, 2) - mass * d[1] * d[2]};
  out.first_moment = Vector3d(mass * d[0], mass * d[1], mass * d[2]);
  out.mass = mass;
  return out;
}

}  // namespace pliant
