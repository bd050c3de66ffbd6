// Impact designs in MuJoCo 2.2.2: the contact `pliant tune --impact-speed`
// prints (restitution 0.5, resting depth 2 mm, at most 10 mm, 2 ms) bounces,
// rests and stays under the bound in MuJoCo as in Pliant, from the same
// start: the sphere touching the plane (1 nm deep) at the impact speed.

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <fstream>
#include <iostream>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "pliant/tuning.h"
#include "tests/engine/impact_drop.h"

namespace pliant {
namespace {

using test::kDropRadius;

test::DropMeasure mujoco_drop(const std::string& xml, double speed, double timestep,
                              double seconds) {
  const std::string path = ::testing::TempDir() + "pliant_impact_drop.xml";
  std::ofstream(path) << xml;
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  EXPECT_TRUE(m) << error;
  if (!m) return {};
  mjData* d = mj_makeData(m);
  d->qpos[2] = kDropRadius - 1e-9;
  d->qvel[2] = -speed;
  const test::DropMeasure r =
      test::measure_drop(speed, seconds, timestep, [&](double& z, double& vz) {
        mj_step(m, d);
        z = d->qpos[2];
        vz = d->qvel[2];
      });
  mj_deleteData(d);
  mj_deleteModel(m);
  return r;
}

test::DropMeasure pliant_drop(const std::string& xml, double speed, double timestep,
                              double seconds) {
  const Model m = load_model_from_string(xml);
  Data d(m);
  d.qpos[2] = kDropRadius - 1e-9;
  d.qvel[2] = -speed;
  return test::measure_drop(speed, seconds, timestep, [&](double& z, double& vz) {
    step(m, d);
    z = d.qpos[2];
    vz = d.qvel[2];
  });
}

TEST(ImpactConformance, DesignHoldsInMuJoCo222) {
  for (double speed : {1.0, 2.5, 5.0}) {
    const ContactTarget t = test::acceptance_target(speed);
    const ContactDesign design = design_contact(t);
    const std::string xml = test::impact_drop_scene(design.solref, design.solimp, t.timestep);
    const test::DropMeasure mj = mujoco_drop(xml, speed, t.timestep, 5);
    const test::DropMeasure pl = pliant_drop(xml, speed, t.timestep, 5);
    std::cout << speed << " m/s, MuJoCo 2.2.2: restitution " << mj.restitution
              << ", max penetration " << mj.max_penetration << " m, rest " << mj.rest_depth
              << " m; Pliant: " << pl.restitution << ", " << pl.max_penetration << ", "
              << pl.rest_depth << "\n";
    EXPECT_NEAR(mj.restitution, 0.5, 0.025) << speed;
    EXPECT_NEAR(mj.rest_depth, 0.002, 0.05 * 0.002) << speed;
    EXPECT_LE(mj.max_penetration, 0.01) << speed;
    // The same numbers: one contact, stepped identically (1e-9: a few
    // hundred contact steps at round-off).
    EXPECT_NEAR(mj.restitution, pl.restitution, 1e-9) << speed;
    EXPECT_NEAR(mj.max_penetration, pl.max_penetration, 1e-9) << speed;
    EXPECT_NEAR(mj.rest_depth, pl.rest_depth, 1e-9) << speed;
  }
}

// Each material preset meets its own targets in MuJoCo 2.2.2 too, with the
// tolerances of the engine's preset test (restitution 5 % of the asked value
// or 0.005, resting depth 5 %, penetration under the bound).
TEST(ImpactConformance, PresetsMeetTheirTargetsInMuJoCo222) {
  test::expect_presets_meet_their_targets("MuJoCo 2.2.2", [](const MaterialPreset& p) {
    const ImpactTarget& t = *p.target;
    return mujoco_drop(test::impact_drop_scene(p.solref, p.solimp, t.timestep), t.speed, t.timestep,
                       6);
  });
}

}  // namespace
}  // namespace pliant
