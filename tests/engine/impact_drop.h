#pragma once

// A sphere reaching a plane at a given speed, for the impact-design tests:
// the scene, and what a drop measures. Shared by the engine's tests and the
// MuJoCo 2.2.2 conformance test, which steps the same scene in both engines.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <string>

#include "pliant/solver_params.h"
#include "pliant/tuning.h"

namespace pliant::test {

inline constexpr double kDropRadius = 0.05;

// solref/solimp on both geoms, as `pliant tune` prints them (9 digits).
inline std::string impact_drop_scene(const SolRef& r, const SolImp& i, double timestep,
                                     double mass = 0.2, const char* option = "") {
  char params[400];
  std::snprintf(params, sizeof(params), "solref=\"%.9g %.9g\" solimp=\"%.9g %.9g %.9g %.9g %.9g\"",
                r.timeconst, r.dampratio, i.dmin, i.dmax, i.width, i.midpoint, i.power);
  char xml[1500];
  std::snprintf(xml, sizeof(xml),
                "<mujoco><option timestep=\"%.9g\" %s/><worldbody>"
                "<geom type=\"plane\" size=\"5 5 0.1\" %s/>"
                "<body pos=\"0 0 %.9g\"><freejoint/>"
                "<geom type=\"sphere\" size=\"%.9g\" mass=\"%.9g\" %s/></body>"
                "</worldbody></mujoco>",
                timestep, option, params, kDropRadius, kDropRadius, mass, params);
  return xml;
}

// The impact design's acceptance target: restitution 0.5 and a 2 mm
// resting depth for a 0.2 kg sphere, at most 10 mm deep at `speed` (m/s),
// 2 ms steps.
inline ContactTarget acceptance_target(double speed) {
  ContactTarget t;
  t.restitution = 0.5;
  t.depth = 0.002;
  t.impact_speed = speed;
  t.max_penetration = 0.01;
  t.mass = 0.2;
  t.timestep = 0.002;
  return t;
}

struct DropMeasure {
  double restitution = 0;      // first rebound speed / impact speed
  double max_penetration = 0;  // m, over the whole run
  double rest_depth = 0;       // m, at the end
  double rest_speed = 0;       // m/s, |vz| at the end
};

// Steps `step_once` (which advances the engine and returns the sphere's
// height and vertical velocity) and measures the drop. The rebound speed is
// the velocity of the first step that ends above the surface after the
// sphere was in contact: with semi-implicit Euler it is the speed at which the
// sphere crossed the surface.
template <typename Step>
DropMeasure measure_drop(double speed, double seconds, double timestep, Step step_once) {
  DropMeasure m;
  bool touched = false, bounced = false;
  double z = 0, vz = 0;
  const int steps = static_cast<int>(seconds / timestep);
  for (int n = 0; n < steps; ++n) {
    step_once(z, vz);
    const double depth = kDropRadius - z;
    m.max_penetration = std::max(m.max_penetration, depth);
    if (depth > 0) touched = true;
    if (touched && !bounced && depth < 0 && vz > 0) {
      bounced = true;
      m.restitution = vz / speed;
    }
  }
  m.rest_depth = kDropRadius - z;
  m.rest_speed = std::abs(vz);
  return m;
}

// Drops a sphere with each designed material preset at its own impact
// speed (`drop(preset)` returns what the drop measured in one engine) and
// checks the preset's targets: restitution within 5 % of the asked value (or
// 0.005), resting depth within 5 %, penetration under the bound.
template <typename Drop>
void expect_presets_meet_their_targets(const char* engine, Drop drop) {
  int designed = 0;
  for (const MaterialPreset& p : material_presets()) {
    if (!p.target) continue;
    ++designed;
    const ImpactTarget& t = *p.target;
    const DropMeasure m = drop(p);
    std::cout << p.name << ", " << engine << ": restitution " << m.restitution << " (asked "
              << t.restitution << "), max penetration " << m.max_penetration << " m (bound "
              << t.max_penetration << "), rest " << m.rest_depth << " m (asked " << t.depth
              << ")\n";
    EXPECT_NEAR(m.restitution, t.restitution, 0.05 * std::max(t.restitution, 0.1)) << p.name;
    EXPECT_NEAR(m.rest_depth, t.depth, 0.05 * t.depth) << p.name;
    EXPECT_LE(m.max_penetration, t.max_penetration) << p.name;
  }
  EXPECT_GE(designed, 4);
}

}  // namespace pliant::test
