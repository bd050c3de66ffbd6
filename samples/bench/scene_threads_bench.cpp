// One large scene on several threads (Data::threads): generated box piles,
// each settled on one thread, then copied into one Data per thread count and
// stepped in alternating rounds of the same number of steps from the same
// state. Printed per pile: microseconds per step (median over the rounds,
// range), the speed-up over one thread (median of the rounds' ratios,
// range), and whether every copy ended in the state of one thread, bit for
// bit (it must); then the share of the constraint rows in the largest
// island, which bounds what solving islands side by side can gain.
//
//   scene_threads_bench [--sizes 300,1000,3000] [--threads 2] [--rounds 5]
//                       [--steps S] [--warmup W]
//
// --steps sets the steps of a round (default: about 0.3 s of one thread);
// --warmup the settling steps (default 300).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/workspace.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/shared/scenes.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_for(const pliant::Model& model, pliant::Data& data, long steps) {
  const auto start = Clock::now();
  for (long s = 0; s < steps; ++s) pliant::step(model, data);
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool same_state(const pliant::Data& a, const pliant::Data& b) {
  const auto same = [](const pliant::VectorXd& x, const pliant::VectorXd& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), sizeof(double) * x.size()) == 0;
  };
  return same(a.qpos, b.qpos) && same(a.qvel, b.qvel) && same(a.qacc_warmstart, b.qacc_warmstart);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  size_t at = 0;
  while (at < text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    sizes.push_back(std::atoi(text.substr(at, comma - at).c_str()));
    at = comma + 1;
  }
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {300, 1000, 3000};
  std::vector<int> thread_counts = {1, 2};
  int rounds = 5;
  long steps = 0, warmup = 300;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--sizes" && i + 1 < argc) {
      sizes = parse_sizes(argv[++i]);
    } else if (arg == "--threads" && i + 1 < argc) {
      thread_counts.clear();
      for (int t = 1; t <= std::atoi(argv[i + 1]); ++t) thread_counts.push_back(t);
      ++i;
    } else if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--steps" && i + 1 < argc) {
      steps = std::atol(argv[++i]);
    } else if (arg == "--warmup" && i + 1 < argc) {
      warmup = std::atol(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: scene_threads_bench [--sizes N,N] [--threads T] [--rounds R] "
                   "[--steps S] [--warmup W]\n");
      return 2;
    }
  }
  if (thread_counts.size() < 2) {
    std::fprintf(stderr, "--threads must be at least 2\n");
    return 2;
  }
  std::printf(
      "| boxes | steps x rounds | threads | us/step, median [range] | speed-up [range] |"
      " bit-identical | contacts | islands | largest island's rows |\n");
  std::printf("|---:|---|---:|---|---|---|---:|---:|---:|\n");
  for (const int boxes : sizes) {
    const pliant::Model model = pliant::load_model_from_string(pliant::scenes::box_pile_xml(boxes));
    pliant::Data settled(model);
    const long settling = std::max(warmup, 1L);
    const double settle_seconds = seconds_for(model, settled, settling);
    const long round_steps =
        steps > 0 ? steps : std::max(5L, static_cast<long>(0.3 / (settle_seconds / settling)));
    const pliant::IslandScratch& islands = pliant::workspace(settled).islands;
    const int count = static_cast<int>(islands.row_start.size()) - 1;
    int largest = 0;
    for (int g = 0; g < count; ++g) {
      largest = std::max(largest, islands.row_start[g + 1] - islands.row_start[g]);
    }
    const int rows = settled.efc.count();
    const size_t contacts = settled.contacts.size();

    std::vector<pliant::Data> datas(thread_counts.size(), settled);
    std::vector<std::vector<double>> per_step(thread_counts.size());
    std::vector<std::vector<double>> speedups(thread_counts.size());
    for (size_t k = 0; k < datas.size(); ++k) datas[k].threads = thread_counts[k];
    for (int r = 0; r < rounds; ++r) {
      std::vector<double> round(datas.size());
      // Alternate which count goes first, so a slow spell of the machine
      // does not always fall on the same one.
      for (size_t j = 0; j < datas.size(); ++j) {
        const size_t k = r % 2 == 0 ? j : datas.size() - 1 - j;
        round[k] = seconds_for(model, datas[k], round_steps) / round_steps;
      }
      for (size_t k = 0; k < datas.size(); ++k) {
        per_step[k].push_back(1e6 * round[k]);
        speedups[k].push_back(round[0] / round[k]);
      }
    }
    for (size_t k = 0; k < datas.size(); ++k) {
      const auto [lo, hi] = std::minmax_element(per_step[k].begin(), per_step[k].end());
      const auto [slo, shi] = std::minmax_element(speedups[k].begin(), speedups[k].end());
      std::printf(
          "| %d | %ld x %d | %d | %.0f [%.0f-%.0f] | %.2f [%.2f-%.2f] | %s | %zu | %d | "
          "%d of %d |\n",
          boxes, round_steps, rounds, thread_counts[k], median(per_step[k]), *lo, *hi,
          median(speedups[k]), *slo, *shi, same_state(datas[k], datas[0]) ? "yes" : "NO", contacts,
          count, largest, rows);
    }
    std::fflush(stdout);
  }
  return 0;
}
