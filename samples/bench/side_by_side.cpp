// Pliant beside MuJoCo (2.2.2, or 3.x when built in mujoco3/), in one
// process, on the same models with the same options, control noise and step
// counts. The engines alternate in
// rounds so that both see the same machine; each round continues its
// engine's own trajectory. Prints (and optionally writes) a Markdown report:
// time per step and ratio with each engine's contacts, rows and solver
// iterations; Pliant's per-stage profile; heap memory; box-pile scaling
// (table and PNG); batched-rollout throughput.
//
// The whole comparison is repeated (3 times by default) and each ratio is
// the median over the repetitions, printed with its range: one run of a few
// 0.1 s rounds cannot tell a 10 % margin from the machine's noise.
//
//   side_by_side [--markdown FILE] [--plot FILE.png] [--rounds R] [--repetitions N] [--quick]
//                [--only NAME,NAME] [--warmup N] [--min-steps N] [--model FILE ...]
//
// --model adds an MJCF file of your own to the table (named by its folder
// and file, e.g. unitree_h1/scene); with --only NAME it can be the only row.
// --only keeps the workloads named (a model's name as in the table, a pile
// by its box count), for a quick look at one model while tuning.
// --warmup and --min-steps set the untimed steps and the least steps of a
// round (200 and 50): the pile of 3000 boxes, at about a second a MuJoCo
// step, is compared with fewer.
//
//   side_by_side --count-instructions WORKLOAD pliant|mujoco [--steps N]
//
// steps one engine alone (the warm-up, then N steps; 200 for a model, 20 for
// a pile), for callgrind (instruction_counts.sh) or `perf stat`.

#include <mujoco/mujoco.h>
#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "samples/bench/scaling_plot.h"
#include "samples/bench/workloads.h"
#include "samples/rollout/rollout.h"

namespace {

using pliant::bench::ControlNoise;
using pliant::bench::StepTally;

struct Workload {
  std::string name;
  std::string path;
  int boxes = 0;  // > 0 for a generated box pile
  double ctrl_noise = 0;
};

struct EngineRun {
  std::vector<double> round_us;  // microseconds per step, one per round
  StepTally tally;
  double heap_bytes = 0;
  double median_us() const {
    std::vector<double> sorted = round_us;
    std::sort(sorted.begin(), sorted.end());
    return sorted.empty() ? 0 : sorted[sorted.size() / 2];
  }
};

struct Comparison {
  Workload workload;
  int nv = 0;
  EngineRun pliant, mujoco;
  std::vector<double> stage_us;    // Pliant's stages (see pliant::Stage), per step
  double outside_stages_us = 0;    // the rest of Pliant's step, per step
  int mujoco_rows = 0;             // MuJoCo's row buffer (njmax)
  int mujoco_buffer_warnings = 0;  // steps on which MuJoCo's buffers were full
  long steps_per_round = 0;
  std::string error;
  std::vector<double> ratios;  // one per repetition, ascending
  double ratio() const { return pliant.median_us() / mujoco.median_us(); }
  // MuJoCo could not hold the model (large piles): Pliant alone was timed.
  bool pliant_only() const { return mujoco.round_us.empty(); }
  // MuJoCo dropped contacts or rows: the two engines solved different problems.
  bool comparable() const { return mujoco_buffer_warnings == 0; }
};

struct Settings {
  int rounds = 7;
  int repetitions = 3;
  long warmup = 200;
  // Each round lasts about round_seconds of Pliant's stepping, within
  // [min_steps, max_steps] steps, so short steps are not timed in slivers.
  double round_seconds = 0.1;
  long min_steps = 50, max_steps = 5000;
};

// MuJoCo stepped with the same noise, timing only mj_step.
// What differs between MuJoCo 2.2.2 and 3.x here: 3.x counts solver
// iterations per constraint island (the most of any island is the step's)
// and sizes one arena where 2.2.2 had a stack.
int solver_iterations(const mjData* d) {
#if mjVERSION_HEADER >= 300
  int most = d->solver_niter[0];
  for (int i = 1; i < std::min<int>(d->nisland, mjNISLAND); ++i) {
    most = std::max(most, d->solver_niter[i]);
  }
  return most;
#else
  return d->solver_iter;
#endif
}

double mujoco_heap_bytes(const mjModel* m, const mjData* d) {
#if mjVERSION_HEADER >= 300
  return static_cast<double>(m->nbuffer) + static_cast<double>(d->nbuffer) +
         static_cast<double>(d->narena);
#else
  return static_cast<double>(m->nbuffer) + d->nbuffer +
         static_cast<double>(d->nstack) * sizeof(mjtNum);
#endif
}

double step_mujoco(const mjModel* m, mjData* d, long steps, ControlNoise& noise, StepTally& tally) {
  double seconds = 0;
  for (long s = 0; s < steps; ++s) {
    noise.fill(d->ctrl, m->nu);
    const auto start = std::chrono::steady_clock::now();
    mj_step(m, d);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tally.add(d->ncon, d->nefc, solver_iterations(d));
  }
  return seconds;
}

// Box piles are written to a temporary file that both engines read.
std::string write_box_pile(int boxes, int fixed_rows) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("pliant_box_pile_" + std::to_string(boxes) + ".xml");
  std::ofstream(path) << pliant::scenes::box_pile_xml(boxes, fixed_rows);
  return path.string();
}

