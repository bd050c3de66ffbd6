#include "samples/shared/scenes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace pliant::scenes {

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

std::string box_stack_xml(const BoxStack& s) {
  const std::string plane = std::to_string(s.plane);
  const std::string half = std::to_string(s.half);
  std::string xml = "<mujoco>" + s.header + "<worldbody><geom type='plane' size='" + plane + " " +
                    plane + " .1'/>";
  for (int i = 0; i < s.count; ++i) {
    const int layer = i / s.per_layer, in_layer = i % s.per_layer;
    const double x = s.pitch_x * (in_layer % s.per_row) + s.layer_shift_x * layer;
    const double y = s.pitch_y * (in_layer / s.per_row) + s.layer_shift_y * layer;
    const double z = s.bottom + s.layer_height * layer;
    xml +=
        "<body pos='" + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z) + "'";
    if (s.tilt != 0 || s.yaw_step != 0) {
      xml += " euler='" + std::to_string(s.tilt) + " 0 " + std::to_string(s.yaw_step * i) + "'";
    }
    xml += "><freejoint/><geom type='box' size='" + half + " " + half + " " + half + "'/></body>";
  }
  return xml + s.extra_bodies + "</worldbody></mujoco>";
}

BoxStack two_layers_of_six() {
  BoxStack s;
  s.count = 12;
  s.per_row = s.per_layer = 6;
  s.pitch_x = 0.25;
  s.layer_shift_y = 0.03;
  return s;
}

}  // namespace pliant::scenes
