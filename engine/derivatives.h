#pragma once

#include "engine/data.h"

namespace pliant {

// qDeriv = d(qfrc_actuator + qfrc_passive - qfrc_bias) / d(qvel), dense
// nv x nv, at the current state (after forward). `include_bias` false drops
// the RNE term (implicitfast). Used by the implicit integrators.
void smooth_velocity_derivative(const Model& model, Data& data, bool include_bias,
                                Eigen::MatrixXd& qderiv);

}  // namespace pliant
