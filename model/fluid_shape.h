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

// Tuckerman's added-mass coefficient along the first semi-axis,
//   kappa(a, b, c) = a b c \int_0^inf dl / sqrt((a^2 + l)^3 (b^2 + l)(c^2 + l)),
// evaluated as MuJoCo 3.3.8's compiler evaluates it: a 15-point
// Gauss-Kronrod rule on [0, 1] after l = s x^3 / (1 - x)^2, with the
// scale s = (a^3 b c)^(2/5) and the rule's nodes and weights rounded to eight
// decimals. The rounding and the finite rule make it differ from the exact
// integral by 3e-7 (a sphere) to 4e-4 (axis ratios of 1:10^4); Pliant
// follows 3.3.8 (docs/mujoco3-differences.md).
double added_mass_kappa(double a, double b, double c);

}  // namespace pliant
