#pragma once

#include <Eigen/Core>

#include "model/model.h"

namespace pliant {

// Volume (m^3) of a primitive geom of the given type and size; 0 for planes,
// height fields and meshes (meshes carry their own).
double primitive_volume(GeomType type, const Eigen::Vector3d& size);

// Principal moments of inertia (kg m^2) of a primitive of mass `mass` about
// its centre, in the geom frame.
Eigen::Vector3d primitive_inertia(GeomType type, const Eigen::Vector3d& size, double mass);

// Bounding-sphere radius about the geom centre (m); 0 for planes.
double primitive_rbound(GeomType type, const Eigen::Vector3d& size);

}  // namespace pliant
