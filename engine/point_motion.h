#pragma once

// The motion of a point attached to a body, from the velocity stage
// (cvel, cdof_dot), without forming its Jacobian: what a step needs where
// it would otherwise multiply a 3 x nv Jacobian by qvel.

#include "pliant/data.h"

namespace pliant {

// Jp qvel: the velocity of the world point `point` moving with `body` (m/s).
Vector3d point_velocity(const Model& model, const Data& data, const Vector3d& point, int body);

// (d/dt Jp) qvel: the point's acceleration at zero qacc (m/s^2), as
// jacobian_dot (pliant/jacobian.h) times qvel.
Vector3d point_velocity_product(const Model& model, const Data& data, const Vector3d& point,
                                int body);

}  // namespace pliant
