#include "viewer/sensor_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>

#include "pliant/sensor_types.h"
#include "viewer/panels.h"
#include "viewer/state.h"

namespace pliant::viewer {
namespace {

constexpr float kPanelWidthSensors = 430;
constexpr float kPlotHeight = 44;

std::string values_text(const double* values, int count) {
  std::string text;
  char number[32];
  for (int i = 0; i < count; ++i) {
    std::snprintf(number, sizeof(number), "%s%.4g", i ? "  " : "", values[i]);
    text += number;
  }
  return text;
}

}  // namespace

void draw_sensor_panel(ViewerState& state) {
  if (!state.show_sensors || state.model == nullptr || state.data == nullptr) return;
  const Model& m = *state.model;
  const Sensors& sensors = m.sensors;
  const ImGuiIO& io = ImGui::GetIO();
  const float right = side_widths(state, io.DisplaySize.x).right;
  // Below the status line, beside the right-hand column of panels.
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - right - kPanelWidthSensors - 8, 48),
                          ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidthSensors, std::min(520.0f, io.DisplaySize.y - 56)),
                           ImGuiCond_Appearing);
  ImGui::SetNextWindowBgAlpha(0.8f);
  ImGui::Begin("Sensors (F3)", &state.show_sensors, ImGuiWindowFlags_NoSavedSettings);
  if (sensors.count() == 0) {
    ImGui::TextDisabled("The model has no sensors.");
    ImGui::End();
    return;
  }
  if (!m.options.flags.sensor) ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "sensor flag off");
  state.plotted_sensors.resize(sensors.count(), false);
  const double* data = state.data->sensordata.data();
  if (ImGui::BeginTable(
          "sensors", 3,
          ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
          ImVec2(0, std::min(300.0f, 24.0f * (sensors.count() + 1))))) {
    ImGui::TableSetupColumn("plot");
    ImGui::TableSetupColumn("sensor");
    ImGui::TableSetupColumn("values", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    for (int s = 0; s < sensors.count(); ++s) {
      ImGui::PushID(s);
      ImGui::TableNextColumn();
      bool plotted = state.plotted_sensors[s];
      if (ImGui::Checkbox("##plot", &plotted)) state.plotted_sensors[s] = plotted;
      ImGui::TableNextColumn();
      const std::string& name = sensors.name[s];
      ImGui::Text("%s", name.empty() ? "(unnamed)" : name.c_str());
      if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s, %d value%s", sensor_kind(sensors.type[s]).element, sensors.dim[s],
                          sensors.dim[s] == 1 ? "" : "s");
      }
      ImGui::TableNextColumn();
      ImGui::Text("%s", values_text(data + sensors.adr[s], sensors.dim[s]).c_str());
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  // Plots of the ticked sensors, one line per value.
  const std::vector<RollingSeries>& history = state.history.sensordata;
  char overlay[96];
  for (int s = 0; s < sensors.count(); ++s) {
    if (!state.plotted_sensors[s]) continue;
    for (int k = 0; k < sensors.dim[s]; ++k) {
      const int index = sensors.adr[s] + k;
      if (index >= static_cast<int>(history.size())) break;
      const RollingSeries& series = history[index];
      std::snprintf(overlay, sizeof(overlay), "%s%s%s %.4g", sensors.name[s].c_str(),
                    sensors.dim[s] > 1 ? "." : "",
                    sensors.dim[s] > 1 ? std::to_string(k).c_str() : "", series.last());
      ImGui::PushID(index);
      ImGui::PlotLines("##sensor", series.data(), series.size(), series.offset(), overlay, FLT_MAX,
                       FLT_MAX, ImVec2(ImGui::GetContentRegionAvail().x, kPlotHeight));
      ImGui::PopID();
    }
  }
  ImGui::End();
}

}  // namespace pliant::viewer
