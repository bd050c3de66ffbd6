#include "engine/spatial.h"

namespace pliant {

SpatialInertia spatial_inertia(double mass, const Vector3d& principal, const Matrix3d& rotation,
                               const Vector3d& offset) {
  // Rotate the principal moments into the world, then move them from the
  // centre of mass to the reference point: I + m (|d|^2 E - d d^T).
  const Matrix3d tensor = rotation * principal.asDiagonal() * rotation.transpose();
  const double d2 = offset.squaredNorm();
  SpatialInertia out;
  out.rotational = {tensor(0, 0) + mass * (d2 - offset.x() * offset.x()),
                    tensor(1, 1) + mass * (d2 - offset.y() * offset.y()),
                    tensor(2, 2) + mass * (d2 - offset.z() * offset.z()),
                    tensor(0, 1) - mass * offset.x() * offset.y(),
                    tensor(0, 2) - mass * offset.x() * offset.z(),
                    tensor(1, 2) - mass * offset.y() * offset.z()};
  out.first_moment = mass * offset;
  out.mass = mass;
  return out;
}

}  // namespace pliant
