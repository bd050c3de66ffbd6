// Saving and restoring state (pliant/state.h): MuJoCo's mjtState layout,
// round trips, and stepping on from a restored state bit for bit.

#include "pliant/state.h"

#include <gtest/gtest.h>

#include <vector>

#include "pliant/load.h"
#include "pliant/step.h"

namespace pliant {
namespace {

std::vector<double> saved(const Model& m, const Data& d, unsigned mask) {
  std::vector<double> out(state_size(m, mask));
  get_state(m, d, out.data(), mask);
  return out;
}

// A model with every component: free bodies in contact, actuators with
// activation, a mocap body and an equality.
const char* kScene = R"(
  <mujoco><worldbody><geom type="plane" size="5 5 .1"/>
    <body mocap="true" pos="1 1 1"><geom type="sphere" size=".05" contype="0" conaffinity="0"/></body>
    <body pos="0 0 .3"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body pos=".05 0 .6" euler="0 0 20"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
    <body name="arm" pos="0 1 .5"><joint name="hinge" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <body pos=".3 0 0"><joint name="slide" type="slide" axis="1 0 0" range="-.1 .1"/>
        <geom type="sphere" size=".04"/></body></body>
  </worldbody>
  <equality><joint joint1="slide" polycoef="0.02 0 0 0 0"/></equality>
  <actuator><general joint="hinge" dyntype="filter" dynprm="0.05" gainprm="3"/>
    <motor joint="slide" gear="2"/></actuator>
  </mujoco>)";

TEST(State, SizesFollowMuJoCosLayout) {
  const Model m = load_model_from_string(kScene);
  EXPECT_EQ(state_size(m, kStateTime), 1);
  EXPECT_EQ(state_size(m, kStatePhysics), m.nq + m.nv + m.na);
  EXPECT_EQ(state_size(m, kStateIntegration), 1 + m.nq + m.nv + m.na + m.nv + m.nu + m.nv +
                                                  6 * m.body_count() + m.equalities.count() +
                                                  7 * m.nmocap);
  EXPECT_EQ(static_cast<unsigned>(kStateIntegration), 8191u);
  EXPECT_THROW(state_size(m, 1u << 13), std::invalid_argument);
}

TEST(State, GetSetRoundTripsInMuJoCosLayout) {
  const Model m = load_model_from_string(kScene);
  Data d(m);
  d.ctrl << 0.5, -0.2;
  d.xfrc_applied[2] << 1, 2, 3, 4, 5, 6;  // (torque; force) in Pliant
  for (int i = 0; i < 30; ++i) step(m, d);
  const std::vector<double> state = saved(m, d, kStateIntegration);
  // xfrc_applied reads force first, as MuJoCo: after time, qpos, qvel, act,
  // warm start, ctrl, qfrc_applied.
  const int xfrc = 1 + m.nq + 3 * m.nv + m.na + m.nu;
  EXPECT_EQ(std::vector<double>(state.begin() + xfrc + 12, state.begin() + xfrc + 18),
            (std::vector<double>{4, 5, 6, 1, 2, 3}));
  Data other(m);
  set_state(m, other, state.data(), kStateIntegration);
  EXPECT_EQ(saved(m, other, kStateIntegration), state);
  // One component alone.
  std::vector<double> qvel = saved(m, d, kStateQvel);
  ASSERT_EQ(static_cast<int>(qvel.size()), m.nv);
  EXPECT_EQ(qvel[0], d.qvel[0]);
}

TEST(State, SteppingOnFromARestoredStateRepeatsTheSteps) {
  for (const char* path :
       {static_cast<const char*>(nullptr), PLIANT_TEST_MODELS "/dm_control/humanoid.xml"}) {
    const Model m = path ? load_model(path) : load_model_from_string(kScene);
    Data straight(m);
    for (int i = 0; i < m.nu; ++i) straight.ctrl[i] = 0.3 * (i % 3 - 1);
    for (int i = 0; i < 150; ++i) step(m, straight);
    const std::vector<double> state = saved(m, straight, kStateIntegration);
    for (int i = 0; i < 150; ++i) step(m, straight);
    Data restored(m);
    set_state(m, restored, state.data(), kStateIntegration);
    for (int i = 0; i < 150; ++i) step(m, restored);
    for (int i = 0; i < m.nq; ++i) ASSERT_EQ(restored.qpos[i], straight.qpos[i]) << i;
    for (int i = 0; i < m.nv; ++i) ASSERT_EQ(restored.qvel[i], straight.qvel[i]) << i;
    EXPECT_EQ(restored.time, straight.time);
  }
}

TEST(State, RefusedStatesChangeNothing) {
  const Model m = load_model_from_string(kScene);
  Data d(m);
  std::vector<double> state = saved(m, d, kStateIntegration);
  const int eq = state_size(m, kStateIntegration & (kStateEqActive - 1));
  state[eq] = 0;  // switch the equality off: Pliant cannot
  for (int i = 0; i < eq; ++i) state[i] = 9;
  EXPECT_THROW(set_state(m, d, state.data(), kStateIntegration), std::invalid_argument);
  EXPECT_EQ(d.time, 0);
  EXPECT_EQ(d.qpos[0], m.qpos0[0]);
  EXPECT_THROW(set_state(m, d, state.data(), 1u << 20), std::invalid_argument);
  const Model other = load_model(PLIANT_TEST_MODELS "/dm_control/cartpole.xml");
  Data cartpole(other);
  EXPECT_THROW(copy_data(m, cartpole, d), std::invalid_argument);
}

}  // namespace
}  // namespace pliant
