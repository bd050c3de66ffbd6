#include "solvers/newton_solver.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "solvers/cg_solver.h"
#include "solvers/cost.h"
#include "solvers/envelope_cholesky.h"
#include "solvers/newton_hessian.h"
#include "solvers/pgs_solver.h"
#include "solvers/workspace.h"
#include "tests/solvers/synthetic_problem.h"

namespace pliant {
namespace {

// A random SPD matrix with a random envelope, into `h` and a dense copy.
Eigen::MatrixXd random_envelope_matrix(int n, std::mt19937_64& rng, EnvelopeCholesky& h) {
  std::uniform_real_distribution<double> uniform(0, 1);
  h.begin_pattern(n);
  for (int i = 0; i < n; ++i) h.widen(i, std::max(0, i - static_cast<int>(uniform(rng) * 5)));
  h.finish_pattern();
  h.clear_values();
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = h.first(i); j < i; ++j) dense(i, j) = dense(j, i) = uniform(rng) - 0.5;
    dense(i, i) = 3 + uniform(rng);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = h.first(i); j <= i; ++j) h.at(i, j) = dense(i, j);
  }
  return dense;
}

TEST(EnvelopeCholesky, SolvesLikeADenseFactorisation) {
  std::mt19937_64 rng(1);
  for (int n : {1, 5, 30}) {
    EnvelopeCholesky h;
    const Eigen::MatrixXd dense = random_envelope_matrix(n, rng, h);
    ASSERT_TRUE(h.factor());
    Eigen::VectorXd b = Eigen::VectorXd::Random(n), x = b;
    h.solve(x.data());
    EXPECT_LT((dense * x - b).norm(), 1e-12 * b.norm());
  }
}

// Rank-1 updates and downdates inside the envelope give the factor of the
// updated matrix (compared with a fresh factorisation).
TEST(EnvelopeCholesky, RankOneUpdatesMatchAFreshFactorisation) {
  std::mt19937_64 rng(2);
  std::normal_distribution<double> normal(0, 1);
  const int n = 25;
  EnvelopeCholesky h;
  Eigen::MatrixXd dense = random_envelope_matrix(n, rng, h);
  ASSERT_TRUE(h.factor());
  std::vector<Eigen::VectorXd> added;
  for (int step = 0; step < 12; ++step) {
    // A vector within the envelope of its first entry's rows.
    Eigen::VectorXd v = Eigen::VectorXd::Zero(n);
    const int first = static_cast<int>(rng() % (n - 3));
    int last = first;
    while (last + 1 < n && h.first(last + 1) <= first) ++last;
    for (int k = first; k <= last; ++k) v[k] = normal(rng);
    const bool downdate = step % 3 == 2;
    if (downdate) {
      v = added.back();
      added.pop_back();
      dense -= v * v.transpose();
    } else {
      added.push_back(v);
      dense += v * v.transpose();
    }
    Eigen::VectorXd work = v;
    ASSERT_TRUE(h.rank_one(work.data(), downdate));
    EXPECT_EQ(work.norm(), 0);
    EnvelopeCholesky fresh = h;
    for (int i = 0; i < n; ++i) {
      for (int j = fresh.first(i); j <= i; ++j) fresh.at(i, j) = dense(i, j);
    }
    ASSERT_TRUE(fresh.factor());
    double worst = 0;
    for (int i = 0; i < n; ++i) {
      for (int j = h.first(i); j <= i; ++j) {
        worst = std::max(worst, std::abs(h.at(i, j) - fresh.at(i, j)));
      }
    }
    EXPECT_LT(worst, 1e-12) << "step " << step;
  }
}

// The envelope factor (two entries of a row at a time) does the row
// formula's operations in its order: bit for bit equal to it, on rows of
// odd and even length, with rows that start at their diagonal and zeros in
// the matrix.
TEST(EnvelopeCholesky, EnvelopeFactorIsBitIdenticalToTheRowFormulas) {
  std::mt19937_64 rng(4);
  std::normal_distribution<double> normal(0, 1);
  for (int n : {1, 2, 17, 40}) {
    EnvelopeCholesky h;
    h.begin_pattern(n);
    for (int i = 0; i < n; ++i) h.widen(i, std::max(0, i - static_cast<int>(rng() % 9)));
    h.finish_pattern();
    h.clear_values();
    Eigen::MatrixXd hessian = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = h.first(i); j < i; ++j) {
        hessian(i, j) = hessian(j, i) = rng() % 4 == 0 ? 0.0 : normal(rng);
      }
      hessian(i, i) = 10 + std::abs(normal(rng));
    }
    for (int i = 0; i < n; ++i) {
      for (int j = h.first(i); j <= i; ++j) h.at(i, j) = hessian(i, j);
    }
    ASSERT_TRUE(h.factor());
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(n, n);
    std::vector<double> inverse(n);
    for (int i = 0; i < n; ++i) {
      for (int j = h.first(i); j <= i; ++j) {
        double sum = hessian(i, j);
        for (int k = std::max(h.first(i), h.first(j)); k < j; ++k) sum -= l(i, k) * l(j, k);
        if (j < i) {
          l(i, j) = sum * inverse[j];
        } else {
          l(i, i) = std::sqrt(sum);
          inverse[i] = 1 / l(i, i);
        }
      }
    }
    for (int i = 0; i < n; ++i) {
      for (int j = h.first(i); j <= i; ++j) {
        ASSERT_EQ(h.at(i, j), l(i, j)) << "n " << n << " (" << i << ", " << j << ")";
      }
    }
  }
}

