#include "solvers/cost.h"

#include <gtest/gtest.h>

#include <random>

#include "tests/solvers/synthetic_problem.h"

namespace pliant {
namespace {

// Each non-elliptic row type: force = -d cost / d jar by central
// differences, on both sides of every threshold.
TEST(RowCost, ForceIsMinusTheDerivativeForEveryRowType) {
  const double r = 0.3, d = 1 / r, fl = 0.7;
  for (RowType type :
       {RowType::kEquality, RowType::kFrictionDof, RowType::kFrictionTendon, RowType::kLimitJoint,
        RowType::kLimitTendon, RowType::kContactFrictionless, RowType::kContactPyramidal}) {
    for (double jar = -2.0; jar <= 2.0; jar += 0.0371) {
      double force, plus_force, minus_force;
      RowState state;
      row_cost(type, jar, r, d, fl, &force, &state);
      const double h = 1e-6;
      const double plus = row_cost(type, jar + h, r, d, fl, &plus_force, &state);
      const double minus = row_cost(type, jar - h, r, d, fl, &minus_force, &state);
      EXPECT_NEAR(force, -(plus - minus) / (2 * h), 1e-6)
          << "type " << static_cast<int>(type) << " jar " << jar;
    }
  }
}

TEST(RowCost, StatesFollowTheThresholds) {
  const double r = 0.5, d = 2, fl = 1;
  double f;
  RowState s;
  row_cost(RowType::kFrictionDof, -0.6, r, d, fl, &f, &s);
  EXPECT_EQ(s, RowState::kLinearNeg);
  EXPECT_EQ(f, fl);
  row_cost(RowType::kFrictionDof, 0.6, r, d, fl, &f, &s);
  EXPECT_EQ(s, RowState::kLinearPos);
  EXPECT_EQ(f, -fl);
  row_cost(RowType::kFrictionDof, 0.4, r, d, fl, &f, &s);
  EXPECT_EQ(s, RowState::kQuadratic);
  EXPECT_DOUBLE_EQ(f, -0.8);
  row_cost(RowType::kLimitJoint, 0.1, r, d, fl, &f, &s);
  EXPECT_EQ(s, RowState::kSatisfied);
  EXPECT_EQ(f, 0);
  row_cost(RowType::kContactPyramidal, -0.1, r, d, fl, &f, &s);
  EXPECT_EQ(s, RowState::kQuadratic);
  row_cost(RowType::kEquality, 0.1, r, d, fl, &f, &s);
  EXPECT_EQ(s, RowState::kQuadratic);
  // The Huber cost is continuous at jar = +-R fl.
  const double inside = row_cost(RowType::kFrictionDof, r * fl - 1e-12, r, d, fl, &f, &s);
  const double outside = row_cost(RowType::kFrictionDof, r * fl + 1e-12, r, d, fl, &f, &s);
  EXPECT_NEAR(inside, outside, 1e-11);
}

// Elliptic cones of dimension 3, 4 and 6 in all three zones: force by
// central differences of the cost, the Hessian by central differences of
// the force, and continuity across the zone boundaries.
TEST(EllipticCone, ForceAndHessianMatchFiniteDifferences) {
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal(0, 1);
  int zones[5] = {0, 0, 0, 0, 0};
  for (int dim : {3, 4, 6}) {
    ConeGroup cone;
    cone.dim = dim;
    for (int j = 0; j < 5; ++j) cone.friction[j] = 0.4 + 0.2 * j;
    cone.mu = 0.7;
    double d[6];
    for (int j = 0; j < dim; ++j) d[j] = 1.5 + j;
    for (int trial = 0; trial < 300; ++trial) {
      double jar[6], force[6], hessian[36];
      RowState state[6];
      for (int j = 0; j < dim; ++j) jar[j] = normal(rng);
      elliptic_cone_cost(cone, d, jar, force, state, hessian);
      ++zones[static_cast<int>(state[0])];
      const double h = 1e-6;
      for (int k = 0; k < dim; ++k) {
        double plus[6], minus[6], fp[6], fm[6];
        RowState s[6];
        std::copy(jar, jar + dim, plus);
        std::copy(jar, jar + dim, minus);
        plus[k] += h;
        minus[k] -= h;
        const double cp = elliptic_cone_cost(cone, d, plus, fp, s, nullptr);
        const double cm = elliptic_cone_cost(cone, d, minus, fm, s, nullptr);
        EXPECT_NEAR(force[k], -(cp - cm) / (2 * h), 1e-5 * (1 + std::abs(force[k])));
        if (state[0] != RowState::kCone) continue;
        for (int i = 0; i < dim; ++i) {
          EXPECT_NEAR(hessian[i * dim + k], -(fp[i] - fm[i]) / (2 * h),
                      1e-4 * (1 + std::abs(hessian[i * dim + k])))
              << "dim " << dim << " entry " << i << "," << k;
        }
      }
    }
  }
  EXPECT_GT(zones[static_cast<int>(RowState::kSatisfied)], 0);
  EXPECT_GT(zones[static_cast<int>(RowState::kQuadratic)], 0);
  EXPECT_GT(zones[static_cast<int>(RowState::kCone)], 0);
}

// Middle-zone forces lie on the cone's boundary:
// sum (f_j / friction[j-1])^2 = f0^2.
TEST(EllipticCone, MiddleZoneForceIsOnTheConeBoundary) {
  ConeGroup cone;
  cone.dim = 3;
  cone.friction[0] = 0.8;
  cone.friction[1] = 0.5;
  cone.mu = 0.6;
  const double d[3] = {2, 3, 4};
  const double jar[3] = {0.1, 0.9, -0.4};
  double f[3];
  RowState s[3];
  elliptic_cone_cost(cone, d, jar, f, s, nullptr);
  ASSERT_EQ(s[0], RowState::kCone);
  EXPECT_NEAR(std::pow(f[1] / 0.8, 2) + std::pow(f[2] / 0.5, 2), f[0] * f[0], 1e-12);
  EXPECT_GT(f[0], 0);
}

// evaluate_constraints is the sum of the per-row and per-cone costs.
TEST(EvaluateConstraints, SumsEveryRowAndCone) {
  testing::SyntheticProblem sp(6, testing::every_row_type(), 3);
  const ConstraintProblem& p = sp.problem;
  std::vector<double> jar(p.nefc), force(p.nefc);
  std::vector<RowState> state(p.nefc);
  std::mt19937_64 rng(2);
  std::normal_distribution<double> normal(0, 1);
  for (double& v : jar) v = normal(rng);
  const double total = evaluate_constraints(p, jar.data(), state.data(), force.data(), nullptr);
  double sum = 0;
  for (int i = 0; i < p.nefc;) {
    double f[6];
    RowState s[6];
    if (p.type[i] == RowType::kContactElliptic) {
      const ConeGroup& cone = p.cones[p.cone_of_row[i]];
      sum += elliptic_cone_cost(cone, p.D + i, jar.data() + i, f, s, nullptr);
      i += cone.dim;
    } else {
      sum += row_cost(p.type[i], jar[i], p.R[i], p.D[i], p.frictionloss[i], f, s);
      ++i;
    }
  }
  EXPECT_DOUBLE_EQ(total, sum);
}

}  // namespace
}  // namespace pliant
