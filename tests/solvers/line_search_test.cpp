#include "solvers/line_search.h"

#include <gtest/gtest.h>

#include <random>

#include "solvers/cost.h"
#include "tests/solvers/synthetic_problem.h"

namespace pliant {
namespace {

// The line's 1-D function from a point a along s.
struct Line {
  const ConstraintProblem& p;
  std::vector<double> a, s, jar, jv, ma, ms;
  std::vector<int> live;
  LineSearchInput input;

  Line(const ConstraintProblem& problem, unsigned seed) : p(problem) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    a.resize(p.nv);
    s.resize(p.nv);
    for (int k = 0; k < p.nv; ++k) {
      a[k] = p.qacc_smooth[k] + normal(rng);
      s[k] = normal(rng);
    }
    jar.resize(p.nefc);
    jv.resize(p.nefc);
    live.resize(p.nefc);
    ma.resize(p.nv);
    ms.resize(p.nv);
    problem_jacobian_multiply(p, a.data(), jar.data());
    for (int i = 0; i < p.nefc; ++i) jar[i] -= p.aref[i];
    problem_jacobian_multiply(p, s.data(), jv.data());
    problem_mass_multiply(p, a.data(), ma.data());
    problem_mass_multiply(p, s.data(), ms.data());
    double g1 = 0, g2 = 0, norm = 0;
    for (int k = 0; k < p.nv; ++k) {
      g1 += s[k] * (ma[k] - p.qfrc_smooth[k]);
      g2 += s[k] * ms[k];
      norm += s[k] * s[k];
    }
    input.problem = &p;
    input.jar = jar.data();
    input.jv = jv.data();
    input.live = live.data();
    input.gauss[0] = gauss_cost(p, a.data(), ma.data());
    input.gauss[1] = g1;
    input.gauss[2] = 0.5 * g2;
    input.search_norm = std::sqrt(norm);
  }

