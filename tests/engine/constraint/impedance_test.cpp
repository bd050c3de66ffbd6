#include "pliant/impedance.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant {
namespace {

TEST(Impedance, MatchesTheClosedFormAtTheDefaultSolimp) {
  // Default solimp (0.9, 0.95, 0.001, 0.5, 2): x = |r| / 0.001,
  // y = 2 x^2 below the midpoint, 1 - 2 (1 - x)^2 above.
  const SolImp solimp;
  EXPECT_NEAR(impedance(solimp, -0.00025).d, 0.90625, 1e-15);
  EXPECT_NEAR(impedance(solimp, -0.0005).d, 0.925, 1e-15);
  EXPECT_NEAR(impedance(solimp, -0.00075).d, 0.94375, 1e-15);
  EXPECT_NEAR(impedance(solimp, -0.001).d, 0.95, 1e-15);
  EXPECT_NEAR(impedance(solimp, -0.5).d, 0.95, 1e-15);
  EXPECT_NEAR(impedance(solimp, 0).d, 0.9, 1e-15);
}

TEST(Impedance, DerivativeMatchesFiniteDifferences) {
  for (const SolImp& solimp :
       {SolImp{}, SolImp{0.2, 0.99, 0.01, 0.3, 3}, SolImp{0.5, 0.6, 0.1, 0.7, 1}}) {
    for (double r : {0.0001, 0.0023, 0.0041, 0.0069, 0.0095, -0.003}) {
      if (std::abs(r) >= solimp.width) continue;
      const double h = 1e-8;
      const double numeric = (impedance(solimp, r + h).d - impedance(solimp, r - h).d) / (2 * h);
      EXPECT_NEAR(impedance(solimp, r).derivative, numeric, 1e-5 * (1 + std::abs(numeric)))
          << "r = " << r;
    }
  }
}

TEST(Impedance, FlatCurveGivesTheAverage) {
  EXPECT_DOUBLE_EQ(impedance({0.3, 0.3, 0.001, 0.5, 2}, 0.0004).d, 0.3);
  EXPECT_DOUBLE_EQ(impedance({0.3, 0.7, 0, 0.5, 2}, 0.0004).d, 0.5);
}

TEST(Impedance, SanitiserClampsToWhatIsAccepted) {
  const SolImp s = sanitize(SolImp{0, 1.5, -1, 2, 0.5});
  EXPECT_DOUBLE_EQ(s.dmin, 1e-4);
  EXPECT_DOUBLE_EQ(s.dmax, 0.9999);
  EXPECT_DOUBLE_EQ(s.width, 0);
  EXPECT_DOUBLE_EQ(s.midpoint, 0.9999);
  EXPECT_DOUBLE_EQ(s.power, 1);
  EXPECT_EQ(sanitize(SolRef{-1, 2}), SolRef{});
  EXPECT_EQ(sanitize(SolRef{-100, -10}), (SolRef{-100, -10}));
}

TEST(Impedance, ReferenceSpringFromSolref) {
  // Reference numbers: K = 2770.083, B = 105.263 at solref (0.02, 1), dmax 0.95.
  const SpringDamper kb = reference_spring(SolRef{}, 0.95, 0.002, true);
  EXPECT_NEAR(kb.K, 2770.083102493075, 1e-9);
  EXPECT_NEAR(kb.B, 105.26315789473684, 1e-11);
  // refsafe: a time constant below 2 dt is raised to 2 dt.
  const SpringDamper clamped = reference_spring(SolRef{0.001, 1}, 0.95, 0.002, true);
  const SpringDamper at_limit = reference_spring(SolRef{0.004, 1}, 0.95, 0.002, true);
  EXPECT_DOUBLE_EQ(clamped.K, at_limit.K);
  EXPECT_NE(reference_spring(SolRef{0.001, 1}, 0.95, 0.002, false).K, at_limit.K);
  // Direct form: (-stiffness, -damping) divided by dmax^2 and dmax.
  const SpringDamper direct = reference_spring(SolRef{-1000, -50}, 0.9, 0.002, true);
  EXPECT_NEAR(direct.K, 1000 / 0.81, 1e-9);
  EXPECT_NEAR(direct.B, 50 / 0.9, 1e-12);
}

}  // namespace
}  // namespace pliant
