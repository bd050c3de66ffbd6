#include "samples/runner/plot.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace pliant::runner {
namespace {

// A raster canvas with just what a line plot needs.
class Canvas {
 public:
  Canvas(int width, int height) : w_(width), h_(height), rgb_(3 * width * height, 255) {}

  void pixel(int x, int y, std::array<uint8_t, 3> c) {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
    for (int k = 0; k < 3; ++k) rgb_[3 * (y * w_ + x) + k] = c[k];
  }

  // Bresenham line, two pixels thick for legibility.
  void line(int x0, int y0, int x1, int y1, std::array<uint8_t, 3> c) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    while (true) {
      pixel(x0, y0, c);
      pixel(x0, y0 + 1, c);
      if (x0 == x1 && y0 == y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  void rect(int x0, int y0, int x1, int y1, std::array<uint8_t, 3> c) {
    line(x0, y0, x1, y0, c);
    line(x1, y0, x1, y1, c);
    line(x1, y1, x0, y1, c);
    line(x0, y1, x0, y0, c);
  }

  // Numbers in a 3x5 pixel font scaled by 2: digits, '.', '-', 'e', '+'.
  void text(int x, int y, const std::string& s, std::array<uint8_t, 3> c) {
    for (char ch : s) {
      const uint16_t* glyph = glyph_for(ch);
      if (glyph != nullptr) {
        for (int row = 0; row < 5; ++row) {
          for (int col = 0; col < 3; ++col) {
            if (glyph[row] & (4 >> col)) {
              for (int a = 0; a < 2; ++a) {
                for (int b = 0; b < 2; ++b) pixel(x + 2 * col + a, y + 2 * row + b, c);
              }
            }
          }
        }
      }
      x += 8;
    }
  }

  bool save(const std::string& path) const {
    return stbi_write_png(path.c_str(), w_, h_, 3, rgb_.data(), 3 * w_) != 0;
  }

 private:
  static const uint16_t* glyph_for(char ch) {
    // Rows top to bottom, 3 bits each (left bit = 4).
    static const uint16_t digits[10][5] = {
        {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
        {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7}};
    static const uint16_t dot[5] = {0, 0, 0, 0, 2}, minus[5] = {0, 0, 7, 0, 0};
    static const uint16_t e[5] = {7, 4, 7, 4, 7}, plus[5] = {0, 2, 7, 2, 0};
    if (ch >= '0' && ch <= '9') return digits[ch - '0'];
    switch (ch) {
      case '.':
        return dot;
      case '-':
        return minus;
      case 'e':
        return e;
      case '+':
        return plus;
      default:
        return nullptr;
    }
  }

  int w_, h_;
  std::vector<uint8_t> rgb_;
};

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
  return canvas.save(path);
}

}  // namespace pliant::runner