// Loads MuJoCo's side. For a box pile, MuJoCo 2.2.2 needs its contact and
// row buffers sized in the file: start with room for every contact of a
// settled pile and shrink while mj_makeData cannot allocate them (its arena
// holds a rows x rows matrix, so large piles hit its size limit).
bool load_mujoco(const Workload& w, std::string& path, mjModel*& m, mjData*& d,
                 std::string& error) {
#if mjVERSION_HEADER >= 300
  int rows = 0;  // 3.x sizes its arena on demand: no <size njmax> needed
#else
  int rows = 24 * w.boxes;
#endif
  while (true) {
    if (w.boxes > 0) path = write_box_pile(w.boxes, rows);
    char message[1000] = "";
    m = mj_loadXML(path.c_str(), nullptr, message, sizeof(message));
    // Its compiler makes an mjData too, so an oversized arena can fail here.
    const bool arena_failed = !m && std::strstr(message, "mjData") != nullptr;
    if (!m && !arena_failed) {
      error = std::string("MuJoCo could not load it: ") + message;
      return false;
    }
    d = m ? mj_makeData(m) : nullptr;
    if (d) return true;
    if (m) mj_deleteModel(m);
    if (w.boxes == 0 || rows < 100) {
      error = "MuJoCo could not allocate its data";
      return false;
    }
    rows = rows * 3 / 4;
  }
}

Comparison compare(const Workload& w, const Settings& s) {
  Comparison c;
  c.workload = w;
  std::string path = w.path;
  mjModel* m = nullptr;
  mjData* d = nullptr;
  if (!load_mujoco(w, path, m, d, c.error)) {
    if (w.boxes == 0) return c;
    // A pile too large for MuJoCo's buffers: Pliant's time alone.
    c.error.clear();
    path = write_box_pile(w.boxes, 0);
  }
  const double heap1 = pliant::bench::heap_bytes_in_use();
  std::unique_ptr<pliant::Model> model;
  try {
    model = std::make_unique<pliant::Model>(pliant::load_model(path));
  } catch (const std::exception& e) {
    c.error = std::string("Pliant could not load it: ") + e.what();
    if (d) mj_deleteData(d);
    if (m) mj_deleteModel(m);
    return c;
  }
  auto data = std::make_unique<pliant::Data>(*model);
  c.mujoco_rows = m ? m->njmax : 0;
  c.nv = model->nv;

  ControlNoise pliant_noise(w.ctrl_noise), mujoco_noise(w.ctrl_noise);
  StepTally ignored;
  const double warmup_seconds =
      pliant::bench::step_pliant(*model, *data, s.warmup, pliant_noise, ignored);
  if (m) step_mujoco(m, d, s.warmup, mujoco_noise, ignored);
  const long steps =
      std::clamp(static_cast<long>(s.round_seconds / std::max(1e-9, warmup_seconds / s.warmup)),
                 s.min_steps, s.max_steps);
  c.steps_per_round = steps;
  for (int r = 0; r < s.rounds; ++r) {
    const double a = pliant::bench::step_pliant(*model, *data, steps, pliant_noise, c.pliant.tally);
    c.pliant.round_us.push_back(1e6 * a / steps);
    if (m)
      c.mujoco.round_us.push_back(1e6 * step_mujoco(m, d, steps, mujoco_noise, c.mujoco.tally) /
                                  steps);
  }
  // Heap: Pliant's model and data, plus whatever its data grew by while
  // stepping (MuJoCo's arena is fixed in mj_makeData, so later growth is ours).
  // Pliant: what the allocator gained while loading and stepping it (MuJoCo
  // allocates nothing after mj_makeData). MuJoCo: its model and data
  // buffers, stack arena included, as it reports them.
  c.pliant.heap_bytes = std::max(0.0, pliant::bench::heap_bytes_in_use() - heap1);
  if (m) {
    c.mujoco.heap_bytes = mujoco_heap_bytes(m, d);
    c.mujoco_buffer_warnings =
        d->warning[mjWARN_CONTACTFULL].number + d->warning[mjWARN_CNSTRFULL].number;
  }

  // Profile in a separate pass, so the timers do not touch the comparison.
  data->timers.reset();
  data->timers.enabled = true;
  pliant::bench::step_pliant(*model, *data, steps, pliant_noise, ignored);
  for (int k = 0; k < static_cast<int>(pliant::Stage::kCount); ++k) {
    c.stage_us.push_back(1e6 * data->timers.seconds[k] / steps);
  }
  c.outside_stages_us = 1e6 * data->timers.outside_stages() / steps;
  if (m) {
    mj_deleteData(d);
    mj_deleteModel(m);
  }
  return c;
}

