#include "samples/bench/workloads.h"

#include <malloc.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "pliant/forward.h"

namespace pliant::bench {

std::string box_pile_xml(int count, int fixed_rows) {
  // Layers of side x side boxes, as many layers as needed.
  const int side = std::max(1, static_cast<int>(std::ceil(std::cbrt(static_cast<double>(count)))));
  const double pitch = 0.13, layer_height = 0.14, half = 0.05;
  std::string xml = "<mujoco model=\"pile of " + std::to_string(count) +
                    " boxes\">\n"
                    "  <compiler angle=\"radian\"/>\n" +
                    (fixed_rows > 0 ? "  <size nconmax=\"" + std::to_string(fixed_rows / 4) +
                                          "\" njmax=\"" + std::to_string(fixed_rows) + "\"/>\n"
                                    : std::string()) +
                    "  <option timestep=\"0.002\"/>\n"
                    "  <worldbody>\n"
                    "    <light pos=\"0 0 6\" dir=\"0 0 -1\"/>\n"
                    "    <geom name=\"floor\" type=\"plane\" size=\"0 0 0.1\"/>\n";
  uint32_t state = 12345;  // a small LCG keeps the jitter identical everywhere
  auto jitter = [&state] {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) / double(1 << 24) - 0.5;  // [-0.5, 0.5)
  };
  char line[256];
  for (int i = 0; i < count; ++i) {
    const int layer = i / (side * side), in_layer = i % (side * side);
    const double x = (in_layer % side - 0.5 * (side - 1)) * pitch + 0.04 * jitter();
    const double y = (in_layer / side - 0.5 * (side - 1)) * pitch + 0.04 * jitter();
    const double z = half + 0.02 + layer * layer_height;
    const double yaw = 0.6 * jitter(), tilt = 0.2 * jitter();
    std::snprintf(line, sizeof(line),
                  "    <body pos=\"%.4f %.4f %.4f\" euler=\"%.4f 0 %.4f\"><freejoint/>"
                  "<geom type=\"box\" size=\"%g %g %g\"/></body>\n",
                  x, y, z, tilt, yaw, half, half, half);
    xml += line;
  }
  return xml + "  </worldbody>\n</mujoco>\n";
}

double step_pliant(const Model& model, Data& data, long steps, ControlNoise& noise,
                   StepTally& tally) {
  double seconds = 0;
  for (long s = 0; s < steps; ++s) {
    noise.fill(data.ctrl.data(), model.nu);
    const auto start = std::chrono::steady_clock::now();
    step(model, data);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    tally.add(static_cast<double>(data.contacts.size()), data.efc.count(), data.solver.iterations);
  }
  return seconds;
}

double heap_bytes_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd);
}

}  // namespace pliant::bench
