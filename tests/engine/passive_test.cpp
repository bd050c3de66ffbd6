#include "engine/passive.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine/fluid.h"
#include "model/fluid_shape.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "tests/engine/velocity_jacobian.h"

namespace pliant {
namespace {

constexpr double kTol = 1e-12;

TEST(Passive, HingeSpringAndDofDamping) {
  const Model m = load_model_from_string(R"(
    <mujoco><compiler angle="radian"/><worldbody>
      <body><joint type="hinge" stiffness="4" springref="0.3" damping="0.5"/><geom size="0.1"/>
      </body>
    </worldbody></mujoco>)");
  Data d(m);
  d.qpos << 1.0;
  d.qvel << -2.0;
  forward(m, d);
  EXPECT_NEAR(d.qfrc_passive[0], -4 * (1.0 - 0.3) - 0.5 * -2.0, kTol);
}

TEST(Passive, BallSpringPullsBackAlongTheRotationAxis) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <body><joint type="ball" stiffness="2"/><geom type="capsule" fromto="0 0 0 0.3 0 0"
        size="0.03"/></body>
    </worldbody></mujoco>)");
  Data d(m);
  const double angle = 0.6;
  const Vector3d axis = Vector3d(1, -2, 2).normalized();
  d.qpos << std::cos(angle / 2), std::sin(angle / 2) * axis;
  forward(m, d);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(d.qfrc_passive[k], -2 * angle * axis[k], kTol);
}

TEST(Passive, FreeJointSpringActsOnPositionAndOrientation) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <body pos="0 0 1"><joint type="free" stiffness="3"/><geom size="0.1"/></body>
    </worldbody></mujoco>)");
  Data d(m);
  const double angle = 0.4;
  d.qpos << 0.1, -0.2, 1.5, std::cos(angle / 2), std::sin(angle / 2), 0, 0;
  forward(m, d);
  EXPECT_NEAR(d.qfrc_passive[0], -3 * 0.1, kTol);
  EXPECT_NEAR(d.qfrc_passive[1], -3 * -0.2, kTol);
  EXPECT_NEAR(d.qfrc_passive[2], -3 * 0.5, kTol);
  EXPECT_NEAR(d.qfrc_passive[3], -3 * angle, kTol);
  EXPECT_NEAR(d.qfrc_passive[4], 0, kTol);
}

TEST(Passive, TendonSpringDamperActsThroughItsJacobian) {
  Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <body><joint name="a" type="slide"/><geom size="0.1"/>
        <body><joint name="b" type="slide" axis="0 1 0"/><geom size="0.1"/></body></body>
    </worldbody>
    <tendon><fixed stiffness="5" damping="0.2" springlength="0.1">
      <joint joint="a" coef="1"/><joint joint="b" coef="-2"/></fixed></tendon>
    </mujoco>)");
  Data d(m);
  d.qpos << 0.5, 0.1;
  d.qvel << 1.0, 0.25;
  forward(m, d);
  const double length = 0.5 - 2 * 0.1, velocity = 1.0 - 2 * 0.25;
  EXPECT_NEAR(d.ten_velocity[0], velocity, kTol);
  const double force = -5 * (length - 0.1) - 0.2 * velocity;
  EXPECT_NEAR(d.qfrc_passive[0], force, kTol);
  EXPECT_NEAR(d.qfrc_passive[1], -2 * force, kTol);

  m.options.flags.spring = false;
  m.options.flags.damper = false;
  forward(m, d);
  EXPECT_EQ(d.qfrc_passive.norm(), 0);
  EXPECT_NEAR(d.ten_velocity[0], velocity, kTol);  // still computed
}

// A free box translating along x through the medium: its equivalent
// inertia box is the box itself (sides 2 x half-size).
constexpr const char* kFluidBox = R"(
  <mujoco><option gravity="0 0 0" %s/><worldbody>
    <body><freejoint/><geom type="box" size="0.1 0.2 0.3" mass="3"/></body>
  </worldbody></mujoco>)";

Model fluid_box(const std::string& option) {
  std::string xml = kFluidBox;
  xml.replace(xml.find("%s"), 2, option);
  return load_model_from_string(xml);
}

TEST(Passive, ViscousDragOfTheInertiaBox) {
  const Model m = fluid_box(R"(viscosity="0.5")");
  Data d(m);
  d.qvel << 2, 0, 0, 0, 0, 0.7;
  forward(m, d);
  const double diameter = (0.2 + 0.4 + 0.6) / 3;
  EXPECT_NEAR(d.qfrc_passive[0], -3 * M_PI * diameter * 0.5 * 2, 1e-10);
  EXPECT_NEAR(d.qfrc_passive[5], -M_PI * std::pow(diameter, 3) * 0.5 * 0.7, 1e-10);
}

