// Sensors against MuJoCo 2.2.2, for the sensor types 2.2.2 has: at every
// step of a 300-step trajectory with contacts, joint and tendon limits, both
// engines are given MuJoCo's state and forwarded, and every sensordata value
// must agree within 1e-9 relative to max(1, |value|) (MuJoCo 3.3.8 is
// compared on every type in tests/reference3).

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/sensor_types.h"
#include "tests/conformance/reference.h"

namespace pliant::conformance {
namespace {

constexpr double kTolerance = 1e-9;

// Copies MuJoCo's state into Pliant's Data.
void adopt_state(const mjModel& ref, const mjData& rd, Data& d) {
  d.time = rd.time;
  for (int i = 0; i < ref.nq; ++i) d.qpos[i] = rd.qpos[i];
  for (int i = 0; i < ref.nv; ++i) {
    d.qvel[i] = rd.qvel[i];
    d.qacc_warmstart[i] = rd.qacc_warmstart[i];
  }
  for (int i = 0; i < ref.na; ++i) d.act[i] = rd.act[i];
  for (int i = 0; i < ref.nu; ++i) d.ctrl[i] = rd.ctrl[i];
}

// Steps MuJoCo 2.2.2 from keyframe `key` (-1: qpos0) and compares every
// state's sensordata; returns how many states pressed some touch sensor.
int compare_trajectory(const std::string& path, int key, int steps) {
  const Model model = load_model_as_mujoco222(path);
  MjModelPtr ref = load_reference(path);
  EXPECT_TRUE(ref);
  if (!ref) return 0;
  EXPECT_EQ(model.sensors.count(), ref->nsensor);
  EXPECT_EQ(model.sensors.data_size, ref->nsensordata);
  if (model.sensors.data_size != ref->nsensordata) return 0;
  for (int s = 0; s < ref->nsensor; ++s) {
    EXPECT_EQ(model.sensors.adr[s], ref->sensor_adr[s]) << s;
    EXPECT_EQ(model.sensors.dim[s], ref->sensor_dim[s]) << s;
    EXPECT_EQ(model.sensors.obj_id[s], ref->sensor_objid[s]) << s;
  }
  MjDataPtr rd(mj_makeData(ref.get()));
  if (key >= 0) mj_resetDataKeyframe(ref.get(), rd.get(), key);
  Data data(model);
  double worst = 0;
  int worst_step = -1, worst_index = -1, touching = 0;
  for (int step = 0; step < steps; ++step) {
    adopt_state(*ref, *rd, data);
    mj_forward(ref.get(), rd.get());
    forward(model, data);
    for (int i = 0; i < ref->nsensordata; ++i) {
      const double ours = data.sensordata[i], theirs = rd->sensordata[i];
      const double error =
          std::abs(ours - theirs) / std::max({1.0, std::abs(ours), std::abs(theirs)});
      if (error > worst) {
        worst = error;
        worst_step = step;
        worst_index = i;
      }
      if (error > kTolerance) {
        ADD_FAILURE() << path << ": step " << step << " sensordata[" << i << "] " << ours
                      << " against MuJoCo 2.2.2's " << theirs;
        return touching;
      }
    }
    bool pressed = false;
    for (int s = 0; s < ref->nsensor; ++s) {
      pressed = pressed || (model.sensors.type[s] == SensorType::kTouch &&
                            rd->sensordata[ref->sensor_adr[s]] > 0);
    }
    touching += pressed;
    mj_step(ref.get(), rd.get());
  }
  std::printf(
      "%s: %d steps (%d pressing a touch pad), %d values, worst relative error %.3g "
      "(step %d, value %d)\n",
      model.model_name.c_str(), steps, touching, ref->nsensordata, worst, worst_step, worst_index);
  return touching;
}

// Every 2.2.2 sensor type on one scene: the box's touch pad is pressed.
TEST(SensorConformance, EverySensorSceneMatchesMuJoCo222) {
  EXPECT_GT(compare_trajectory(PLIANT_TEST_DATA "/sensors/mujoco2_sensors.xml", 0, 300), 100);
}

// The dm_control humanoid's 34 sensors (IMU, force-torque cells, touch pads)
// as it falls and lies on the floor, its touch pads pressed.
TEST(SensorConformance, HumanoidMatchesMuJoCo222) {
  EXPECT_GT(compare_trajectory(PLIANT_TEST_MODELS "/dm_control/humanoid.xml", -1, 800), 300);
}

}  // namespace
}  // namespace pliant::conformance
