#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>

#include "pliant/model.h"

namespace pliant {

// Volume (m^3) of a primitive geom of the given type and size; 0 for planes,
// height fields and meshes (meshes carry their own).
double primitive_volume(GeomType type, const Eigen::Vector3d& size);

// Principal moments of inertia (kg m^2) of a primitive of mass `mass` about
// its centre, in the geom frame.
Eigen::Vector3d primitive_inertia(GeomType type, const Eigen::Vector3d& size, double mass);

// Surface area (m^2) of a primitive geom, the mass measure of a shell
// (`shellinertia`, as MuJoCo 3.x): exact for sphere, capsule, cylinder and
// box; an ellipsoid's by Thomsen's approximation (p = 1.6075). 0 for planes,
// height fields and meshes.
double primitive_area(GeomType type, const Eigen::Vector3d& size);

// Principal moments of inertia (kg m^2) of a primitive's surface carrying
// mass `mass` uniformly, about its centre, in the geom frame. An ellipsoid's
// is that of a shell 1e-6 m thick grown outward, as MuJoCo 3.x takes it.
Eigen::Vector3d primitive_shell_inertia(GeomType type, const Eigen::Vector3d& size, double mass);

// A symmetric tensor by its six entries: xx, yy, zz, xy, xz, yz.
using SymmetricTensor = std::array<double, 6>;

// The tensor R diag(principal) R' of moments `principal` in a frame turned
// by `quat`, rounded as MuJoCo 3.3.8's compiler rounds it when it adds
// geoms into a body.
SymmetricTensor rotated_inertia(const Eigen::Vector3d& principal, const Eigen::Quaterniond& quat);

// The parallel-axis term m (|d|^2 E - d d') of a point mass `mass` at
// offset `d`, rounded as 3.3.8 rounds it.
SymmetricTensor offset_inertia(double mass, const Eigen::Vector3d& d);

// Bounding-sphere radius about the geom centre (m); 0 for planes.
double primitive_rbound(GeomType type, const Eigen::Vector3d& size);

}  // namespace pliant
