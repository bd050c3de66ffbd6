#pragma once

// A small RGB raster with what line plots need: pixels, thick lines,
// rectangles, numbers in a built-in pixel font, and saving as PNG.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pliant::runner {

using Rgb = std::array<uint8_t, 3>;

class Canvas {
 public:
  Canvas(int width, int height) : w_(width), h_(height), rgb_(3 * width * height, 255) {}

  int width() const { return w_; }
  int height() const { return h_; }
  void pixel(int x, int y, Rgb c);
  // Bresenham line, two pixels thick for legibility.
  void line(int x0, int y0, int x1, int y1, Rgb c);
  void rect(int x0, int y0, int x1, int y1, Rgb c);
  // Numbers in a 3x5 pixel font scaled by 2: digits, '.', '-', 'e', '+';
  // other characters leave a gap. Each character is 8 pixels wide.
  void text(int x, int y, const std::string& s, Rgb c);
  bool save_png(const std::string& path) const;

 private:
  int w_, h_;
  std::vector<uint8_t> rgb_;
};

}  // namespace pliant::runner
