#include "samples/bench/scaling_plot.h"

#include <algorithm>
#include <cmath>

#include "samples/runner/canvas.h"

namespace pliant::bench {

bool write_scaling_plot(const std::vector<ScalingPoint>& points, const std::string& path) {
  if (points.size() < 2) return false;
  const int width = 720, height = 480, left = 80, right = 30, top = 30, bottom = 50;
  runner::Canvas canvas(width, height);
  const runner::Rgb ink = {40, 40, 40}, grid = {215, 215, 215};
  const runner::Rgb pliant_color = {200, 40, 40}, mujoco_color = {40, 110, 200};

  // Whole decades that cover the data on both axes.
  double x_lo = 1e300, x_hi = 0, y_lo = 1e300, y_hi = 0;
  for (const ScalingPoint& p : points) {
    x_lo = std::min(x_lo, p.bodies);
    x_hi = std::max(x_hi, p.bodies);
    for (double y : {p.pliant_us, p.mujoco_us}) {
      if (!std::isfinite(y)) continue;
      y_lo = std::min(y_lo, y);
      y_hi = std::max(y_hi, y);
    }
  }
  const int dx0 = static_cast<int>(std::floor(std::log10(x_lo)));
  const int dx1 = std::max(dx0 + 1, static_cast<int>(std::ceil(std::log10(x_hi))));
  const int dy0 = static_cast<int>(std::floor(std::log10(y_lo)));
  const int dy1 = std::max(dy0 + 1, static_cast<int>(std::ceil(std::log10(y_hi))));
  const int x0 = left, x1 = width - right, y0 = top, y1 = height - bottom;
  auto to_x = [&](double v) {
    return x0 + static_cast<int>((std::log10(v) - dx0) / (dx1 - dx0) * (x1 - x0));
  };
  auto to_y = [&](double v) {
    return y1 - static_cast<int>((std::log10(v) - dy0) / (dy1 - dy0) * (y1 - y0));
  };
  for (int d = dx0; d <= dx1; ++d) {
    const int x = to_x(std::pow(10.0, d));
    canvas.line(x, y0, x, y1, grid);
    const std::string label = std::to_string(static_cast<long>(std::pow(10.0, d)));
    canvas.text(x - 4 * static_cast<int>(label.size()), y1 + 10, label, ink);
  }
  for (int d = dy0; d <= dy1; ++d) {
    const int y = to_y(std::pow(10.0, d));
    canvas.line(x0, y, x1, y, grid);
    const std::string label =
        d >= 0 ? std::to_string(static_cast<long>(std::pow(10.0, d))) : "1e" + std::to_string(d);
    canvas.text(x0 - 10 - 8 * static_cast<int>(label.size()), y - 5, label, ink);
  }
  canvas.rect(x0, y0, x1, y1, ink);
  // Markers joined by lines; a missing (non-finite) value breaks the line.
  auto series = [&](auto value, runner::Rgb color) {
    for (size_t k = 0; k < points.size(); ++k) {
      if (!std::isfinite(value(points[k]))) continue;
      const int x = to_x(points[k].bodies), y = to_y(value(points[k]));
      for (int a = -3; a <= 3; ++a) canvas.line(x - 3, y + a, x + 3, y + a, color);
      if (k > 0 && std::isfinite(value(points[k - 1]))) {
        canvas.line(to_x(points[k - 1].bodies), to_y(value(points[k - 1])), x, y, color);
      }
    }
  };
  series([](const ScalingPoint& p) { return p.pliant_us; }, pliant_color);
  series([](const ScalingPoint& p) { return p.mujoco_us; }, mujoco_color);
  canvas.text(x0 + 10, y0 + 10, "1", pliant_color);
  canvas.text(x0 + 10, y0 + 26, "2", mujoco_color);
  return canvas.save_png(path);
}

}  // namespace pliant::bench