// The dense layout's factor, rank-1 updates and solves (two columns per
// sweep) do the row envelope's operations in its order: bit for bit equal
// to the textbook formulas, on even and odd sizes, with zeros in the
// matrix, the update vectors and the right-hand sides.
TEST(EnvelopeCholesky, DenseLayoutIsBitIdenticalToTheRowFormulas) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> normal(0, 1);
  for (int n : {26, 27}) {
    Eigen::MatrixXd b(n, n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) b(i, j) = rng() % 4 == 0 ? 0.0 : normal(rng);
    }
    const Eigen::MatrixXd hessian = b * b.transpose() + n * Eigen::MatrixXd::Identity(n, n);
    EnvelopeCholesky h;
    h.begin_pattern(n);
    h.make_dense();
    h.finish_pattern();
    h.clear_values();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) h.at(i, j) = hessian(i, j);
    }
    ASSERT_TRUE(h.factor());
    // L(i, j) = (H(i, j) - sum_k L(i, k) L(j, k)) / L(j, j), k ascending.
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(n, n);
    std::vector<double> inverse(n);
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j <= i; ++j) {
        double sum = hessian(i, j);
        for (int k = 0; k < j; ++k) sum -= l(i, k) * l(j, k);
        if (j < i) {
          l(i, j) = sum * inverse[j];
        } else {
          l(i, i) = std::sqrt(sum);
          inverse[i] = 1 / l(i, i);
        }
      }
    }
    const auto expect_equal = [&](const char* when) {
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j <= i; ++j) {
          ASSERT_EQ(h.at(i, j), l(i, j)) << when << " n " << n << " (" << i << ", " << j << ")";
        }
      }
    };
    expect_equal("factor");
    for (int update = 0; update < 6; ++update) {
      std::vector<double> v(n, 0.0);
      const int first = static_cast<int>(rng() % (n - 2));
      for (int k = first; k < n; ++k) v[k] = rng() % 3 == 0 ? 0.0 : normal(rng);
      const bool downdate = update % 3 == 2;
      std::vector<double> w = v;
      ASSERT_TRUE(h.rank_one(v.data(), downdate, first));
      // Column by column: r = sqrt(L_jj^2 +- w_j^2), then each row below.
      const double sign = downdate ? -1 : 1;
      for (int j = first; j < n; ++j) {
        if (w[j] == 0) continue;
        const double ljj = l(j, j), r = std::sqrt(ljj * ljj + sign * w[j] * w[j]);
        const double c = r / ljj, s = w[j] / ljj, inverse_c = ljj / r;
        l(j, j) = r;
        w[j] = 0;
        for (int k = j + 1; k < n; ++k) {
          l(k, j) = (l(k, j) + sign * s * w[k]) * inverse_c;
          w[k] = c * w[k] - s * l(k, j);
        }
      }
      expect_equal(downdate ? "downdate" : "update");
    }
    // Solves, with zeros in the right-hand side: forward and backward
    // substitution, each x taking its products in order.
    for (int trial = 0; trial < 4; ++trial) {
      std::vector<double> x(n);
      for (int i = 0; i < n; ++i) x[i] = rng() % 3 == 0 ? 0.0 : normal(rng);
      std::vector<double> expected = x;
      h.solve(x.data());
      for (int i = 0; i < n; ++i) {
        double t = expected[i];
        for (int k = 0; k < i; ++k) t -= l(i, k) * expected[k];
        expected[i] = t * (1 / l(i, i));
      }
      for (int i = n - 1; i >= 0; --i) {
        double t = expected[i];
        for (int k = n - 1; k > i; --k) t -= l(k, i) * expected[k];
        expected[i] = t * (1 / l(i, i));
      }
      for (int i = 0; i < n; ++i) ASSERT_EQ(x[i], expected[i]) << "solve n " << n << " x " << i;
    }
  }
}

// A downdate that removes more than the matrix holds reports rank loss.
TEST(EnvelopeCholesky, DowndateReportsRankLoss) {
  EnvelopeCholesky h;
  h.begin_pattern(2);
  h.make_dense();
  h.finish_pattern();
  h.clear_values();
  h.at(0, 0) = 1;
  h.at(1, 1) = 1;
  ASSERT_TRUE(h.factor());
  double v[2] = {2, 0};
  EXPECT_FALSE(h.rank_one(v, true));
  EXPECT_EQ(v[0], 0);
}

enum class Method { kNewton, kCg, kPgs };

struct Answer {
  std::vector<double> qacc, force;
  SolverStatistics stats;
};

