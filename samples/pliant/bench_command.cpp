// `pliant bench MODEL.xml`: step a model and print one JSON line with the
// time per step and what the steps did (contacts, rows, solver iterations),
// optionally with the time spent in each stage.

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "samples/bench/workloads.h"
#include "samples/pliant/commands.h"
#include "samples/pliant/stepping_options.h"
#include "samples/runner/warning_printer.h"

namespace pliant::cli {
namespace {

// FNV-1a over the bytes of qpos and qvel, in hex: two runs that print the
// same digest ended in bit-identical states (for checking that a change to
// the engine leaves trajectories exactly as they were).
std::string state_digest(const Data& data) {
  unsigned long long h = 1469598103934665603ull;
  auto add = [&h](const double* x, long n) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(x);
    for (long k = 0; k < n * static_cast<long>(sizeof(double)); ++k) {
      h = (h ^ bytes[k]) * 1099511628211ull;
    }
  };
  add(data.qpos.data(), data.qpos.size());
  add(data.qvel.data(), data.qvel.size());
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", h);
  return text;
}

struct BenchOptions {
  std::string path;
  int box_pile = 0;
  long steps = 1000;
  long warmup = 0;
  SteppingOptions stepping;
  bool profile = false;
  int threads = 1;
};

void run_bench(const BenchOptions& o) {
  if (o.path.empty() == (o.box_pile == 0)) {
    throw LoadError("pliant bench", 0, "give either a model file or --box-pile N, not both");
  }
  // Loading is timed from the text (a file read for a path, the generated
  // pile's XML otherwise) to the compiled model with its constants.
  const std::string pile = o.box_pile > 0 ? scenes::box_pile_xml(o.box_pile) : std::string();
  const auto load_start = std::chrono::steady_clock::now();
  Model model = o.box_pile > 0 ? load_model_from_string(pile) : load_model(o.path);
  const double load_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
  apply_solver_choice(o.stepping, model);
  Data data(model);
  data.threads = o.threads;
  bench::ControlNoise noise(o.stepping.ctrl_noise);
  bench::StepTally warmup_tally, tally;
  // Warnings are read between the runs, not per step, to keep the timed loop
  // as it is.
  WarningPrinter warnings(model, std::cerr);
  bench::step_pliant(model, data, o.warmup, noise, warmup_tally);
  warnings.after_step(data);
  data.timers.enabled = o.profile;
  const double seconds = bench::step_pliant(model, data, o.steps, noise, tally);
  warnings.after_step(data);
  warnings.summary(data);

  nlohmann::ordered_json line;
  line["load_seconds"] = load_seconds;
  line["steps"] = o.steps;
  line["seconds"] = seconds;
  line["us_per_step"] = o.steps ? 1e6 * seconds / o.steps : 0.0;
  line["nv"] = model.nv;
  line["ncon_mean"] = tally.mean_contacts();
  line["nefc_mean"] = tally.mean_rows();
  line["solver_iter_mean"] = tally.mean_iterations();
  line["state_digest"] = state_digest(data);
  if (o.profile && o.steps > 0) {
    // Microseconds per step in each stage, then in the rest of the step.
    nlohmann::ordered_json stages;
    for (int s = 0; s < static_cast<int>(Stage::kStep); ++s) {
      stages[stage_name(static_cast<Stage>(s))] = 1e6 * data.timers.seconds[s] / o.steps;
    }
    stages[kOutsideStagesName] = 1e6 * data.timers.outside_stages() / o.steps;
    line["stage_us_per_step"] = stages;
  }
  std::cout << line.dump() << "\n";
}

}  // namespace

void add_bench_command(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "Time the step on a model and print one JSON line");
  static BenchOptions o;
  bench->add_option("model", o.path, "MJCF model file");
  bench->add_option("--box-pile", o.box_pile, "Instead of a model: a generated pile of N boxes")
      ->check(CLI::PositiveNumber);
  bench->add_option("--steps", o.steps, "Timed steps")->check(CLI::NonNegativeNumber);
  bench->add_option("--warmup", o.warmup, "Untimed steps before the timed ones")
      ->check(CLI::NonNegativeNumber);
  add_stepping_options(bench, o.stepping);
  bench->add_flag("--profile", o.profile, "Add the time per step of each stage");
  bench
      ->add_option("--threads", o.threads,
                   "Threads a step may use (Data::threads); the state digest is the same for "
                   "any count")
      ->check(CLI::PositiveNumber);
  bench->callback([] {
    try {
      run_bench(o);
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
