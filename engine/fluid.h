#pragma once

// Fluid forces (MuJoCo docs, "Fluid forces"), on when options.density or
// options.viscosity is positive. A body with a geom whose fluidshape is
// "ellipsoid" (geom_fluid[0] > 0) feels the ellipsoid model on each such
// geom; every other body the inertia-box model of its equivalent inertia
// box.

#include <Eigen/Core>

#include "pliant/data.h"

namespace pliant {

// data.qfrc_fluid = the generalised fluid force (zero without a medium).
// Needs the position stage and com_velocities.
void fluid_forces(const Model& model, Data& data);

// qderiv += d(qfrc_fluid)/d(qvel) (nv x nv, dense) at the current state:
// exact for both models, but for the floor MuJoCo 3.3.8 puts under the
// drag's projected-area slope (engine/fluid.cpp). `symmetric` adds the
// symmetric part of each ellipsoid's derivative, as implicitfast wants.
void add_fluid_velocity_derivative(const Model& model, const Data& data, bool symmetric,
                                   Eigen::MatrixXd& qderiv);

}  // namespace pliant
