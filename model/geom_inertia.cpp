#include "model/geom_inertia.h"

#include <algorithm>
#include <cmath>

#include "model/exact_rotation.h"

namespace pliant {

// Volumes and inertias are written in the order MuJoCo 3.3.8's compiler
// evaluates them, so that masses and moments equal its own to the bit
// (measured over 60 random sizes of each primitive).
double primitive_volume(GeomType type, const Eigen::Vector3d& size) {
  const double r = size[0];
  switch (type) {
    case GeomType::kSphere:
      return 4 * M_PI * r * r * r / 3;
    case GeomType::kCapsule:  // cylinder of half-length size[1] plus two half-spheres
      return M_PI * (r * r * 2 * size[1] + r * r * r * 4 / 3);
    case GeomType::kCylinder:
      return M_PI * r * r * 2 * size[1];
    case GeomType::kEllipsoid:
      return 4 * M_PI * size[0] * size[1] * size[2] / 3;
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
      const double i = 2 * mass * r * r / 5;
      return {i, i, i};
    }
    case GeomType::kCapsule: {
      // The mass splits by volume between the two half-spheres (together a
      // sphere of mass ms = m 4r / (4r + 3H), H = 2h) and the cylinder (mass
      // mc). Across the axis: mc (3r^2 + H^2) / 12 for the cylinder; each
      // half-sphere's own 2/5 ms r^2 moved from 3r/8 off its flat face out to
      // h + 3r/8 adds ms H (3r + 2H) / 8 for the pair. Rounded as MuJoCo
      // 3.3.8 rounds it (measured: 60 of 60 random capsules equal to the bit).
      const double length = 2 * size[1];
      const double ms = mass * 4 * r / (4 * r + 3 * length);
      const double mc = mass - ms;
      const double sphere = 2 * ms * r * r / 5;
      double lateral = mc * (3 * r * r + length * length) / 12;
      double axial = mc * r * r / 2;
      lateral += sphere + ms * length * (3 * r + 2 * length) / 8;
      axial += sphere;
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

SymmetricTensor rotated_inertia(const Eigen::Vector3d& principal, const Eigen::Quaterniond& quat) {
  const Eigen::Matrix3d r = quat_matrix(quat);
  Eigen::Matrix3d t;  // R diag(principal)
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) t(i, j) = r(i, j) * principal[j];
  }
  const auto entry = [&](int a, int b) {  // row b of R diag(principal) times row a of R
    return t(b, 0) * r(a, 0) + t(b, 1) * r(a, 1) + t(b, 2) * r(a, 2);
  };
  return {entry(0, 0), entry(1, 1), entry(2, 2), entry(0, 1), entry(0, 2), entry(1, 2)};
}

SymmetricTensor offset_inertia(double mass, const Eigen::Vector3d& d) {
  return {mass * (d[1] * d[1] + d[2] * d[2]),
          mass * (d[0] * d[0] + d[2] * d[2]),
          mass * (d[0] * d[0] + d[1] * d[1]),
          -mass * d[0] * d[1],
          -mass * d[0] * d[2],
          -mass * d[1] * d[2]};
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
