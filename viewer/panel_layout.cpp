#include "viewer/panel_layout.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "viewer/model_files.h"

namespace pliant::viewer {

SideWidths side_widths(const ViewerState& state, float display_width) {
  if (!state.show_panels) return {};
  const bool left = state.left_panel_open, right = state.right_panel_open;
  const int open = static_cast<int>(left) + static_cast<int>(right);
  const float collapsed = (left ? 0 : kToolbarWidth) + (right ? 0 : kToolbarWidth);
  const float each =
      open > 0 ? std::clamp((0.4f * display_width - collapsed) / open, kMinPanelWidth, kPanelWidth)
               : 0;
  return {left ? each : kToolbarWidth, right ? each : kToolbarWidth};
}

namespace {

// A full-height strip at x with one button that opens the column.
bool toolbar(const char* id, float x, const char* label, bool& open) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(x, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kToolbarWidth, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(3, 6));
  ImGui::Begin(
      id, nullptr,
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
  const bool pressed = ImGui::Button(label, ImVec2(kToolbarWidth - 6, 0));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("open the panel");
  ImGui::End();
  ImGui::PopStyleVar();
  if (pressed) open = true;
  return pressed;
}

}  // namespace

bool draw_side_toolbars(ViewerState& state) {
  if (!state.show_panels) return false;
  const float width = ImGui::GetIO().DisplaySize.x;
  bool changed = false;
  if (!state.left_panel_open) changed |= toolbar("##left toolbar", 0, ">", state.left_panel_open);
  if (!state.right_panel_open) {
    changed |= toolbar("##right toolbar", width - kToolbarWidth, "<", state.right_panel_open);
  }
  return changed;
}

bool collapse_button(ViewerState& state, bool left) {
  const bool pressed = ImGui::SmallButton(left ? "<##collapse left" : ">##collapse right");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("collapse the panel to a strip");
  if (pressed) (left ? state.left_panel_open : state.right_panel_open) = false;
  return pressed;
}

void load_panel_layout(ViewerState& state) {
  const std::filesystem::path path = config_file("panels");
  if (path.empty()) return;
  std::ifstream in(path);
  std::string side;
  int open = 1;
  while (in >> side >> open) {
    if (side == "left") state.left_panel_open = open != 0;
    if (side == "right") state.right_panel_open = open != 0;
  }
}

void save_panel_layout(const ViewerState& state) {
  const std::filesystem::path path = config_file("panels");
  if (path.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  std::ofstream out(path);
  out << "left " << (state.left_panel_open ? 1 : 0) << "\nright "
      << (state.right_panel_open ? 1 : 0) << "\n";
}

}  // namespace pliant::viewer
