#include "samples/runner/plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "samples/runner/canvas.h"

namespace pliant::runner {
namespace {

std::string label(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", v);
  return buffer;
}

}  // namespace

bool write_plot_png(const RunResult& r, const std::string& path) {
  const int panels = std::max<int>(1, std::min<int>(8, static_cast<int>(r.series.size())));
  const int width = 900, panel_height = 160, left = 90, right = 20, top = 14, gap = 26;
  const int height = panels * (panel_height + gap) + top;
  Canvas canvas(width, height);
  const std::array<std::array<uint8_t, 3>, 8> colors = {{{200, 40, 40},
                                                         {40, 110, 200},
                                                         {40, 150, 60},
                                                         {190, 120, 20},
                                                         {140, 60, 170},
                                                         {20, 150, 150},
                                                         {120, 120, 120},
                                                         {200, 60, 140}}};
  const std::array<uint8_t, 3> ink = {40, 40, 40}, grid = {215, 215, 215};
  const double t0 = r.times.empty() ? 0 : r.times.front();
  const double t1 = r.times.empty() ? 1 : std::max(r.times.back(), t0 + 1e-12);
  for (int p = 0; p < panels && p < static_cast<int>(r.series.size()); ++p) {
    const std::vector<double>& v = r.series[p].values;
    const int y0 = top + p * (panel_height + gap), y1 = y0 + panel_height;
    const int x0 = left, x1 = width - right;
    double lo = *std::min_element(v.begin(), v.end());
    double hi = *std::max_element(v.begin(), v.end());
    if (hi - lo < 1e-12 * std::max(1.0, std::abs(hi))) {
      lo -= 0.5;
      hi += 0.5;
    }
    for (int k = 1; k < 4; ++k) {
      const int y = y0 + k * panel_height / 4;
      canvas.line(x0, y, x1, y, grid);
    }
    canvas.rect(x0, y0, x1, y1, ink);
    canvas.text(6, y0, label(hi), ink);
    canvas.text(6, y1 - 10, label(lo), ink);
    canvas.text(x0 + 6, y0 + 6, std::to_string(p + 1), colors[p % colors.size()]);
    canvas.text(x0, y1 + 6, label(t0), ink);
    canvas.text(x1 - 70, y1 + 6, label(t1), ink);
    auto to_x = [&](double t) { return x0 + static_cast<int>((t - t0) / (t1 - t0) * (x1 - x0)); };
    auto to_y = [&](double value) {
      return y1 - static_cast<int>((value - lo) / (hi - lo) * (panel_height - 4)) - 2;
    };
    for (size_t k = 1; k < v.size(); ++k) {
      canvas.line(to_x(r.times[k - 1]), to_y(v[k - 1]), to_x(r.times[k]), to_y(v[k]),
                  colors[p % colors.size()]);
    }
  }
  return canvas.save_png(path);
}

}  // namespace pliant::runner
