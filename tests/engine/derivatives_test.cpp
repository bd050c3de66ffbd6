#include "engine/derivatives.h"

#include <gtest/gtest.h>

#include "engine/actuation.h"
#include "engine/model_constants.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "tests/engine/velocity_jacobian.h"

namespace pliant {
namespace {

// qDeriv must be d(qfrc_actuator + qfrc_passive - qfrc_bias)/d(qvel): compare
// with central differences of forward() on a model with velocity-dependent
// actuators, damping, a damped tendon within one chain, and Coriolis forces.
TEST(Derivatives, SmoothVelocityDerivativeMatchesFiniteDifferences) {
  Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <body><freejoint/><geom type="box" size="0.1 0.2 0.3"/>
        <body pos="0.2 0 0"><joint name="h1" type="hinge" axis="0 1 0" damping="0.3"/>
          <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
          <body pos="0.4 0 0"><joint name="h2" type="hinge" axis="0 0 1" damping="0.1"/>
            <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/></body></body></body>
    </worldbody>
    <tendon><fixed damping="0.7"><joint joint="h1" coef="1"/><joint joint="h2" coef="-0.5"/>
    </fixed></tendon>
    <actuator>
      <velocity joint="h1" kv="2"/>
      <general joint="h2" gaintype="affine" gainprm="1 0 0.4" biastype="affine"
               biasprm="0 0 -0.3"/>
    </actuator>
    </mujoco>)");
  compute_actuator_constants(m);
  Data d(m);
  d.qpos << 0.1, 0.2, 0.3, 0.9, 0.1, -0.3, 0.2, 0.4, -0.6;
  d.qvel << 0.3, -0.2, 0.5, 1.1, -0.7, 0.4, 2.0, -1.5;
  d.ctrl << 0.5, 1.5;
  forward(m, d);
  Eigen::MatrixXd qderiv;
  smooth_velocity_derivative(m, d, true, qderiv);
  const Eigen::MatrixXd numeric = test::centred_velocity_jacobian(
      m, d, [](const Data& x) { return VectorXd(x.qfrc_actuator + x.qfrc_passive - x.qfrc_bias); });
  for (int j = 0; j < m.nv; ++j) {
    for (int i = 0; i < m.nv; ++i) EXPECT_NEAR(qderiv(i, j), numeric(i, j), 1e-6) << i << "," << j;
  }
  // Without the bias term only the RNE part goes away.
  Eigen::MatrixXd fast;
  smooth_velocity_derivative(m, d, false, fast);
  EXPECT_GT((qderiv - fast).norm(), 1e-3);
}

}  // namespace
}  // namespace pliant
