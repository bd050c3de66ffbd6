#include "model/geom_inertia.h"

#include <algorithm>
#include <cmath>

namespace pliant {

double primitive_volume(GeomType type, const Eigen::Vector3d& size) {
  const double r = size[0];
  switch (type) {
    case GeomType::kSphere:
      return 4.0 / 3.0 * M_PI * r * r * r;
    case GeomType::kCapsule:  // cylinder of half-length size[1] plus two half-spheres
      return M_PI * r * r * (2 * size[1] + 4.0 / 3.0 * r);
    case GeomType::kCylinder:
      return M_PI * r * r * 2 * size[1];
    case GeomType::kEllipsoid:
      return 4.0 / 3.0 * M_PI * size[0] * size[1] * size[2];
    case GeomType::kBox:
      return 8 * size[0] * size[1] * size[2];
    default:
      return 0;
  }
}

Eigen::Vector3d primitive_inertia(GeomType type, const Eigen::Vector3d& size, double mass) {
  const double r = size[0];
  switch (type) {
    case GeomType::kSphere: {
      const double i = 0.4 * mass * r * r;
      return {i, i, i};
    }
    case GeomType::kCapsule: {
      // Split the mass by volume between the cylinder (length 2h) and the two
      // half-spheres. Each half-sphere's centre of mass sits 3r/8 from its
      // flat face; move its own inertia there (parallel axis) and then out to
      // the capsule centre at distance h + 3r/8.
      const double h = size[1];
      const double cylinder_volume = M_PI * r * r * 2 * h;
      const double sphere_volume = 4.0 / 3.0 * M_PI * r * r * r;
      const double density = mass / (cylinder_volume + sphere_volume);
      const double mc = density * cylinder_volume;
      const double hemisphere = density * sphere_volume / 2;
      const double offset = 3.0 * r / 8.0;
      const double hemisphere_axial = 0.4 * hemisphere * r * r;
      const double hemisphere_lateral = hemisphere_axial - hemisphere * offset * offset +
                                        hemisphere * (h + offset) * (h + offset);
      const double lateral = mc * (3 * r * r + 4 * h * h) / 12 + 2 * hemisphere_lateral;
      const double axial = mc * r * r / 2 + 2 * hemisphere_axial;
      return {lateral, lateral, axial};
    }
    case GeomType::kCylinder: {
      const double h = size[1];
      const double lateral = mass * (3 * r * r + 4 * h * h) / 12;
      return {lateral, lateral, mass * r * r / 2};
    }
    case GeomType::kEllipsoid: {
      const double a2 = size[0] * size[0], b2 = size[1] * size[1], c2 = size[2] * size[2];
      return {mass * (b2 + c2) / 5, mass * (a2 + c2) / 5, mass * (a2 + b2) / 5};
    }
    case GeomType::kBox: {
      const double a2 = size[0] * size[0], b2 = size[1] * size[1], c2 = size[2] * size[2];
      return {mass * (b2 + c2) / 3, mass * (a2 + c2) / 3, mass * (a2 + b2) / 3};
    }
    default:
      return {0, 0, 0};
  }
}

double primitive_rbound(GeomType type, const Eigen::Vector3d& size) {
  switch (type) {
    case GeomType::kSphere:
      return size[0];
    case GeomType::kCapsule:
      return size[0] + size[1];
    case GeomType::kCylinder:
      return std::sqrt(size[0] * size[0] + size[1] * size[1]);
    case GeomType::kEllipsoid:
      return size.maxCoeff();
    case GeomType::kBox:
      return size.norm();
    default:
      return 0;
  }
}

}  // namespace pliant