// Steps that instruction counting sees: run under
// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*counted_steps*'`
// (samples/bench/instruction_counts.sh), only these calls are counted.
__attribute__((noinline)) void counted_steps_pliant(const pliant::Model& model, pliant::Data& data,
                                                    long steps, ControlNoise& noise,
                                                    StepTally& tally) {
  pliant::bench::step_pliant(model, data, steps, noise, tally);
}

__attribute__((noinline)) void counted_steps_mujoco(const mjModel* m, mjData* d, long steps,
                                                    ControlNoise& noise, StepTally& tally) {
  step_mujoco(m, d, steps, noise, tally);
}

// One engine on one workload: the warm-up, then `steps` counted steps, whose
// mean contact count is printed (per-contact costs of piles).
int count_instructions(const Workload& w, const std::string& engine, long warmup, long steps) {
  std::string path = w.path;
  if (w.boxes > 0) path = write_box_pile(w.boxes, engine == "mujoco" ? 24 * w.boxes : 0);
  ControlNoise noise(w.ctrl_noise);
  StepTally ignored, counted;
  if (engine == "pliant") {
    const pliant::Model model = pliant::load_model(path);
    pliant::Data data(model);
    pliant::bench::step_pliant(model, data, warmup, noise, ignored);
    counted_steps_pliant(model, data, steps, noise, counted);
    std::printf("contacts per counted step: %.1f\n", counted.mean_contacts());
    return 0;
  }
  char message[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, message, sizeof(message));
  if (!m) {
    std::fprintf(stderr, "MuJoCo could not load %s: %s\n", path.c_str(), message);
    return 1;
  }
  mjData* d = mj_makeData(m);
  step_mujoco(m, d, warmup, noise, ignored);
  counted_steps_mujoco(m, d, steps, noise, counted);
  std::printf("contacts per counted step: %.1f\n", counted.mean_contacts());
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, value);
  return buffer;
}

// The median of the repetitions' ratios, and their range.
double median_ratio(const Comparison& c) {
  return c.ratios.empty() ? c.ratio() : c.ratios[c.ratios.size() / 2];
}

std::string ratio_range(const Comparison& c) {
  if (c.ratios.size() < 2) return "";
  return "(" + format("%.2f", c.ratios.front()) + "-" + format("%.2f", c.ratios.back()) + ")";
}

// One comparison per workload from several repetitions: the repetition
// with the median ratio stands for it, and every ratio is kept.
std::vector<Comparison> combine(const std::vector<std::vector<Comparison>>& repetitions) {
  std::vector<Comparison> combined;
  for (size_t i = 0; i < repetitions.front().size(); ++i) {
    std::vector<const Comparison*> runs;
    for (const auto& r : repetitions) runs.push_back(&r[i]);
    if (!runs.front()->error.empty() || runs.front()->pliant_only()) {
      // Pliant alone: the run with the median time.
      std::sort(runs.begin(), runs.end(), [](const Comparison* a, const Comparison* b) {
        return a->pliant.median_us() < b->pliant.median_us();
      });
      combined.push_back(*runs[runs.size() / 2]);
      continue;
    }
    std::sort(runs.begin(), runs.end(),
              [](const Comparison* a, const Comparison* b) { return a->ratio() < b->ratio(); });
    Comparison c = *runs[runs.size() / 2];
    for (const Comparison* run : runs) c.ratios.push_back(run->ratio());
    combined.push_back(c);
  }
  return combined;
}

