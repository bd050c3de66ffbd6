#include "solvers/pgs_solver.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

namespace pliant {
namespace {

double block_cost(const Eigen::MatrixXd& a, const Eigen::VectorXd& g, const Eigen::VectorXd& f) {
  return 0.5 * f.dot(a * f) + g.dot(f);
}

bool in_cone(const Eigen::VectorXd& f, const double* friction, double slack) {
  double t = 0;
  for (int j = 1; j < f.size(); ++j) t += std::pow(f[j] / friction[j - 1], 2);
  return f[0] >= -slack && std::sqrt(t) <= f[0] + slack;
}

// Projection onto the cone f0 >= |(f_j / w_j)| in the scaled space.
Eigen::VectorXd project(Eigen::VectorXd f, const double* w) {
  const int n = static_cast<int>(f.size());
  Eigen::VectorXd y = f;
  for (int j = 1; j < n; ++j) y[j] = f[j] / w[j - 1];
  const double t = y.tail(n - 1).norm();
  if (t <= y[0]) return f;
  if (t <= -y[0]) return Eigen::VectorXd::Zero(n);
  const double s = 0.5 * (y[0] + t);
  y[0] = s;
  y.tail(n - 1) *= s / t;
  f[0] = y[0];
  for (int j = 1; j < n; ++j) f[j] = y[j] * w[j - 1];
  return f;
}

// The exact cone-block minimiser against random feasible points around it
// (projections of perturbations onto the cone), for dimensions 3, 4 and 6.
TEST(ConeBlock, SolvesTheConeConstrainedQuadratic) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> normal(0, 1);
  const double friction[5] = {1, 0.7, 0.05, 0.02, 0.02};
  for (int dim : {3, 4, 6}) {
    for (int trial = 0; trial < 50; ++trial) {
      Eigen::MatrixXd b(dim, dim);
      for (int i = 0; i < dim; ++i) {
        for (int k = 0; k < dim; ++k) b(i, k) = normal(rng);
      }
      Eigen::MatrixXd a = b * b.transpose() + 0.5 * Eigen::MatrixXd::Identity(dim, dim);
      Eigen::VectorXd g(dim);
      for (int i = 0; i < dim; ++i) g[i] = 3 * normal(rng);
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rm = a;
      Eigen::VectorXd f(dim);
      solve_cone_block(dim, friction, rm.data(), g.data(), f.data());
      ASSERT_TRUE(in_cone(f, friction, 1e-9));
      const double best = block_cost(a, g, f);
      // No feasible point nearby (projected random perturbations, small and
      // large) is cheaper: for a convex problem that is the optimum.
      for (int k = 0; k < 400; ++k) {
        const double size = k % 2 ? 1e-3 : 1e-1;
        Eigen::VectorXd trial_point = f;
        for (int j = 0; j < dim; ++j) trial_point[j] += size * normal(rng);
        trial_point = project(trial_point, friction);
        EXPECT_GE(block_cost(a, g, trial_point), best - 1e-12 * (1 + std::abs(best)));
      }
    }
  }
}

}  // namespace
}  // namespace pliant
