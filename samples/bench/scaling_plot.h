#pragma once

// The scaling plot of the benchmark report: time per step against body
// count for both engines, log-log.

#include <string>
#include <vector>

namespace pliant::bench {

struct ScalingPoint {
  double bodies;
  double pliant_us, mujoco_us;  // time per step
};

// Writes a PNG: Pliant in red, MuJoCo in blue, decade grid lines labelled
// with their values. Returns false when the file cannot be written or there
// are fewer than two points. A non-finite time is left out of the plot.
bool write_scaling_plot(const std::vector<ScalingPoint>& points, const std::string& path);

}  // namespace pliant::bench
