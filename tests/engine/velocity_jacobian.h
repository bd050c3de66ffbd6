#pragma once

// The derivative of a generalised force with respect to qvel by centred
// differences, for the tests of analytic velocity derivatives.

#include <Eigen/Core>

#include "pliant/data.h"
#include "pliant/forward.h"

namespace pliant::test {

// Column j: (force(qvel + h e_j) - force(qvel - h e_j)) / 2h, each side
// forwarded from `data`; `force` reads an nv-vector from a forwarded Data.
template <class Force>
Eigen::MatrixXd centred_velocity_jacobian(const Model& m, const Data& data, Force force,
                                          double h = 1e-6) {
  Eigen::MatrixXd out(m.nv, m.nv);
  for (int j = 0; j < m.nv; ++j) {
    Data p = data, q = data;
    p.qvel[j] += h;
    q.qvel[j] -= h;
    forward(m, p);
    forward(m, q);
    out.col(j) = (force(p) - force(q)) / (2 * h);
  }
  return out;
}

}  // namespace pliant::test
