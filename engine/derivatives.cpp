#include "engine/derivatives.h"

namespace pliant {

void smooth_velocity_derivative(const Model& model, Data&, bool, Eigen::MatrixXd& qderiv) {
  qderiv.setZero(model.nv, model.nv);
}

}  // namespace pliant
