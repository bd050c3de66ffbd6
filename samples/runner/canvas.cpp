#include "samples/runner/canvas.h"

#include <stb/stb_image_write.h>

#include <cstdlib>

namespace pliant::runner {
namespace {

// Glyph rows top to bottom, 3 bits each (left bit = 4); nullptr for a gap.
const uint16_t* glyph_for(char ch) {
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

}  // namespace

void Canvas::pixel(int x, int y, Rgb c) {
  if (x < 0 || y < 0 || x >= w_ || y >= h_) return;
  for (int k = 0; k < 3; ++k) rgb_[3 * (y * w_ + x) + k] = c[k];
}

void Canvas::line(int x0, int y0, int x1, int y1, Rgb c) {
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

void Canvas::rect(int x0, int y0, int x1, int y1, Rgb c) {
  line(x0, y0, x1, y0, c);
  line(x1, y0, x1, y1, c);
  line(x1, y1, x0, y1, c);
  line(x0, y1, x0, y0, c);
}

void Canvas::text(int x, int y, const std::string& s, Rgb c) {
  for (char ch : s) {
    if (const uint16_t* glyph = glyph_for(ch)) {
      for (int row = 0; row < 5; ++row) {
        for (int col = 0; col < 3; ++col) {
          if (!(glyph[row] & (4 >> col))) continue;
          for (int a = 0; a < 2; ++a) {
            for (int b = 0; b < 2; ++b) pixel(x + 2 * col + a, y + 2 * row + b, c);
          }
        }
      }
    }
    x += 8;
  }
}

bool Canvas::save_png(const std::string& path) const {
  return stbi_write_png(path.c_str(), w_, h_, 3, rgb_.data(), 3 * w_) != 0;
}

}  // namespace pliant::runner
