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

double primitive_area(GeomType type, const Eigen::Vector3d& size) {
  const double r = size[0];
  switch (type) {
    case GeomType::kSphere:
      return 4 * M_PI * r * r;
    case GeomType::kCapsule:  // a sphere plus a tube of length 2h
      return 4 * M_PI * r * r + 2 * M_PI * r * 2 * size[1];
    case GeomType::kCylinder:  // two disks plus the tube
      return 2 * M_PI * r * r + 2 * M_PI * r * 2 * size[1];
    case GeomType::kEllipsoid: {
      const double p = 1.6075;
      const double mean = (std::pow(size[0] * size[1], p) + std::pow(size[1] * size[2], p) +
                           std::pow(size[2] * size[0], p)) /
                          3;
      return 4 * M_PI * std::pow(mean, 1 / p);
    }
    case GeomType::kBox:
      return 8 * (size[0] * size[1] + size[1] * size[2] + size[2] * size[0]);
    default:
      return 0;
  }
}

Eigen::Vector3d primitive_shell_inertia(GeomType type, const Eigen::Vector3d& size, double mass) {
  const double r = size[0];
  switch (type) {
    case GeomType::kSphere: {
      const double i = 2 * mass * r * r / 3;
      return {i, i, i};
    }
    case GeomType::kCapsule: {
      // The mass splits by area between the tube (length 2h: r^2 about its
      // axis, r^2/2 + (2h)^2/12 across) and the two half-spheres (together a
      // sphere shell, 2/3 r^2); each half's centre of mass sits r/2 from its
      // flat face, so across the axis it moves from r/2 to h + r/2.
      const double h = size[1], length = 2 * h;
      const double sphere_area = 4 * M_PI * r * r, tube_area = 2 * M_PI * r * length;
      const double sphere_mass = mass * sphere_area / (sphere_area + tube_area);
      const double tube_mass = mass - sphere_mass;
      const double centre = h + r / 2, own = r / 2;
      const double sphere = 2 * sphere_mass * r * r / 3;
      const double lateral = tube_mass * (6 * r * r + length * length) / 12 + sphere +
                             sphere_mass * (centre * centre - own * own);
      return {lateral, lateral, tube_mass * r * r + sphere};
    }
    case GeomType::kCylinder: {
      // Tube as above; each end disk r^2/4 across (moved h out) and r^2/2
      // about the axis.
      const double h = size[1], length = 2 * h;
      const double disk_area = M_PI * r * r, tube_area = 2 * M_PI * r * length;
      const double disk_mass = mass * disk_area / (2 * disk_area + tube_area);
      const double tube_mass = mass - 2 * disk_mass;
      const double lateral = tube_mass * (6 * r * r + length * length) / 12 +
                             2 * (disk_mass * r * r / 4 + disk_mass * h * h);
      return {lateral, lateral, tube_mass * r * r + 2 * (disk_mass * r * r / 2)};
    }
    case GeomType::kEllipsoid: {
      // The solid grown by eps on each semi-axis minus the solid, at the
      // density that gives the difference `mass`.
      const double eps = 1e-6;
      const Eigen::Vector3d outer = size.array() + eps;
      const double inner_volume = 4 * M_PI * size[0] * size[1] * size[2] / 3;
      const double outer_volume = 4 * M_PI * outer[0] * outer[1] * outer[2] / 3;
      const double density = mass / (outer_volume - inner_volume);
      const Eigen::Vector3d solid_inner = primitive_inertia(type, size, inner_volume * density);
      const Eigen::Vector3d solid_outer = primitive_inertia(type, outer, outer_volume * density);
      return solid_outer - solid_inner;
    }
    case GeomType::kBox: {
      // Three pairs of faces, each a plate with the mass of its area, moved
      // out by the half-size normal to it.
      const Eigen::Vector3d l = 2 * size;
      const double faces = 2 * (l[0] * l[1] + l[1] * l[2] + l[2] * l[0]);
      const double mz = mass * l[0] * l[1] / faces;  // faces normal to z
      const double mx = mass * l[1] * l[2] / faces;  // normal to x
      const double my = mass * l[2] * l[0] / faces;  // normal to y
      const Eigen::Vector3d s2 = size.cwiseProduct(size);
      const Eigen::Vector3d l2 = l.cwiseProduct(l);
      return {2 * (mz * s2[2] + my * s2[1] + mz * l2[1] / 12 + mx * (l2[1] + l2[2]) / 12 +
                   my * l2[2] / 12),
              2 * (mz * s2[2] + mx * s2[0] + mz * l2[0] / 12 + mx * l2[2] / 12 +
                   my * (l2[0] + l2[2]) / 12),
              2 * (mx * s2[0] + my * s2[1] + mz * (l2[0] + l2[1]) / 12 + mx * l2[1] / 12 +
                   my * l2[0] / 12)};
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