  // Total cost at a + alpha s, evaluated from scratch.
  double cost(double alpha) const {
    std::vector<double> x(p.nv), j(p.nefc), m(p.nv), f(p.nefc);
    std::vector<RowState> st(p.nefc);
    for (int k = 0; k < p.nv; ++k) x[k] = a[k] + alpha * s[k];
    return total_cost(p, x.data(), j.data(), m.data(), st.data(), f.data());
  }
};

// evaluate_line equals the total cost along the line for every row type,
// and its derivatives match central differences.
TEST(LineSearch, OneDimensionalFunctionMatchesTheCost) {
  testing::SyntheticProblem sp(8, testing::every_row_type(), 5);
  for (unsigned seed = 0; seed < 20; ++seed) {
    Line line(sp.problem, seed);
    for (double alpha = -1.5; alpha <= 1.5; alpha += 0.0737) {
      const LinePoint x = evaluate_line(line.input, alpha);
      const double reference = line.cost(alpha);
      EXPECT_NEAR(x.cost, reference, 1e-9 * (1 + std::abs(reference)));
      const double h = 1e-6;
      const double d1 =
          (evaluate_line(line.input, alpha + h).cost - evaluate_line(line.input, alpha - h).cost) /
          (2 * h);
      EXPECT_NEAR(x.d1, d1, 1e-5 * (1 + std::abs(d1)));
      const double d2 =
          (evaluate_line(line.input, alpha + h).d1 - evaluate_line(line.input, alpha - h).d1) /
          (2 * h);
      if (std::abs(d2) > 1e-9) {
        EXPECT_NEAR(x.d2, d2, 1e-4 * (1 + std::abs(d2)));
      }
    }
  }
}

// The search finds the minimum of 1-D piecewise quadratics: |slope| < gtol
// at the returned alpha, and no sampled alpha is lower.
TEST(LineSearch, FindsTheMinimumOfPiecewiseQuadratics) {
  int total_evaluations = 0, searches = 0;
  for (unsigned seed = 0; seed < 40; ++seed) {
    using T = RowType;
    const std::vector<int> rows = {static_cast<int>(T::kLimitJoint),
                                   static_cast<int>(T::kLimitJoint),
                                   static_cast<int>(T::kFrictionDof),
                                   static_cast<int>(T::kContactPyramidal),
                                   static_cast<int>(T::kContactPyramidal),
                                   static_cast<int>(T::kContactElliptic),
                                   3};
    testing::SyntheticProblem sp(seed % 2 ? 1 : 4, rows, seed);
    sp.problem.tolerance = 1e-10;
    Line line(sp.problem, seed + 100);
    // Search downhill.
    if (evaluate_line(line.input, 0).d1 > 0) continue;  // search downhill only
    const LineSearchResult result = exact_line_search(line.input);
    ++searches;
    total_evaluations += result.evaluations;
    EXPECT_LE(result.evaluations, sp.problem.ls_iterations);
    ASSERT_GT(result.alpha, 0);
    const double gtol = sp.problem.tolerance * 0.01 * line.input.search_norm / sp.problem.scale;
    EXPECT_LT(std::abs(evaluate_line(line.input, result.alpha).d1), gtol);
    for (double alpha = 0; alpha <= 4 * result.alpha; alpha += result.alpha / 200) {
      EXPECT_GE(evaluate_line(line.input, alpha).cost, result.cost - 1e-9 * std::abs(result.cost));
    }
  }
  EXPECT_GT(searches, 10);
  std::cout << "mean evaluations per search: " << double(total_evaluations) / searches << "\n";
}

// After its first evaluation the search visits only the rows that can
// change piece along alpha >= 0, and once bracketed only those that can
// inside the bracket; the others' pieces are summed once. That changes the
// order of the sums only: on problems of many rows of every type, the
// answer equals the search that visits every row to round-off. (Mutation
// check: taking every row as fixed along alpha >= 0 fails this test and
// two others.)
TEST(LineSearch, WindowKeepsTheAnswer) {
  std::vector<int> rows;
  for (int copy = 0; copy < 12; ++copy) {
    for (int r : testing::every_row_type()) rows.push_back(r);
  }
  int bracketed = 0;
  for (unsigned seed = 0; seed < 30; ++seed) {
    testing::SyntheticProblem sp(12, rows, seed);
    sp.problem.tolerance = 1e-10;
    Line line(sp.problem, seed + 50);
    const LineSearchResult windowed = exact_line_search(line.input);
    line.input.live = nullptr;
    const LineSearchResult full = exact_line_search(line.input);
    bracketed += full.evaluations > 3;
    EXPECT_NEAR(windowed.alpha, full.alpha, 1e-9 * std::abs(full.alpha)) << seed;
    EXPECT_NEAR(windowed.cost, full.cost, 1e-12 * std::abs(full.cost)) << seed;
    // Both ends within the tolerance of the minimum.
    const double gtol = sp.problem.tolerance * 0.01 * line.input.search_norm / sp.problem.scale;
    EXPECT_LT(std::abs(evaluate_line(line.input, windowed.alpha).d1), 2 * gtol) << seed;
  }
  EXPECT_GT(bracketed, 10);
}

// ls_iterations bounds the evaluations and ls_tolerance sets the stopping
// slope, as <option ls_iterations ls_tolerance> do in MuJoCo 3.3.8 (the
// MJX-tuned scenes use 4 to 6 evaluations).
TEST(LineSearch, HonoursItsBudgetAndTolerance) {
  std::vector<int> rows;
  for (int copy = 0; copy < 6; ++copy) {
    for (int r : testing::every_row_type()) rows.push_back(r);
  }
  int limited = 0, looser = 0;
  for (unsigned seed = 0; seed < 30; ++seed) {
    testing::SyntheticProblem sp(8, rows, seed);
    sp.problem.tolerance = 1e-10;
    Line line(sp.problem, seed + 70);
    if (evaluate_line(line.input, 0).d1 > 0) continue;
    const LineSearchResult full = exact_line_search(line.input);
    sp.problem.ls_iterations = 3;
    const LineSearchResult short_search = exact_line_search(line.input);
    EXPECT_LE(short_search.evaluations, 3) << seed;
    limited += full.evaluations > 3;
    // Never above the start, whatever the budget.
    EXPECT_LE(short_search.cost, evaluate_line(line.input, 0).cost) << seed;
    sp.problem.ls_iterations = 50;
    sp.problem.ls_tolerance = 100;
    const LineSearchResult loose = exact_line_search(line.input);
    EXPECT_LE(loose.evaluations, full.evaluations) << seed;
    looser += loose.evaluations < full.evaluations;
    const double gtol = sp.problem.tolerance * 100 * line.input.search_norm / sp.problem.scale;
    EXPECT_LT(std::abs(evaluate_line(line.input, loose.alpha).d1), gtol) << seed;
  }
  EXPECT_GT(limited, 5);
  EXPECT_GT(looser, 5);
}

// Along a direction that climbs, the search goes back to the minimum on the
// line (alpha < 0), as MuJoCo 3.3.8's does (2.2.2 stopped at alpha = 0).
TEST(LineSearch, GoesBackAlongAClimbingDirection) {
  testing::SyntheticProblem sp(4, testing::every_row_type(), 9);
  Line line(sp.problem, 1);
  if (evaluate_line(line.input, 0).d1 < 0) {
    for (int i = 0; i < sp.problem.nefc; ++i) line.jv[i] = -line.jv[i];
    for (double& v : line.s) v = -v;
    line.input.gauss[1] = -line.input.gauss[1];
  }
  ASSERT_GT(evaluate_line(line.input, 0).d1, 0);
  const LineSearchResult result = exact_line_search(line.input);
  EXPECT_LT(result.alpha, 0);
  // The minimum on the line: no point around it is lower.
  for (double alpha = 2 * result.alpha; alpha <= 0; alpha -= result.alpha / 100) {
    EXPECT_GE(evaluate_line(line.input, alpha).cost, result.cost - 1e-9 * std::abs(result.cost));
  }
}

// Started at the minimum along s, the search stays there (to round-off) and
// never climbs; MuJoCo 3.3.8 tries one Newton step from 0 even then (2.2.2
// returned alpha = 0 as soon as the slope at 0 was within the tolerance).
TEST(LineSearch, StaysAtTheMinimumWhenStartedThere) {
  int searches = 0;
  for (int seed = 0; seed < 40; ++seed) {
    testing::SyntheticProblem sp(4, testing::every_row_type(), seed);
    Line line(sp.problem, seed + 7);
    // Move the start to the minimum of the line, then search again from it.
    const LineSearchResult first = exact_line_search(line.input);
    if (first.alpha <= 0) continue;
    for (int i = 0; i < sp.problem.nefc; ++i) line.jar[i] += first.alpha * line.jv[i];
    line.input.gauss[0] += first.alpha * (line.input.gauss[1] + first.alpha * line.input.gauss[2]);
    line.input.gauss[1] += 2 * first.alpha * line.input.gauss[2];
    const LinePoint at_start = evaluate_line(line.input, 0);
    ASSERT_NEAR(at_start.cost, first.cost, 1e-9 * std::abs(first.cost)) << seed;
    const LineSearchResult again = exact_line_search(line.input);
    ++searches;
    EXPECT_LE(again.cost, at_start.cost + 1e-12 * std::abs(at_start.cost)) << seed;
    EXPECT_LE(std::abs(again.alpha), 1e-6 * first.alpha) << seed;
  }
  EXPECT_GT(searches, 10);
}

}  // namespace
}  // namespace pliant
