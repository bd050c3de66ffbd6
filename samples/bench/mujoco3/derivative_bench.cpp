// What the derivatives of one step cost: Pliant's transition_derivatives
// (A and B, forward differences, eps 1e-6), differencing every column as
// MuJoCo does and with the solve linearised for the qvel, act and ctrl
// columns (DifferenceOptions::linearise_solve), against MuJoCo 3.x's
// mjd_transitionFD with the same arguments, on the same model at the same
// state (some steps in from qpos0, zero controls but the gripper's
// squeeze). Each repetition times `calls` calls of each, in turn; printed:
// the median time per call, the range over the repetitions, and the ratios
// of the medians to MuJoCo's.
//
//   derivative_bench [--repetitions R] [--calls C] [--centred] [--profile N]
//
// --profile N makes N linearised calls on the humanoid and nothing else
// (for perf or callgrind).

#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "pliant/derivatives.h"
#include "pliant/load.h"
#include "pliant/step.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
  std::vector<double> us;
  double median() {
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  }
};

struct Case {
  const char* name;
  std::string path;
  int steps;
};

}  // namespace

int main(int argc, char** argv) {
  int repetitions = 5, calls = 20;
  bool centred = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--repetitions") && i + 1 < argc) repetitions = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--calls") && i + 1 < argc) calls = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--centred")) centred = true;
    if (!std::strcmp(argv[i], "--profile") && i + 1 < argc) {
      const int calls_to_profile = std::atoi(argv[++i]);
      pliant::Model model =
          pliant::load_model(std::string(PLIANT_TEST_MODELS) + "/dm_control/humanoid.xml");
      pliant::Data data(model);
      for (int k = 0; k < 200; ++k) pliant::step(model, data);
      pliant::DifferenceOptions options;
      options.sensors = false;
      options.linearise_solve = true;
      for (int k = 0; k < calls_to_profile; ++k)
        pliant::transition_derivatives(model, data, options);
      return 0;
    }
  }
  const Case cases[] = {
      {"humanoid (contacts)", std::string(PLIANT_TEST_MODELS) + "/dm_control/humanoid.xml", 200},
      {"cartpole (Euler)", std::string(PLIANT_TEST_MODELS) + "/dm_control/cartpole.xml", 100},
      {"gripper (contacts)", std::string(PLIANT_TEST_DATA) + "/toolbox/gripper.xml", 300},
      {"Robotiq 2F-85 scene", std::string(PLIANT_TEST_MODELS) + "/menagerie/robotiq_2f85/scene.xml",
       100},
  };
  std::printf(
      "Derivatives of one step (A, B; %s differences, eps 1e-6): Pliant against MuJoCo %s\n",
      centred ? "centred" : "forward", mj_versionString());
  std::printf("%d repetitions of %d calls; median us per call [range]\n\n", repetitions, calls);
  std::printf(
      "| model | nx x nu | Pliant us | Pliant, solve linearised, us | linearised, 2 threads, us | "
      "MuJoCo us (1 thread) | Pliant / MuJoCo | linearised / MuJoCo | 2 threads / MuJoCo "
      "|\n|---|---|---|---|---|---|---|---|---|\n");
  for (const Case& c : cases) {
    pliant::Model pm = pliant::load_model(c.path);
    char error[1000] = "";
    mjModel* mm = mj_loadXML(c.path.c_str(), nullptr, error, sizeof(error));
    if (!mm) {
      std::printf("| %s | MuJoCo does not load it: %s |\n", c.name, error);
      continue;
    }
    // MuJoCo's derivatives refuse RK4: both engines use Euler there.
    if (pm.options.integrator == pliant::Integrator::kRk4) {
      pm.options.integrator = pliant::Integrator::kEuler;
      mm->opt.integrator = mjINT_EULER;
    }
    pliant::Data pd(pm);
    mjData* md = mj_makeData(mm);
    // The gripper squeezes and lifts its box; the others run with zero controls.
    if (pm.nu == 3 && c.path.find("gripper") != std::string::npos) {
      pd.ctrl << 0.04, 0.04, 0.1;
      md->ctrl[0] = md->ctrl[1] = 0.04;
      md->ctrl[2] = 0.1;
    }
    for (int i = 0; i < c.steps; ++i) {
      pliant::step(pm, pd);
      mj_step(mm, md);
    }
    const int nx = static_cast<int>(2 * mm->nv + mm->na), nu = static_cast<int>(mm->nu);
    std::vector<double> a(nx * nx), b(nx * nu);
    pliant::DifferenceOptions options;
    options.centred = centred;
    options.sensors = false;
    pliant::DifferenceOptions linearised = options;
    linearised.linearise_solve = true;
    pliant::DifferenceOptions threaded = linearised;
    threaded.threads = 2;
    Timing ours, fast, two, theirs;
    for (int r = 0; r < repetitions; ++r) {
      auto start = Clock::now();
      for (int k = 0; k < calls; ++k) pliant::transition_derivatives(pm, pd, options);
      ours.us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                        calls);
      start = Clock::now();
      for (int k = 0; k < calls; ++k) pliant::transition_derivatives(pm, pd, linearised);
      fast.us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                        calls);
      start = Clock::now();
      for (int k = 0; k < calls; ++k) pliant::transition_derivatives(pm, pd, threaded);
      two.us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                       calls);
      start = Clock::now();
      for (int k = 0; k < calls; ++k) {
        mjd_transitionFD(mm, md, 1e-6, centred, a.data(), nu ? b.data() : nullptr, nullptr,
                         nullptr);
      }
      theirs.us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                          calls);
    }
    const double om = ours.median(), fm = fast.median(), wm = two.median(), tm = theirs.median();
    std::printf(
        "| %s | %d x %d | %.1f [%.1f-%.1f] | %.1f [%.1f-%.1f] | %.1f [%.1f-%.1f] | %.1f "
        "[%.1f-%.1f] | %.2f | %.2f | %.2f |\n",
        c.name, nx, nu, om, ours.us.front(), ours.us.back(), fm, fast.us.front(), fast.us.back(),
        wm, two.us.front(), two.us.back(), tm, theirs.us.front(), theirs.us.back(), om / tm,
        fm / tm, wm / tm);
    mj_deleteData(md);
    mj_deleteModel(mm);
  }
  return 0;
}
