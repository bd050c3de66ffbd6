// Checks a viewer screenshot: `screenshot_check WITH_PANELS.png NO_PANELS.png WIDTH HEIGHT`.
// Both pictures have the asked size; the scene is not blank (shaded geoms
// give many distinct colours in the middle of the picture); and the panels
// are present: the left strip differs from the same frame without panels.
// Prints what it measured; exits 1 on the first failed check.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

namespace {

struct Picture {
  int width = 0, height = 0;
  unsigned char* rgb = nullptr;
  const unsigned char* at(int x, int y) const { return rgb + 3 * (y * width + x); }
};

bool load(const char* path, Picture& p) {
  int channels = 0;
  p.rgb = stbi_load(path, &p.width, &p.height, &channels, 3);
  return p.rgb != nullptr;
}

int fail(const char* what) {
  std::printf("FAIL: %s\n", what);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) return fail("usage: screenshot_check WITH.png WITHOUT.png WIDTH HEIGHT");
  Picture with, without;
  if (!load(argv[1], with) || !load(argv[2], without)) return fail("cannot read the PNGs");
  const int width = std::atoi(argv[3]), height = std::atoi(argv[4]);
  std::printf("sizes: %dx%d and %dx%d (asked %dx%d)\n", with.width, with.height, without.width,
              without.height, width, height);
  if (with.width != width || with.height != height || without.width != width ||
      without.height != height) {
    return fail("wrong size");
  }
  // Distinct colours (quantised to 5 bits) in the central half of the frame.
  std::set<int> colours;
  for (int y = height / 4; y < 3 * height / 4; ++y) {
    for (int x = width / 4; x < 3 * width / 4; ++x) {
      const unsigned char* c = without.at(x, y);
      colours.insert(((c[0] >> 3) << 10) | ((c[1] >> 3) << 5) | (c[2] >> 3));
    }
  }
  std::printf("distinct colours in the centre: %zu\n", colours.size());
  if (colours.size() < 50) return fail("the scene looks blank");
  // Mean absolute difference over the left 20 % strip.
  double difference = 0;
  const int strip = width / 5;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < strip; ++x) {
      for (int k = 0; k < 3; ++k) difference += std::abs(with.at(x, y)[k] - without.at(x, y)[k]);
    }
  }
  difference /= 3.0 * strip * height;
  std::printf("left strip difference with and without panels: %.1f (of 255)\n", difference);
  if (difference < 10) return fail("no panel drawn on the left");
  std::printf("PASS\n");
  return 0;
}