Answer run(const ConstraintProblem& p, Method solver) {
  SolverWorkspace w;
  if (solver == Method::kNewton) solve_newton(p, w);
  if (solver == Method::kCg) solve_cg(p, w);
  if (solver == Method::kPgs) solve_pgs(p, w);
  return {w.result.qacc, w.result.force, w.result.statistics};
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0, scale = 1e-300;
  for (size_t i = 0; i < a.size(); ++i) {
    worst = std::max(worst, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return worst / scale;
}

// One workspace solving problems of changing sizes in turn (a step's
// islands, largest first, then the next step's) gives each the answer a
// fresh workspace gives, to the bit: the arrays it grew for a larger
// problem serve the smaller ones, and a larger one grows them again.
TEST(Solvers, OneWorkspaceServesProblemsOfChangingSize) {
  SolverWorkspace shared;
  unsigned seed = 40;
  for (const int nv : {10, 4, 16, 4, 16, 7}) {
    for (const Method method : {Method::kNewton, Method::kCg, Method::kPgs}) {
      testing::SyntheticProblem sp(nv, testing::every_row_type(), ++seed, false);
      const ConstraintProblem& p = sp.problem;
      if (method == Method::kNewton) solve_newton(p, shared);
      if (method == Method::kCg) solve_cg(p, shared);
      if (method == Method::kPgs) solve_pgs(p, shared);
      const Answer fresh = run(p, method);
      EXPECT_EQ(shared.result.qacc, fresh.qacc) << "nv " << nv;
      EXPECT_EQ(shared.result.force, fresh.force) << "nv " << nv;
    }
  }
}

// Newton (dense and envelope Hessian), CG and PGS reach the same optimum
// on random problems with every row type. With the tolerance below
// round-off the first-order methods stop when the cost stops decreasing in
// floating point, which bounds their distance to the optimum by about
// sqrt(eps) of the cost's scale: 5e-8 here.
TEST(Solvers, NewtonCgAndPgsAgreeOnSyntheticProblems) {
  for (unsigned seed = 0; seed < 12; ++seed) {
    testing::SyntheticProblem sp(10, testing::every_row_type(), seed, seed % 2 == 1);
    ConstraintProblem& p = sp.problem;
    p.tolerance = 1e-20;
    p.dense_hessian = true;
    const Answer newton = run(p, Method::kNewton);
    p.dense_hessian = false;
    const Answer envelope = run(p, Method::kNewton);
    const Answer cg = run(p, Method::kCg);
    p.iterations = 20000;
    const Answer pgs = run(p, Method::kPgs);
    EXPECT_TRUE(newton.stats.converged);
    EXPECT_LT(max_difference(envelope.qacc, newton.qacc), 1e-10) << "seed " << seed;
    EXPECT_LT(max_difference(cg.qacc, newton.qacc), 5e-8) << "seed " << seed;
    EXPECT_LT(max_difference(cg.force, newton.force), 5e-8) << "seed " << seed;
    EXPECT_LT(max_difference(pgs.qacc, newton.qacc), 5e-8) << "seed " << seed;
    EXPECT_LT(max_difference(pgs.force, newton.force), 5e-8) << "seed " << seed;
  }
}

// At the optimum, qacc = a0 + M^-1 J^T f (primal and dual agree), and the
// cost is no higher than at nearby points.
TEST(Solvers, NewtonAnswerIsStationary) {
  testing::SyntheticProblem sp(7, testing::every_row_type(), 42);
  const ConstraintProblem& p = sp.problem;
  const Answer a = run(p, Method::kNewton);
  std::vector<double> qfrc(p.nv);
  problem_jacobian_transpose_multiply(p, a.force.data(), qfrc.data());
  problem_mass_solve(p, qfrc.data());
  for (int k = 0; k < p.nv; ++k) EXPECT_NEAR(a.qacc[k], p.qacc_smooth[k] + qfrc[k], 1e-9);
  std::vector<double> x = a.qacc, jar(p.nefc), ma(p.nv), f(p.nefc);
  std::vector<RowState> st(p.nefc);
  const double best = total_cost(p, x.data(), jar.data(), ma.data(), st.data(), f.data());
  for (int k = 0; k < p.nv; ++k) {
    for (double h : {-1e-4, 1e-4}) {
      x = a.qacc;
      x[k] += h;
      EXPECT_GE(total_cost(p, x.data(), jar.data(), ma.data(), st.data(), f.data()), best);
    }
  }
}

// Warm-started from its own answer, Newton stops at once.
TEST(Solvers, StartingAtTheOptimumTakesNoSteps) {
  testing::SyntheticProblem sp(6, testing::every_row_type(), 8);
  ConstraintProblem& p = sp.problem;
  p.tolerance = 1e-8;
  const Answer a = run(p, Method::kNewton);
  p.qacc_start = a.qacc.data();
  const Answer again = run(p, Method::kNewton);
  EXPECT_LE(again.stats.iterations, 1);
  EXPECT_TRUE(again.stats.converged);
}

}  // namespace
}  // namespace pliant
