#include "solvers/noslip.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

namespace pliant {
namespace {

double quadratic(const Eigen::MatrixXd& a, const Eigen::VectorXd& b, const Eigen::VectorXd& x) {
  return 0.5 * x.dot(a * x) + b.dot(x);
}

// The ellipse-constrained minimiser of noslip's elliptic step, for
// dimensions 1 to 5: feasible, no worse than random feasible points around
// it, on the boundary when it says the constraint is active, and
// the unconstrained minimiser when that lies inside.
TEST(EllipseQp, MinimisesInsideTheEllipse) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0.2, 2.0);
  int active = 0, inactive = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = 1 + trial % 5;
    Eigen::MatrixXd m = Eigen::MatrixXd::NullaryExpr(n, n, [&] { return normal(rng); });
    const Eigen::MatrixXd a = m * m.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    // Half the trials with a small b: the free minimiser then mostly lies inside.
    const double spread = (trial / 5) % 2 ? 3.0 : 0.05;
    const Eigen::VectorXd b = Eigen::VectorXd::NullaryExpr(n, [&] { return spread * normal(rng); });
    const Eigen::VectorXd d = Eigen::VectorXd::NullaryExpr(n, [&] { return uniform(rng); });
    const double r = uniform(rng);
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> a_rows = a;
    Eigen::VectorXd x(n);
    const bool on = solve_ellipse_qp(n, a_rows.data(), b.data(), d.data(), r, x.data());
    const double level = x.cwiseQuotient(d).norm();
    if (on) {
      ++active;
      EXPECT_NEAR(level, r, 1e-6 * r) << trial;
    } else {
      // Inside, up to the 1e-10 (in squared scaled length) at which the
      // Newton iteration accepts a point as inside. (An active answer may
      // lie off the ellipse by the iteration's tolerance; noslip puts it on.)
      ++inactive;
      EXPECT_LE(level * level, r * r + 1.01e-10) << trial;
      const Eigen::VectorXd free = a.ldlt().solve(-b);
      EXPECT_LT((x - free).norm(), 1e-9 * (1 + free.norm())) << trial;
    }
    if (on) x *= r / level;
    const double best = quadratic(a, b, x);
    for (int k = 0; k < 50; ++k) {
      Eigen::VectorXd y =
          x + 0.1 * r * Eigen::VectorXd::NullaryExpr(n, [&] { return normal(rng); });
      const double scaled = y.cwiseQuotient(d).norm();
      if (scaled > r) y *= r / scaled;
      EXPECT_GE(quadratic(a, b, y), best - 1e-9 * (1 + std::abs(best))) << trial;
    }
  }
  EXPECT_GT(active, 50);
  EXPECT_GT(inactive, 50);
}

}  // namespace
}  // namespace pliant
