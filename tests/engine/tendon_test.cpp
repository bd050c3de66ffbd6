#include "engine/tendon.h"

#include <gtest/gtest.h>

#include <cmath>

#include "pliant/forward.h"
#include "pliant/load.h"

namespace pliant {
namespace {

constexpr double kTol = 1e-12;

// Tendon lengths after the position stage at the given qpos.
VectorXd lengths_at(const Model& m, Data& d, const VectorXd& qpos) {
  d.qpos = qpos;
  forward_position(m, d);
  return d.ten_length;
}

// ten_J must be the derivative of ten_length: compare with central
// differences over each (scalar-joint) coordinate.
void expect_jacobian_matches_lengths(const Model& m, const VectorXd& qpos) {
  Data d(m);
  d.qpos = qpos;
  forward_position(m, d);
  const Eigen::MatrixXd jac = d.ten_J;
  const double h = 1e-6;
  for (int k = 0; k < m.nq; ++k) {
    VectorXd plus = qpos, minus = qpos;
    plus[k] += h;
    minus[k] -= h;
    const VectorXd numeric = (lengths_at(m, d, plus) - lengths_at(m, d, minus)) / (2 * h);
    for (int t = 0; t < m.tendons.count(); ++t) {
      EXPECT_NEAR(jac(t, k), numeric[t], 1e-7) << "tendon " << t << " dof " << k;
    }
  }
}

TEST(Tendon, FixedTendonIsLinearInJointPositions) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <body><joint name="a" type="hinge"/><geom size="0.1"/>
        <body pos="0 0 -1"><joint name="b" type="slide"/><geom size="0.1"/></body>
      </body>
    </worldbody>
    <tendon><fixed><joint joint="a" coef="2"/><joint joint="b" coef="-0.5"/></fixed></tendon>
    </mujoco>)");
  Data d(m);
  d.qpos << 0.3, -0.7;
  forward_position(m, d);
  EXPECT_NEAR(d.ten_length[0], 2 * 0.3 - 0.5 * -0.7, kTol);
  EXPECT_NEAR(d.ten_J(0, 0), 2, kTol);
  EXPECT_NEAR(d.ten_J(0, 1), -0.5, kTol);
}

TEST(Tendon, SiteToSiteLengthAndJacobianAlongASlide) {
  // The moving site sits 2 m along x from the fixed one and slides along x.
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <site name="a" pos="0 0 0"/>
      <body pos="2 0 0"><joint type="slide" axis="1 0 0"/><geom size="0.1"/>
        <site name="b"/></body>
    </worldbody>
    <tendon><spatial><site site="a"/><site site="b"/></spatial></tendon>
    </mujoco>)");
  Data d(m);
  d.qpos << 0.25;
  forward_position(m, d);
  EXPECT_NEAR(d.ten_length[0], 2.25, kTol);
  EXPECT_NEAR(d.ten_J(0, 0), 1, kTol);
}

TEST(Tendon, PulleyDividesTheBranchAfterIt) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <site name="a" pos="0 0 0"/><site name="b" pos="3 0 0"/>
      <site name="c" pos="0 1 0"/><site name="d" pos="0 1 4"/>
    </worldbody>
    <tendon><spatial>
      <site site="a"/><site site="b"/><pulley divisor="2"/><site site="c"/><site site="d"/>
    </spatial></tendon>
    </mujoco>)");
  Data d(m);
  forward_position(m, d);
  EXPECT_NEAR(d.ten_length[0], 3 + 4.0 / 2, kTol);
}

// Ends at (-a, 0) and (a, 0) on both sides of a circle of radius r, wrapping
// over the top (side site above): two tangents of length sqrt(a^2 - r^2) and
// an arc of angle pi - 2 acos(r / a).
double symmetric_wrap_length(double a, double r) {
  return 2 * std::sqrt(a * a - r * r) + r * (M_PI - 2 * std::acos(r / a));
}

