// Batched throughput: B copies of a scene's data over one model, each
// stepped S times, on 1..N threads, Pliant and MuJoCo 3.x side by side on the
// same batch. Thread t steps the contiguous slice [t B / n, (t + 1) B / n)
// of the batch; each data starts from the model's initial state with the
// same small random velocities in both engines (qvel ~ N(0, 0.01^2) from
// mt19937_64 seeded with the data's index), so a batch of the pile is a
// pile just dropped, in its first S steps. Each repetition starts the batch
// afresh and times only the stepping; printed: steps per second (median
// over the repetitions, range), the speed-up over one thread and Pliant's
// throughput over MuJoCo's. The engines step the same numbers of steps from
// the same states; their trajectories part where their contacts do.
//
//   batch_bench [--threads N] [--repetitions R] [--batch B] [--steps S] [--only NAME]
//
// --batch and --steps replace every scene's own (chosen so that one thread
// takes about a second); --only keeps one scene (its name in the table).

#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/shared/scenes.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Scene {
  std::string name;
  std::string path;  // empty for the generated pile
  int boxes = 0;
  int batch = 64;
  int steps = 200;
};

// Runs work(first, last) on `threads` threads, each on its contiguous slice
// of [0, count); returns the wall time in seconds.
double on_threads(int threads, int count, const std::function<void(int, int)>& work) {
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) {
    pool.emplace_back(work, t * count / threads, (t + 1) * count / threads);
  }
  work(0, count / threads);
  for (std::thread& thread : pool) thread.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The batch's starting velocities: row i for data i.
std::vector<std::vector<double>> start_velocities(int batch, int nv) {
  std::vector<std::vector<double>> qvel(batch, std::vector<double>(nv));
  for (int i = 0; i < batch; ++i) {
    std::mt19937_64 rng(i);
    std::normal_distribution<double> normal(0, 0.01);
    for (double& v : qvel[i]) v = normal(rng);
  }
  return qvel;
}

struct Rates {
  std::vector<double> samples;  // steps per second, one per repetition
  double median() const {
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
  double low() const { return *std::min_element(samples.begin(), samples.end()); }
  double high() const { return *std::max_element(samples.begin(), samples.end()); }
};

std::string format_rate(const Rates& r) {
  char text[96];
  std::snprintf(text, sizeof(text), "%.0f [%.0f-%.0f]", r.median(), r.low(), r.high());
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  int max_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int repetitions = 5, batch_override = 0, steps_override = 0;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const auto next = [&] { return i + 1 < argc ? argv[++i] : ""; };
    if (!std::strcmp(argv[i], "--threads"))
      max_threads = std::max(1, std::atoi(next()));
    else if (!std::strcmp(argv[i], "--repetitions"))
      repetitions = std::max(1, std::atoi(next()));
    else if (!std::strcmp(argv[i], "--batch"))
      batch_override = std::atoi(next());
    else if (!std::strcmp(argv[i], "--steps"))
      steps_override = std::atoi(next());
    else if (!std::strcmp(argv[i], "--only"))
      only = next();
    else {
      std::fprintf(stderr,
                   "unknown argument %s; accepted: --threads N --repetitions R --batch B "
                   "--steps S --only NAME\n",
                   argv[i]);
      return 2;
    }
  }
  const std::string samples = PLIANT_MUJOCO_MODELS, models = PLIANT_TEST_MODELS;
  std::vector<Scene> scenes = {
      {"humanoid", samples + "/humanoid/humanoid.xml", 0, 64, 200},
      {"cheetah", models + "/dm_control/cheetah.xml", 0, 64, 1000},
      {"humanoid100", samples + "/humanoid100/humanoid100.xml", 0, 16, 50},
      {"pile of 100 boxes, just dropped", "", 100, 8, 100},
  };
  std::printf(
      "Batched throughput, Pliant against MuJoCo %s: steps per second over the batch, "
      "median of %d repetitions [range]\n\n",
      mj_versionString(), repetitions);
  std::printf(
      "| scene | batch x steps | threads | Pliant steps/s | speed-up | MuJoCo steps/s | "
      "speed-up | Pliant / MuJoCo |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
  for (Scene& scene : scenes) {
    if (!only.empty() && scene.name != only) continue;
    if (batch_override > 0) scene.batch = batch_override;
    if (steps_override > 0) scene.steps = steps_override;
    std::string path = scene.path;
    if (scene.boxes > 0) {
      path = (std::filesystem::temp_directory_path() / "pliant_batch_pile.xml").string();
      std::ofstream(path) << pliant::scenes::box_pile_xml(scene.boxes);
    }
    const pliant::Model pm = pliant::load_model(path);
    char error[1000] = "";
    mjModel* mm = mj_loadXML(path.c_str(), nullptr, error, sizeof(error));
    if (!mm) {
      std::printf("| %s | MuJoCo does not load it: %s |\n", scene.name.c_str(), error);
      continue;
    }
    const int batch = scene.batch, steps = scene.steps;
    const auto qvel = start_velocities(batch, pm.nv);
    std::vector<pliant::Data> ours(batch, pliant::Data(pm));
    std::vector<mjData*> theirs(batch);
    for (mjData*& d : theirs) d = mj_makeData(mm);
    // Thread counts alternate within each repetition (and the engines
    // within each count), so that all see the same machine; a first,
    // untimed pass touches every buffer.
    std::vector<Rates> rate_ours(max_threads + 1), rate_theirs(max_threads + 1);
    for (int r = -1; r < repetitions; ++r) {
      for (int threads = 1; threads <= max_threads; ++threads) {
        for (int i = 0; i < batch; ++i) {
          pliant::reset_data(pm, ours[i]);
          std::copy(qvel[i].begin(), qvel[i].end(), ours[i].qvel.data());
          mj_resetData(mm, theirs[i]);
          std::copy(qvel[i].begin(), qvel[i].end(), theirs[i]->qvel);
        }
        const double total = static_cast<double>(batch) * steps;
        const double ours_seconds = on_threads(threads, batch, [&](int first, int last) {
          for (int i = first; i < last; ++i) {
            for (int k = 0; k < steps; ++k) pliant::step(pm, ours[i]);
          }
        });
        const double theirs_seconds = on_threads(threads, batch, [&](int first, int last) {
          for (int i = first; i < last; ++i) {
            for (int k = 0; k < steps; ++k) mj_step(mm, theirs[i]);
          }
        });
        if (r < 0) continue;
        rate_ours[threads].samples.push_back(total / ours_seconds);
        rate_theirs[threads].samples.push_back(total / theirs_seconds);
      }
    }
    for (int threads = 1; threads <= max_threads; ++threads) {
      const Rates& o = rate_ours[threads];
      const Rates& t = rate_theirs[threads];
      std::printf("| %s | %d x %d | %d | %s | %.2f | %s | %.2f | **%.2f** |\n", scene.name.c_str(),
                  batch, steps, threads, format_rate(o).c_str(), o.median() / rate_ours[1].median(),
                  format_rate(t).c_str(), t.median() / rate_theirs[1].median(),
                  o.median() / t.median());
    }
    std::fflush(stdout);
    for (mjData* d : theirs) mj_deleteData(d);
    mj_deleteModel(mm);
  }
  return 0;
}
