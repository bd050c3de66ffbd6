#include "viewer/screenshot_info.h"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "viewer/panels.h"

namespace pliant::viewer {

bool write_screenshot_info(const std::string& path, const Model& model, const Data& data,
                           const std::vector<DrawItem>& items, const CameraView& view,
                           const ViewRectangle& rect, const Image& background, std::string* error) {
  nlohmann::json geoms = nlohmann::json::array();
  std::set<int> seen;
  int outside = 0;
  for (const DrawItem& item : items) {
    // A geom can be drawn as several items (a capsule's tube and caps): once each.
    if (item.geom < 0 || item.color.w() < 0.5f || !seen.insert(item.geom).second) continue;
    const int g = item.geom;
    double x = 0, y = 0;
    const bool in_front = project_point(view, data.geom_xpos[g], rect.width, rect.height, &x, &y);
    // Keep a pixel of margin so that the sampled pixel is surely inside the view.
    if (!in_front || x < 1 || y < 1 || x >= rect.width - 1 || y >= rect.height - 1) {
      ++outside;
      continue;
    }
    const int px = rect.left + static_cast<int>(x), py = rect.top + static_cast<int>(y);
    nlohmann::json entry = {{"geom", g},
                            {"name", entity_label(model, ObjectType::kGeom, g)},
                            {"body", entity_label(model, ObjectType::kBody, model.geoms.body[g])},
                            {"x", px},
                            {"y", py}};
    if (px < background.width && py < background.height) {
      const unsigned char* c =
          &background.rgb[3 * (static_cast<size_t>(py) * background.width + px)];
      entry["background"] = {c[0], c[1], c[2]};
    }
    geoms.push_back(entry);
  }
  const nlohmann::json info = {
      {"image", {{"width", background.width}, {"height", background.height}}},
      {"view",
       {{"left", rect.left}, {"top", rect.top}, {"width", rect.width}, {"height", rect.height}}},
      {"geoms", geoms},
      {"outside", outside}};
  std::ofstream out(path);
  out << info.dump(2) << "\n";
  if (!out) {
    if (error != nullptr) *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace pliant::viewer
