#pragma once

// The ellipsoid fluid model's per-geom constants (MuJoCo docs, "Fluid
// forces", ellipsoid model): the geom's equivalent ellipsoid and the added
// (virtual) mass and moment of inertia of the fluid it moves, per unit
// fluid density. The compiler stores them in geom_fluid; the engine's
// fluid forces (engine/fluid.cpp) read them.

#include "pliant/model.h"

namespace pliant {

// Semi-axes of the ellipsoid that stands for a geom: a sphere's radius
// thrice, a capsule's radius and radius plus half-length, a cylinder's
// radius and half-length, every other type's three sizes.
Vector3d fluid_semi_axes(GeomType type, const Vector3d& size);

// geom_fluid of a geom with fluidshape="ellipsoid" and the five fluidcoef
// values (blunt drag, slender drag, angular drag, Kutta lift, Magnus lift):
// interaction 1, the coefficients, then the virtual mass and virtual
// inertia along the ellipsoid's axes for unit density.
GeomFluid ellipsoid_fluid(GeomType type, const Vector3d& size,
                          const Eigen::Matrix<double, 5, 1>& coefficients);

// Carlson's symmetric elliptic integral of the second kind,
// R_D(x, y, z) = 3/2 \int_0^inf dt / ((t + z) sqrt((t + x)(t + y)(t + z))),
// for x, y >= 0 (at most one zero) and z > 0, to round-off.
double carlson_rd(double x, double y, double z);

}  // namespace pliant