std::string megabytes(double bytes) { return format("%.2f", bytes / (1024.0 * 1024.0)); }

std::string machine_description() {
  std::string cpu = "unknown CPU";
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("model name", 0) == 0) {
      cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  utsname name{};
  uname(&name);
  return cpu + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores, " +
         name.sysname + " " + name.release;
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d", std::gmtime(&now));
  return buffer;
}

void report_comparisons(std::ostream& out, const std::vector<Comparison>& results) {
  out << "| model | nv | steps x rounds | Pliant us/step | MuJoCo us/step | ratio (range) | "
         "contacts P / M "
         "| rows P / M | solver iterations P / M | MuJoCo buffer-full warnings |\n"
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const Comparison& c : results) {
    if (!c.error.empty()) {
      out << "| " << c.workload.name << " | | | | | | " << c.error << " | | | |\n";
      continue;
    }
    const StepTally &p = c.pliant.tally, &m = c.mujoco.tally;
    out << "| " << c.workload.name << " | " << c.nv << " | " << c.steps_per_round << " x "
        << c.pliant.round_us.size() << " | " << format("%.1f", c.pliant.median_us()) << " | "
        << (c.pliant_only() ? std::string("too large for MuJoCo")
                            : format("%.1f", c.mujoco.median_us()))
        << " | "
        << (c.pliant_only()  ? std::string("")
            : c.comparable() ? "**" + format("%.2f", median_ratio(c)) + "** " + ratio_range(c)
                             : std::string("not comparable: MuJoCo dropped contacts"))
        << " | " << format("%.1f", p.mean_contacts()) << " / " << format("%.1f", m.mean_contacts())
        << " | " << format("%.1f", p.mean_rows()) << " / " << format("%.1f", m.mean_rows()) << " | "
        << format("%.2f", p.mean_iterations()) << " / " << format("%.2f", m.mean_iterations())
        << " | "
        << (c.mujoco_buffer_warnings > 0 ? std::to_string(c.mujoco_buffer_warnings) + " (njmax " +
                                               std::to_string(c.mujoco_rows) + ")"
                                         : std::string("none"))
        << " |\n";
  }
}

void report_profile(std::ostream& out, const std::vector<Comparison>& results) {
  out << "| model | step us |";
  const int stages = static_cast<int>(pliant::Stage::kStep);
  for (int k = 0; k < stages; ++k) out << " " << stage_name(static_cast<pliant::Stage>(k)) << " |";
  out << " " << pliant::kOutsideStagesName << " |\n|---|---:|";
  for (int k = 0; k <= stages; ++k) out << "---:|";
  out << "\n";
  for (const Comparison& c : results) {
    if (!c.error.empty()) continue;
    const double total = c.stage_us[stages];
    out << "| " << c.workload.name << " | " << format("%.1f", total) << " |";
    for (int k = 0; k < stages; ++k) {
      out << " " << format("%.0f%%", 100 * c.stage_us[k] / total) << " |";
    }
    out << " " << format("%.0f%%", 100 * c.outside_stages_us / total) << " |\n";
  }
}

void report_memory(std::ostream& out, const std::vector<Comparison>& results) {
  out << "| model | Pliant MiB | MuJoCo MiB |\n|---|---:|---:|\n";
  for (const Comparison& c : results) {
    if (!c.error.empty()) continue;
    out << "| " << c.workload.name << " | " << megabytes(c.pliant.heap_bytes) << " | "
        << megabytes(c.mujoco.heap_bytes) << " |\n";
  }
}

