// What sensors cost: the dm_control humanoid (34 sensors: IMU, 6 force and 6
// torque cells, 18 touch pads, a subtree velocity) falling and lying on the
// floor with control noise, stepped with its sensors and with the sensor flag
// off, in alternating rounds. Prints per round and the median (with the
// min-max spread) of the step time both ways, the sensor stage's own time
// (stage timers), and the share of the step it takes.
//
//   sensor_bench [MODEL.xml] [--rounds R] [--steps N]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "samples/bench/workloads.h"

namespace {

struct Spread {
  double median, min, max;
};

Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = PLIANT_TEST_MODELS "/dm_control/humanoid.xml";
  int rounds = 9;
  long steps = 2000;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--steps" && i + 1 < argc) {
      steps = std::max(1, std::atoi(argv[++i]));
    } else {
      path = arg;
    }
  }
  using namespace pliant;
  const Model with = load_model(path);
  Model without = with;
  without.options.flags.sensor = false;
  std::printf("%s: %d sensors (%d values), %ld steps x %d rounds, control noise 0.1\n",
              path.c_str(), with.sensors.count(), with.sensors.data_size, steps, rounds);
  std::vector<double> on_us, off_us, stage_us, share;
  for (int r = 0; r < rounds; ++r) {
    // Both runs start from the same state and follow the same controls.
    double us[2];
    for (int k = 0; k < 2; ++k) {
      const Model& m = k == 0 ? with : without;
      Data d(m);
      bench::ControlNoise noise(0.1, 1 + r);
      bench::StepTally tally;
      bench::step_pliant(m, d, 200, noise, tally);
      d.timers.enabled = k == 0;
      d.timers.reset();
      us[k] = 1e6 * bench::step_pliant(m, d, steps, noise, tally) / steps;
      if (k == 0) {
        stage_us.push_back(1e6 * d.timers.total(Stage::kSensors) / steps);
        share.push_back(d.timers.total(Stage::kSensors) / d.timers.total(Stage::kStep));
      }
    }
    on_us.push_back(us[0]);
    off_us.push_back(us[1]);
    std::printf(
        "round %d: step %.2f us with sensors, %.2f us without; sensor stage %.3f us (%.2f%%)\n", r,
        us[0], us[1], stage_us.back(), 100 * share.back());
  }
  const Spread on = spread(on_us), off = spread(off_us), stage = spread(stage_us),
               part = spread(share);
  std::printf("step with sensors     median %.2f us  (min %.2f, max %.2f)\n", on.median, on.min,
              on.max);
  std::printf("step without sensors  median %.2f us  (min %.2f, max %.2f)\n", off.median, off.min,
              off.max);
  std::printf("sensor stage          median %.3f us  (min %.3f, max %.3f)\n", stage.median,
              stage.min, stage.max);
  std::printf("sensor share of step  median %.2f%%  (min %.2f%%, max %.2f%%)\n", 100 * part.median,
              100 * part.min, 100 * part.max);
  return 0;
}
