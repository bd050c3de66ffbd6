#include "pliant/tuning.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pliant {
namespace {

TEST(Tuning, RestingDepthFollowsTheClosedForm) {
  // dmin = dmax = d: depth g (1 - d) (tc z)^2 (docs/physics.md §2).
  for (double d : {0.3, 0.9, 0.99}) {
    for (const SolRef& s : {SolRef{0.02, 1}, SolRef{0.05, 0.5}, SolRef{0.01, 2}}) {
      const ContactPrediction p = predict_contact(s, SolImp{d, d, 0.001, 0.5, 2}, 0.002);
      const double expected = 9.81 * (1 - d) * std::pow(s.timeconst * s.dampratio, 2);
      EXPECT_NEAR(p.resting_depth, expected, 1e-12 * expected) << "d " << d;
      EXPECT_NEAR(p.damping_ratio, s.dampratio, 1e-12);
    }
  }
  // Direct form (-stiffness, -damping): depth g (1 - d) / stiffness.
  const ContactPrediction direct =
      predict_contact(SolRef{-10, -10}, {0.99, 0.99, 0.001, 0.5, 2}, 0.002);
  EXPECT_NEAR(direct.resting_depth, 9.81e-3, 1e-15);
}

TEST(Tuning, DesignReproducesItsTargets) {
  ContactTarget t;
  t.restitution = 0.8;
  t.depth = 0.002;
  const ContactDesign design = design_contact(t);
  EXPECT_NEAR(design.prediction.restitution, 0.8, 1e-12);
  EXPECT_NEAR(design.prediction.resting_depth, 0.002, 1e-12);
  EXPECT_FALSE(design.prediction.refsafe_clamped);

  ContactTarget direct;
  direct.stiffness = 5000;
  direct.damping = 20;
  direct.mass = 0.2;
  const ContactDesign d = design_contact(direct);
  EXPECT_DOUBLE_EQ(d.solref.timeconst, -5000 / 0.2);
  EXPECT_DOUBLE_EQ(d.solref.dampratio, -20 / 0.2);
  EXPECT_NEAR(d.prediction.stiffness, 5000 / 0.2, 1e-9);
  EXPECT_NEAR(d.prediction.damping, 20 / 0.2, 1e-12);
}

TEST(Tuning, RefsafeClampIsReported) {
  const ContactPrediction p = predict_contact(SolRef{0.001, 1}, SolImp{}, 0.002);
  EXPECT_TRUE(p.refsafe_clamped);
  EXPECT_DOUBLE_EQ(p.timeconst_used, 0.004);
  EXPECT_NE(p.note.find("refsafe"), std::string::npos);
}

TEST(Tuning, RestitutionAndDampingRatioAreInverse) {
  for (double e : {0.05, 0.3, 0.5, 0.8, 0.95}) {
    EXPECT_NEAR(restitution_from_damping_ratio(damping_ratio_from_restitution(e)), e, 1e-12);
  }
  EXPECT_EQ(restitution_from_damping_ratio(1.5), 0.0);
}

TEST(Tuning, BadTargetsSayWhy) {
  ContactTarget t;
  EXPECT_THROW(design_contact(t), std::invalid_argument);
  t.restitution = 1.2;
  t.depth = 0.001;
  EXPECT_THROW(design_contact(t), std::invalid_argument);
}

// The closed form agrees with each designed preset's resting depth; the
// stepped targets are checked in the engine by Impact.PresetsMeetTheirOwnTargets.
TEST(Tuning, PresetsRestWhereTheyWereDesignedTo) {
  int designed = 0;
  for (const MaterialPreset& p : material_presets()) {
    const ContactPrediction c = predict_contact(p.solref, p.solimp, 0.002);
    EXPECT_FALSE(c.refsafe_clamped) << p.name;
    if (!p.target) continue;
    ++designed;
    EXPECT_NEAR(c.resting_depth, p.target->depth, 1e-9 * p.target->depth) << p.name;
  }
  EXPECT_EQ(designed, 4);
}

}  // namespace
}  // namespace pliant
