#include "viewer/help_panel.h"

#include <imgui.h>

#include <algorithm>

#include "viewer/shortcuts.h"

namespace pliant::viewer {
namespace {

// What to press, then what it does, aligned in two columns. Plain text
// with a fixed offset: it sizes the auto-resizing window, which tables
// nested side by side do not.
template <typename Rows, typename First, typename Second>
void two_columns(const Rows& rows, First first, Second second) {
  float width = 0;
  for (const auto& row : rows) width = std::max(width, ImGui::CalcTextSize(first(row)).x);
  ImGui::BeginGroup();
  for (const auto& row : rows) {
    ImGui::TextColored(ImVec4(1, 0.85f, 0.45f, 1), "%s", first(row));
    ImGui::SameLine(width + 14);
    ImGui::TextUnformatted(second(row));
  }
  ImGui::EndGroup();
}

}  // namespace

void draw_help_panel(ViewerState& state) {
  if (!state.show_help) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x / 2, io.DisplaySize.y / 2), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(io.DisplaySize.x, io.DisplaySize.y));
  ImGui::Begin("Help (F1)", &state.show_help,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::Checkbox("Keyboard shortcuts enabled", &state.shortcuts_enabled);
  ImGui::TextDisabled(state.shortcuts_enabled
                          ? "Turn off to leave the keys to a teleoperation program."
                          : "Off: only F1 works, the other keys go to other programs.");
  // Keys on the left, mouse on the right, so that the window fits a laptop screen.
  ImGui::Separator();
  ImGui::BeginGroup();
  ImGui::TextUnformatted("Keyboard");
  two_columns(
      keyboard_shortcuts(), [](const Shortcut& s) { return s.keys; },
      [](const Shortcut& s) { return s.action; });
  ImGui::EndGroup();
  ImGui::SameLine(0, 32);
  ImGui::BeginGroup();
  ImGui::TextUnformatted("Mouse (over the 3-D view)");
  two_columns(
      mouse_actions(), [](const MouseAction& m) { return m.gesture; },
      [](const MouseAction& m) { return m.action; });
  ImGui::EndGroup();
  ImGui::End();
}

}  // namespace pliant::viewer
