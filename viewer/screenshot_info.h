#pragma once

// A JSON sidecar for a screenshot: where each drawn geom's centre lands in
// the picture and what the background looks like there, so that a test can
// check that geoms are drawn where the camera puts them.

#include <string>
#include <vector>

#include "viewer/camera.h"
#include "viewer/offscreen.h"
#include "viewer/scene.h"

namespace pliant::viewer {

// Where the 3-D view lies in the picture (pixels, y down).
struct ViewRectangle {
  int left = 0, top = 0, width = 0, height = 0;
  // The bottom edge counted from the framebuffer's bottom, as OpenGL wants.
  int bottom(int framebuffer_height) const { return framebuffer_height - top - height; }
};

// Writes {"image": {...}, "view": {...}, "geoms": [{"geom", "name", "body",
// "x", "y", "background": [r, g, b]}, ...], "outside": n} for the geoms among
// `items` (each once, skipping near-invisible ones) whose centre falls in
// the view; `background` is the same frame rendered with no items. False
// with a sentence in *error when the file cannot be written.
bool write_screenshot_info(const std::string& path, const Model& model, const Data& data,
                           const std::vector<DrawItem>& items, const CameraView& view,
                           const ViewRectangle& rect, const Image& background, std::string* error);

}  // namespace pliant::viewer