void report_rollouts(std::ostream& out, const std::string& path, int steps) {
  const pliant::Model model = pliant::load_model(path);
  out << "| threads | steps/s | speed-up |\n|---:|---:|---:|\n";
  double single = 0;
  for (int threads : {1, 2}) {
    const double rate = pliant::rollout_steps_per_second(model, 64, steps, threads);
    if (threads == 1) single = rate;
    out << "| " << threads << " | " << format("%.0f", rate) << " | "
        << format("%.2f", rate / single) << " |\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string markdown_path, plot_path;
  Settings settings;
  bool quick = false;
  std::string count_workload, count_engine;
  long count_steps = 0;              // 0: 200 for a model, 20 for a pile
  long warmup = -1, min_steps = -1;  // -1: the settings' own
  std::vector<std::string> only;
  std::vector<std::string> extra_models;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--markdown" && i + 1 < argc) {
      markdown_path = argv[++i];
    } else if (arg == "--plot" && i + 1 < argc) {
      plot_path = argv[++i];
    } else if (arg == "--rounds" && i + 1 < argc) {
      settings.rounds = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--repetitions" && i + 1 < argc) {
      settings.repetitions = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--count-instructions" && i + 2 < argc) {
      count_workload = argv[++i];
      count_engine = argv[++i];
    } else if (arg == "--steps" && i + 1 < argc) {
      count_steps = std::max(1L, std::atol(argv[++i]));
    } else if (arg == "--quick") {
      quick = true;
    } else if (arg == "--warmup" && i + 1 < argc) {
      warmup = std::max(1L, std::atol(argv[++i]));
    } else if (arg == "--min-steps" && i + 1 < argc) {
      min_steps = std::max(1L, std::atol(argv[++i]));
    } else if (arg == "--model" && i + 1 < argc) {
      extra_models.push_back(argv[++i]);
    } else if (arg == "--only" && i + 1 < argc) {
      std::istringstream names(argv[++i]);
      for (std::string name; std::getline(names, name, ',');) only.push_back(name);
    } else {
      std::fprintf(stderr,
                   "usage: side_by_side [--markdown FILE] [--plot FILE.png] [--rounds R] "
                   "[--repetitions N] [--quick] [--only NAME,NAME] [--warmup N] [--min-steps N] "
                   "[--model FILE ...] | "
                   "--count-instructions WORKLOAD "
                   "pliant|mujoco [--steps N]\n");
      return 2;
    }
  }
  if (quick) {
    settings.rounds = 3;
    settings.repetitions = 1;
    settings.warmup = 50;
    settings.round_seconds = 0.02;
    settings.min_steps = 20;
  }
  if (warmup >= 0) settings.warmup = warmup;
  if (min_steps >= 0) settings.min_steps = std::min(min_steps, settings.max_steps);
  const std::string samples = PLIANT_MUJOCO_MODELS, test_models = PLIANT_TEST_MODELS;
  std::vector<Workload> models = {
      {"humanoid", samples + "/humanoid/humanoid.xml", 0, 0.1},
      {"22_humanoids", samples + "/humanoid/22_humanoids.xml", 0, 0.1},
      {"humanoid100", samples + "/humanoid100/humanoid100.xml", 0, 0.1},
      {"cheetah", test_models + "/dm_control/cheetah.xml", 0, 0.1},
      {"walker", test_models + "/dm_control/walker.xml", 0, 0.1},
      {"finger", test_models + "/dm_control/finger.xml", 0, 0.1},
      {"robotiq_2f85 scene", test_models + "/menagerie/robotiq_2f85/scene.xml", 0, 0.1},
  };
  for (const std::string& file : extra_models) {
    const std::filesystem::path path(file);
    const std::string name = (path.parent_path().filename() / path.stem()).string();
    models.push_back({name, file, 0, 0.1});
  }
  std::vector<int> piles =
      quick ? std::vector<int>{10, 100, 300, 1000} : std::vector<int>{10, 100, 300, 1000, 3000};

  if (!count_workload.empty()) {
    // 200 counted steps after the usual warm-up (a pile: N boxes, by name).
    for (const Workload& w : models) {
      if (w.name == count_workload)
        return count_instructions(w, count_engine, settings.warmup,
                                  count_steps ? count_steps : 200);
    }
    const int boxes = std::atoi(count_workload.c_str());
    if (boxes > 0) {
      return count_instructions({"pile", "", boxes, 0}, count_engine, 600,
                                count_steps ? count_steps : 20);
    }
    std::fprintf(stderr, "unknown workload %s\n", count_workload.c_str());
    return 2;
  }
  const auto wanted = [&only](const std::string& name) {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
  };
  models.erase(std::remove_if(models.begin(), models.end(),
                              [&](const Workload& w) { return !wanted(w.name); }),
               models.end());
  piles.erase(std::remove_if(piles.begin(), piles.end(),
                             [&](int boxes) { return !wanted(std::to_string(boxes)); }),
              piles.end());
  std::vector<std::vector<Comparison>> model_runs, pile_runs;
  for (int r = 0; r < settings.repetitions; ++r) {
    model_runs.emplace_back();
    pile_runs.emplace_back();
    for (const Workload& w : models) {
      std::fprintf(stderr, "[%d/%d] %s...\n", r + 1, settings.repetitions, w.name.c_str());
      model_runs.back().push_back(compare(w, settings));
    }
    for (int boxes : piles) {
      std::fprintf(stderr, "[%d/%d] pile of %d boxes...\n", r + 1, settings.repetitions, boxes);
      Workload w{"pile of " + std::to_string(boxes) + " boxes", "", boxes, 0};
      pile_runs.back().push_back(compare(w, settings));
    }
  }
  std::vector<Comparison> results = combine(model_runs);
  const std::vector<Comparison> scaling = combine(pile_runs);
  results.insert(results.end(), scaling.begin(), scaling.end());

  std::ostringstream out;
  out << "# Benchmarks: Pliant beside MuJoCo " << mj_versionString() << "\n\n"
      << "Measured on " << today() << ", " << machine_description() << ".\n"
      << "Reproduce with `bash samples/bench/run_benchmarks.sh`: it builds the `bench` preset "
         "(optimised, asserts off, as Debian builds libmujoco), runs "
         "`build/bench/samples/bench/side_by_side` and rewrites this file and "
         "`docs/bench-scaling.png`.\n\n"
      << "Each model is loaded from the same file by both engines, with the model's own "
         "options. Both step "
      << settings.warmup << " untimed steps, then " << settings.rounds
      << " alternating rounds of timed steps (each engine continues its own trajectory; a round "
         "is about "
      << settings.round_seconds
      << " s of Pliant's stepping, the same step count for both); the table shows each engine's "
         "median round. The whole comparison runs "
      << settings.repetitions
      << " times: the ratio is the median of the repetitions' ratios, their range in "
         "brackets, and the times are those of the median repetition. Models with actuators get "
         "control noise ctrl = 0.1 N(0,1) per step from "
         "the same seeded generator in both engines. Contacts, constraint rows and solver "
         "iterations are means over the timed steps, per engine: the comparison is fair only "
         "where they agree.\n\n"
      << "## Time per step (ratio = Pliant / MuJoCo; below 1 Pliant is faster)\n\n";
  report_comparisons(out, results);
  out << "\n## Where Pliant's step goes (share of the step, separate profiled pass)\n\n";
  report_profile(out, results);
  out << "\n## Scaling with the number of boxes\n\n"
      << "Generated piles (`pliant bench --box-pile N`): layers of boxes dropped onto a plane. "
         "Time per step from the table above; the plot is log-log, Pliant in red (1), MuJoCo in "
         "blue (2), x = boxes, y = microseconds per step; MuJoCo's point is missing where its "
         "buffers could not hold the pile's contacts.\n\n"
      << "![scaling](docs/bench-scaling.png)\n\n";
  report_comparisons(out, scaling);
  out << "\n## Heap memory (model + data)\n\n"
      << "Pliant: bytes its model and data took from glibc's allocator (`mallinfo2`) while "
         "loading and stepping, growth included. MuJoCo: the model and data buffers it allocates "
         "(`mjModel.nbuffer`, `mjData.nbuffer` and the stack arena: `nstack` in 2.x, `narena` in "
         "3.x), fixed at "
         "`mj_makeData`.\n\n";
  report_memory(out, results);
  out << "\n## Batched rollouts (Pliant)\n\n"
      << "64 `Data` over one humanoid `Model`, 200 steps each, split over threads "
         "(`samples/rollout`).\n\n";
  report_rollouts(out, samples + "/humanoid/humanoid.xml", 200);

  std::printf("%s", out.str().c_str());
  if (!markdown_path.empty()) std::ofstream(markdown_path) << out.str();
  if (!plot_path.empty()) {
    std::vector<pliant::bench::ScalingPoint> points;
    for (const Comparison& c : scaling) {
      if (c.error.empty()) {
        // MuJoCo's point is left out where it dropped contacts.
        points.push_back(
            {static_cast<double>(c.workload.boxes), c.pliant.median_us(),
             c.comparable() && !c.pliant_only() ? c.mujoco.median_us() : std::nan("")});
      }
    }
    if (!pliant::bench::write_scaling_plot(points, plot_path)) {
      std::fprintf(stderr, "could not write %s\n", plot_path.c_str());
      return 1;
    }
  }
  return 0;
}