TEST(Passive, QuadraticDragOfTheInertiaBoxWithWind) {
  const Model m = fluid_box(R"(density="1000" wind="0.5 0 0")");
  Data d(m);
  d.qvel << 2, 0, 0, 0, 0, 0.7;
  forward(m, d);
  // Relative velocity 1.5 along x; frontal area 0.4 x 0.6.
  EXPECT_NEAR(d.qfrc_passive[0], -0.5 * 1000 * 0.4 * 0.6 * 1.5 * 1.5, 1e-9);
  // Spin about z: rho s_z (s_x^4 + s_y^4) / 64 w^2.
  EXPECT_NEAR(d.qfrc_passive[5],
              -1000 * 0.6 * (std::pow(0.2, 4) + std::pow(0.4, 4)) / 64 * 0.7 * 0.7, 1e-9);
}

// d(qfrc_fluid)/d(qvel) against centred differences of the force, for a
// free body and a hinged child, with wind; `fluidshape` picks the model.
void expect_fluid_derivative(const std::string& fluidshape) {
  const Model m = load_model_from_string(R"(
    <mujoco><option density="800" viscosity="0.3" wind="0.2 -0.1 0.3"/><worldbody>
      <body><freejoint/><geom type="box" size="0.1 0.2 0.3" )" +
                                         fluidshape + R"(/>
        <body pos="0.2 0 0"><joint type="hinge" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05" )" +
                                         fluidshape + R"(/>
          <geom type="ellipsoid" pos="0.1 0.1 0" size="0.1 0.05 0.01" )" +
                                         fluidshape + R"(/>
        </body></body>
    </worldbody></mujoco>)");
  Data d(m);
  d.qpos << 0.1, 0.2, 0.3, 0.9, 0.1, -0.3, 0.2, 0.4;
  d.qvel << 0.3, -0.2, 0.5, 1.1, -0.7, 0.4, 2.0;
  forward(m, d);
  for (bool symmetric : {false, true}) {
    Eigen::MatrixXd analytic = Eigen::MatrixXd::Zero(m.nv, m.nv);
    add_fluid_velocity_derivative(m, d, symmetric, analytic);
    Eigen::MatrixXd numeric =
        test::centred_velocity_jacobian(m, d, [](const Data& x) { return x.qfrc_fluid; });
    if (symmetric) numeric = (0.5 * (numeric + numeric.transpose())).eval();
    const double scale = numeric.cwiseAbs().maxCoeff();
    ASSERT_GT(scale, 1);
    for (int j = 0; j < m.nv; ++j) {
      for (int i = 0; i < m.nv; ++i) {
        EXPECT_NEAR(analytic(i, j), numeric(i, j), 1e-7 * scale) << i << "," << j;
      }
    }
  }
}

TEST(Passive, InertiaBoxFluidDerivativeMatchesFiniteDifferences) { expect_fluid_derivative(""); }

TEST(Passive, EllipsoidFluidDerivativeMatchesFiniteDifferences) {
  expect_fluid_derivative(R"(fluidshape="ellipsoid" fluidcoef="0.6 0.3 1.2 0.9 1.1")");
}

// The tabulated quadrature against the exact integral: a sphere's kappa is
// 2/3, and a prolate spheroid's along its long axis has a closed form
// (e = eccentricity: 2 (1 - e^2) / e^3 (atanh(e) - e)). The eight-decimal
// weights keep the rule within 1e-6 of both (3.3.8's numbers, which the
// MuJoCo3.Fields.fluid_ellipsoid comparison checks to round-off).
TEST(Passive, AddedMassKappaIsCloseToTheExactIntegral) {
  EXPECT_NEAR(added_mass_kappa(0.3, 0.3, 0.3), 2.0 / 3.0, 1e-6);
  const double a = 1, b = 0.25, e = std::sqrt(1 - b * b / (a * a));
  const double exact = 2 * (1 - e * e) / (e * e * e) * (std::atanh(e) - e);
  EXPECT_NEAR(added_mass_kappa(a, b, b), exact, 1e-6);
  EXPECT_NE(added_mass_kappa(a, b, b), exact);
  // Invariant under exchanging the last two semi-axes, as the integral is.
  EXPECT_DOUBLE_EQ(added_mass_kappa(0.2, 0.5, 0.1), added_mass_kappa(0.2, 0.1, 0.5));
}

// The virtual mass of a sphere is half the displaced fluid (kappa = 2/3)
// and it has no virtual moment of inertia; a capsule's ellipsoid reaches
// its caps.
TEST(Passive, EllipsoidFluidConstants) {
  const Vector5d coef(0.5, 0.25, 1.5, 1, 1);
  const GeomFluid sphere = ellipsoid_fluid(GeomType::kSphere, Vector3d(0.2, 0, 0), coef);
  const double volume = 4.0 / 3.0 * M_PI * 0.008;
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(sphere[6 + a], volume / 2, 1e-6 * volume);
    EXPECT_EQ(sphere[9 + a], 0);
  }
  EXPECT_EQ(fluid_semi_axes(GeomType::kCapsule, Vector3d(0.1, 0.3, 0)), Vector3d(0.1, 0.1, 0.4));
}

}  // namespace
}  // namespace pliant
