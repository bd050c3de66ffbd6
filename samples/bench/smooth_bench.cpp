// Smooth-dynamics benchmark: Pliant's tree-sparse mass-matrix factorisation on
// a 200-link chain versus 200 free bodies, and the per-step cost of smooth
// dynamics (contacts and constraints off) side by side with MuJoCo 2.2.2 on
// the same model, alternating engines in one process.
//
//   smooth_bench [MODEL.xml ...]   (default: Debian's humanoid100 and humanoid)

#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/dynamics.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A serial chain of `dofs` hinges. XML nesting is limited (tinyxml2 stops at
// 100 levels), so each body carries four hinges: 50 bodies, one chain.
std::string chain_xml(int dofs) {
  std::string xml = "<mujoco><worldbody>";
  const int bodies = dofs / 4;
  for (int i = 0; i < bodies; ++i) {
    xml += "<body pos='0 0 -0.1'>";
    for (int k = 0; k < 4; ++k) {
      xml += std::string("<joint type='hinge' pos='0 0 ") + std::to_string(-0.025 * k) +
             "' axis='" + (k % 2 ? "1 0 0" : "0 1 0") + "'/>";
    }
    xml += "<geom type='capsule' fromto='0 0 0 0 0 -0.1' size='0.01'/>";
  }
  for (int i = 0; i < bodies; ++i) xml += "</body>";
  return xml + "</worldbody></mujoco>";
}

std::string free_bodies_xml(int count) {
  std::string xml = "<mujoco><worldbody>";
  for (int i = 0; i < count; ++i) {
    xml += "<body pos='" + std::to_string(i) + " 0 1'><freejoint/><geom size='0.1'/></body>";
  }
  return xml + "</worldbody></mujoco>";
}

// Median microseconds per call of `work` over `rounds` rounds of `calls`.
template <class Work>
double time_us(Work work, int calls, int rounds = 7) {
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    for (int i = 0; i < calls; ++i) work();
    samples.push_back(seconds_since(start) * 1e6 / calls);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

void factor_benchmark() {
  std::printf("mass-matrix factorisation (tree-sparse L^T D L), median of 7 rounds:\n");
  std::printf("  %-22s %6s %10s %12s\n", "model", "nv", "nnz(M)", "us/factor");
  for (const auto& [name, xml] :
       {std::pair<std::string, std::string>{"200-dof chain", chain_xml(200)},
        {"200 free bodies", free_bodies_xml(200)}}) {
    const pliant::Model model = pliant::load_model_from_string(xml);
    pliant::Data data(model);
    pliant::forward(model, data);
    const double us = time_us([&] { pliant::factor_mass(model, data); }, 200);
    std::printf("  %-22s %6d %10ld %12.2f\n", name.c_str(), model.nv,
                static_cast<long>(data.qM.size()), us);
  }
}

void smooth_step_benchmark(const std::string& path) {
  pliant::Model model = pliant::load_model(path);
  model.options.flags.contact = false;
  model.options.flags.constraint = false;
  pliant::Data data(model);
  char error[1000];
  mjModel* ref = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
  if (!ref) {
    std::printf("MuJoCo could not load %s: %s\n", path.c_str(), error);
    return;
  }
  ref->opt.disableflags |= mjDSBL_CONTACT | mjDSBL_CONSTRAINT;
  mjData* rd = mj_makeData(ref);
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal(0, 1);
  const int steps = 200;
  auto pliant_steps = [&] {
    for (int i = 0; i < model.nu; ++i) data.ctrl[i] = 0.01 * normal(rng);
    pliant::step(model, data);
  };
  auto mujoco_steps = [&] {
    for (int i = 0; i < ref->nu; ++i) rd->ctrl[i] = 0.01 * normal(rng);
    mj_step(ref, rd);
  };
  // Alternate the engines round by round so both see the same machine state.
  std::vector<double> ours, theirs;
  for (int round = 0; round < 7; ++round) {
    ours.push_back(time_us(pliant_steps, steps, 1));
    theirs.push_back(time_us(mujoco_steps, steps, 1));
  }
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  const double a = ours[ours.size() / 2], b = theirs[theirs.size() / 2];
  std::printf("  %-40s nv %4d   Pliant %9.2f us   MuJoCo %9.2f us   ratio %.2f\n",
              path.substr(path.find_last_of('/') + 1).c_str(), model.nv, a, b, a / b);
  mj_deleteData(rd);
  mj_deleteModel(ref);
}

}  // namespace

int main(int argc, char** argv) {
  factor_benchmark();
  std::vector<std::string> models;
  for (int i = 1; i < argc; ++i) models.push_back(argv[i]);
  if (models.empty()) {
    models = {"/usr/share/mujoco/model/humanoid100/humanoid100.xml",
              "/usr/share/mujoco/model/humanoid/humanoid.xml"};
  }
  std::printf("smooth dynamics per step (Euler, contacts and constraints off), median of 7:\n");
  for (const std::string& path : models) smooth_step_benchmark(path);
  return 0;
}
