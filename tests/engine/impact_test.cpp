// Impact design: the stepped 1-D prediction is the engine's drop, step for
// step; designed contacts bounce, rest and stay under the bound in the
// engine; presets meet their own targets; bad targets say why.

#include "pliant/impact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "pliant/tuning.h"
#include "tests/engine/impact_drop.h"

namespace pliant {
namespace {

using test::kDropRadius;

test::DropMeasure engine_drop(const SolRef& r, const SolImp& i, double timestep, double speed,
                              double seconds, const char* option = "", double phase = 0) {
  const Model m = load_model_from_string(test::impact_drop_scene(r, i, timestep, 0.2, option));
  Data d(m);
  // The surface reached at a step's start: 1 nm deep (phase 0 of
  // simulate_impact); mid-step, phase * speed * timestep deep.
  d.qpos[2] = kDropRadius - std::max(1e-9, phase * speed * timestep);
  d.qvel[2] = -speed;
  return test::measure_drop(speed, seconds, timestep, [&](double& z, double& vz) {
    step(m, d);
    z = d.qpos[2];
    vz = d.qvel[2];
  });
}

// The prediction steps the same numbers as the engine: a sphere on a plane
// is one contact whose normal passes through the centre of mass.
TEST(Impact, PredictionIsTheEngineStepForStep) {
  const SolRef ref{0.01, 0.3};
  const SolImp imp{0.2, 0.97, 0.008, 0.3, 3};
  struct Cone {
    const char* option;
    ContactCone cone;
  };
  for (const Cone& c : {Cone{"", {}}, Cone{"cone=\"elliptic\"", {false, 1, 1}},
                        Cone{"impratio=\"3\"", {true, 1, 3}}}) {
    for (double speed : {0.5, 2.0, 5.0}) {
      for (double phase : {0.0, 0.6}) {
        const ImpactPrediction p = simulate_impact(ref, imp, 0.002, 9.81, speed, phase, c.cone);
        const test::DropMeasure e = engine_drop(ref, imp, 0.002, speed, 0.5, c.option, phase);
        EXPECT_NEAR(e.restitution, p.restitution, 1e-9) << c.option << " at " << speed;
        EXPECT_NEAR(e.max_penetration, p.max_penetration, 1e-12) << c.option << " at " << speed;
        EXPECT_GT(p.restitution, 0.05);
      }
    }
    const double depth = resting_depth(ref, imp, 0.002, 9.81, c.cone);
    const test::DropMeasure settled = engine_drop(ref, imp, 0.002, 0.5, 5, c.option);
    EXPECT_NEAR(settled.rest_depth, depth, 1e-9 * depth) << c.option;
  }
  // A pyramidal cone with friction other than 1 changes the normal
  // impedance (impact.h): the prediction must follow it.
  const SolImp imp_half_friction = imp;
  const ImpactPrediction half =
      simulate_impact(ref, imp_half_friction, 0.002, 9.81, 2, 0, {true, 0.5, 1});
  const ImpactPrediction one = simulate_impact(ref, imp_half_friction, 0.002, 9.81, 2, 0, {});
  EXPECT_GT(std::abs(half.restitution - one.restitution), 1e-3);
}

// The acceptance: restitution 0.5, resting depth 2 mm, at most 10 mm
// at 1, 2.5 and 5 m/s, 2 ms timestep: bounce 0.5 +- 0.025, rest 2 mm +- 5 %.
TEST(Impact, DesignHoldsAtEachImpactSpeedInTheEngine) {
  for (double speed : {1.0, 2.5, 5.0}) {
    const ContactTarget t = test::acceptance_target(speed);
    const ContactDesign design = design_contact(t);
    ASSERT_TRUE(design.impact);
    EXPECT_TRUE(design.impact->gave_way.empty());
    EXPECT_NEAR(design.impact->at_speed.restitution, 0.5, 1e-4);
    EXPECT_NEAR(design.impact->resting_depth, 0.002, 1e-9);
    const test::DropMeasure m = engine_drop(design.solref, design.solimp, 0.002, speed, 5);
    std::cout << speed << " m/s: restitution " << m.restitution << ", max penetration "
              << m.max_penetration << " m, rest " << m.rest_depth << " m\n";
    EXPECT_NEAR(m.restitution, 0.5, 0.025) << speed;
    EXPECT_NEAR(m.rest_depth, 0.002, 0.05 * 0.002) << speed;
    EXPECT_LE(m.max_penetration, 0.01) << speed;
    EXPECT_LT(m.rest_speed, 1e-3) << speed;
    // Reached mid-step, the design holds too below 5 m/s (at 5 m/s and 2 ms
    // the body moves the whole 10 mm bound in one step: only phase 0 holds).
    if (speed < 5) {
      EXPECT_NEAR(design.impact->restitution_low, 0.5, 0.025) << speed;
      EXPECT_NEAR(design.impact->restitution_high, 0.5, 0.025) << speed;
      EXPECT_LE(design.impact->penetration_worst, 0.01) << speed;
    }
    // MuJoCo's refsafe rule never changes the design.
    EXPECT_GE(design.solref.timeconst, 2 * t.timestep * (1 - 1e-12));
  }
}

TEST(Impact, PresetsMeetTheirOwnTargets) {
  test::expect_presets_meet_their_targets("Pliant", [](const MaterialPreset& p) {
    const ImpactTarget& t = *p.target;
    return engine_drop(p.solref, p.solimp, t.timestep, t.speed, 6);
  });
}

TEST(Impact, BadTargetsSayWhy) {
  auto message = [](ImpactTarget t) -> std::string {
    try {
      design_impact(t);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  ImpactTarget t;
  t.max_penetration = 0.01;
  t.restitution = 1.2;
  EXPECT_NE(message(t).find("restitution must be in [0, 1]"), std::string::npos);
  t.restitution = -0.1;
  EXPECT_NE(message(t).find("restitution"), std::string::npos);
  t.restitution = 0.5;
  t.max_penetration = 0.001;  // below the 2 mm resting depth
  EXPECT_NE(message(t).find("above the resting depth"), std::string::npos);
  t.max_penetration = 0.01;
  t.speed = 10;  // 20 mm per 2 ms step
  EXPECT_NE(message(t).find("timestep is too coarse"), std::string::npos);
  EXPECT_NE(message(t).find("at most 0.001 s"), std::string::npos);
  t.speed = 0;
  EXPECT_NE(message(t).find("impact speed must be positive"), std::string::npos);

  ContactTarget c;
  c.max_penetration = 0.01;
  c.restitution = 0.5;
  c.depth = 0.002;
  EXPECT_THROW(design_contact(c), std::invalid_argument);  // no impact speed
}

// A design that misses a target says which one and by how much instead of
// printing a miss silently: here a 1 m/s impact may sink only 0.1 mm past
// the 2 mm resting depth.
TEST(Impact, UnreachableTargetsGiveWayByName) {
  ImpactTarget t;
  t.restitution = 0.5;
  t.speed = 1;
  t.depth = 0.002;
  t.max_penetration = 0.0021;
  const ImpactDesign d = design_impact(t);
  const bool missed_restitution = std::abs(d.at_speed.restitution - 0.9) >= 1e-3;
  const bool missed_penetration = d.at_speed.max_penetration > t.max_penetration;
  ASSERT_TRUE(missed_restitution || missed_penetration);
  EXPECT_EQ(d.gave_way.size(), size_t(missed_restitution) + size_t(missed_penetration));
  for (const std::string& s : d.gave_way) {
    EXPECT_TRUE(s.find("restitution") == 0 || s.find("maximum penetration") == 0) << s;
  }
}

}  // namespace
}  // namespace pliant
