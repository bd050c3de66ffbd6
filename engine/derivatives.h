#pragma once

#include "pliant/data.h"

namespace pliant {

// qDeriv = d(qfrc_actuator + qfrc_passive - qfrc_bias) / d(qvel), dense
// nv x nv, at the current state (after forward): affine and muscle actuator
// velocity slopes, dof and tendon damping, the inertia-box fluid model and
// the RNE term. As in MuJoCo 2.2.2, actuator and tendon couplings are kept
// only between dofs on one chain (the sparsity of M); force clamping is not
// differentiated. `include_bias` false drops the RNE term (implicitfast).
// Used by the implicit integrators. Leaves the velocity-stage results of
// `data` as they were.
void smooth_velocity_derivative(const Model& model, Data& data, bool include_bias,
                                Eigen::MatrixXd& qderiv);

}  // namespace pliant