TEST(Tendon, SphereWrapOverTheSideSiteMatchesTheClosedForm) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom name="ball" type="sphere" size="0.1" contype="0" conaffinity="0"/>
      <site name="p0" pos="-0.3 0 0"/><site name="p1" pos="0.3 0 0"/>
      <site name="side" pos="0 0.5 0"/>
    </worldbody>
    <tendon><spatial>
      <site site="p0"/><geom geom="ball" sidesite="side"/><site site="p1"/>
    </spatial></tendon>
    </mujoco>)");
  Data d(m);
  forward_position(m, d);
  EXPECT_NEAR(d.ten_length[0], symmetric_wrap_length(0.3, 0.1), kTol);
}

TEST(Tendon, CylinderWrapRisesAlongAHelix) {
  // Projected path as in the sphere case; the height difference h turns the
  // whole path into sqrt(L2d^2 + h^2), since height grows linearly with the
  // projected length.
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom name="drum" type="cylinder" size="0.1 0.5" contype="0" conaffinity="0"/>
      <site name="p0" pos="-0.3 0 -0.2"/><site name="p1" pos="0.3 0 0.1"/>
      <site name="side" pos="0 0.5 0"/>
    </worldbody>
    <tendon><spatial>
      <site site="p0"/><geom geom="drum" sidesite="side"/><site site="p1"/>
    </spatial></tendon>
    </mujoco>)");
  Data d(m);
  forward_position(m, d);
  const double planar = symmetric_wrap_length(0.3, 0.1);
  EXPECT_NEAR(d.ten_length[0], std::sqrt(planar * planar + 0.3 * 0.3), kTol);
}

TEST(Tendon, NoWrapWhenTheStraightPathMissesTheGeom) {
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom name="ball" type="sphere" size="0.1" contype="0" conaffinity="0"/>
      <site name="p0" pos="-0.3 0.2 0"/><site name="p1" pos="0.3 0.2 0"/>
    </worldbody>
    <tendon><spatial><site site="p0"/><geom geom="ball"/><site site="p1"/></spatial></tendon>
    </mujoco>)");
  Data d(m);
  forward_position(m, d);
  EXPECT_NEAR(d.ten_length[0], 0.6, kTol);
}

TEST(Tendon, JacobianIsTheDerivativeOfTheLengthWithWrapping) {
  // Two hinged links; tendons through sites, around a cylinder on the first
  // link and a sphere on the world, with a pulley.
  const Model m = load_model_from_string(R"(
    <mujoco><worldbody>
      <site name="w" pos="-0.2 0.15 0"/>
      <geom name="ball" type="sphere" pos="0.05 0.3 0" size="0.05" contype="0" conaffinity="0"/>
      <body><joint type="hinge" axis="0 0 1"/>
        <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03"/>
        <geom name="drum" type="cylinder" pos="0.5 0 0" size="0.06 0.05" contype="0"
              conaffinity="0"/>
        <site name="a" pos="0.3 0.08 0"/>
        <body pos="0.5 0 0"><joint type="hinge" axis="0 0 1"/><joint type="hinge" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03"/>
          <site name="b" pos="0.15 0.07 0.02"/><site name="c" pos="0.3 -0.02 0.05"/>
        </body>
      </body>
    </worldbody>
    <tendon>
      <spatial><site site="a"/><geom geom="drum"/><site site="b"/></spatial>
      <spatial><site site="w"/><geom geom="ball"/><site site="c"/><pulley divisor="3"/>
        <site site="a"/><site site="b"/></spatial>
    </tendon>
    </mujoco>)");
  VectorXd qpos(3);
  qpos << 0.4, 1.1, 0.3;
  expect_jacobian_matches_lengths(m, qpos);
  qpos << -0.7, 2.0, -0.2;
  expect_jacobian_matches_lengths(m, qpos);
}

}  // namespace
}  // namespace pliant
