// Collision time per step, Pliant beside MuJoCo 2.2.2, on humanoid100 and on
// a pile of 1000 free boxes. Both engines get the same state (the model's
// qpos0 after 200 steps of MuJoCo's own simulation, so bodies touch); each
// times only its collision stage (kinematics done beforehand), averaged over
// repeated calls (best of several alternating batches).

#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/collision/collision.h"
#include "engine/kinematics.h"
#include "pliant/load.h"
#include "samples/shared/scenes.h"

namespace {

// 1000 cubes in ten layers of 10 x 10, just apart.
std::string box_pile() {
  pliant::scenes::BoxStack stack;
  stack.count = 1000;
  stack.per_row = 10;
  stack.per_layer = 100;
  stack.pitch_x = stack.pitch_y = 0.205;
  stack.layer_height = 0.199;
  stack.plane = 50;
  stack.header = "<size nconmax='10000' njmax='100'/>";
  return pliant::scenes::box_stack_xml(stack);
}

template <typename F>
double time_us(F&& f, int repeats) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < repeats; ++i) f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
             .count() /
         repeats;
}

void bench(const std::string& name, const std::string& path, int settle_steps) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (!m) {
    std::printf("%s: MuJoCo could not load: %s\n", name.c_str(), error);
    return;
  }
  mjData* d = mj_makeData(m);
  for (int i = 0; i < settle_steps; ++i) mj_step(m, d);
  const pliant::Model model = pliant::load_model(path);
  pliant::Data data(model);
  for (int i = 0; i < m->nq; ++i) data.qpos[i] = d->qpos[i];
  mj_kinematics(m, d);
  pliant::kinematics(model, data);
  // Batches of 20 calls, alternating between the engines, best batch of 15
  // each: the machine is shared, and the minimum is the least disturbed.
  double ours = INFINITY, theirs = INFINITY;
  for (int batch = 0; batch < 15; ++batch) {
    ours = std::min(ours, time_us([&] { pliant::collide(model, data); }, 20));
    theirs = std::min(theirs, time_us([&] { mj_collision(m, d); }, 20));
  }
  std::printf("| %-12s | %8zu | %8d | %10.1f | %10.1f | %6.2f |\n", name.c_str(),
              data.contacts.size(), d->ncon, ours, theirs, theirs / ours);
  mj_deleteData(d);
  mj_deleteModel(m);
}

}  // namespace

int main() {
  const std::string pile = "/tmp/pliant_collision_bench_boxes.xml";
  std::ofstream(pile) << box_pile();
  std::printf("| model        | contacts | MuJoCo n | Pliant us  | MuJoCo us  | speed-up |\n");
  std::printf("|--------------|----------|----------|------------|------------|--------|\n");
  bench("humanoid100", "/usr/share/mujoco/model/humanoid100/humanoid100.xml", 200);
  bench("1000 boxes", pile, 0);
  return 0;
}
