// Checks viewer screenshots. Two forms:
//   screenshot_check WITH_PANELS.png NO_PANELS.png WIDTH HEIGHT
// Both pictures have the asked size; the scene is not blank (shaded geoms
// give many distinct colours in the middle of the picture); and the panels
// are present: the left strip differs from the same frame without panels.
//   screenshot_check --geoms PICTURE.png INFO.json MIN_GEOMS
// Geoms are drawn where the camera projects them: at the pixel of each geom
// centre listed by `pliant view --screenshot-info`, the picture differs from
// the background the viewer rendered there with nothing in the scene, and
// at least MIN_GEOMS geoms are listed.
// Prints what it measured; exits 1 on the first failed check.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

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

// Sum over the channels of the absolute differences, 0..765.
int colour_distance(const unsigned char* a, const int* b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

int check_geoms(const char* picture_path, const char* info_path, int min_geoms) {
  Picture picture;
  if (!load(picture_path, picture)) return fail("cannot read the PNG");
  std::ifstream file(info_path);
  nlohmann::json info;
  try {
    info = nlohmann::json::parse(file);
  } catch (const std::exception& e) {
    std::printf("%s\n", e.what());
    return fail("cannot read the screenshot information");
  }
  if (info["image"]["width"] != picture.width || info["image"]["height"] != picture.height) {
    return fail("the information describes a picture of another size");
  }
  const nlohmann::json& geoms = info["geoms"];
  std::printf("geoms in view: %zu (outside: %d)\n", geoms.size(), info["outside"].get<int>());
  if (static_cast<int>(geoms.size()) < min_geoms) return fail("too few geoms in view");
  // Antialiased edges and shading vary; a geom's own colour is far from
  // the sky's. The 3x3 block around the centre must differ clearly.
  constexpr int kThreshold = 30;
  int failures = 0;
  for (const nlohmann::json& g : geoms) {
    const int x = g["x"], y = g["y"];
    const int background[3] = {g["background"][0], g["background"][1], g["background"][2]};
    int nearest = 765;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int px = std::clamp(x + dx, 0, picture.width - 1);
        const int py = std::clamp(y + dy, 0, picture.height - 1);
        nearest = std::min(nearest, colour_distance(picture.at(px, py), background));
      }
    }
    const bool drawn = nearest >= kThreshold;
    std::printf("  %-12s at (%4d, %4d): differs from the background by %3d %s\n",
                g["name"].get<std::string>().c_str(), x, y, nearest, drawn ? "" : "<- not drawn");
    if (!drawn) ++failures;
  }
  if (failures > 0) return fail("geoms missing where the camera projects them");
  std::printf("PASS\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "--geoms") {
    return check_geoms(argv[2], argv[3], std::atoi(argv[4]));
  }
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
