#include "viewer/plots.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "viewer/panels.h"
#include "viewer/state.h"

namespace pliant::viewer {

void RollingSeries::add(float value) {
  values_[next_] = value;
  next_ = (next_ + 1) % capacity();
  size_ = std::min(size_ + 1, capacity());
}

void RollingSeries::clear() {
  next_ = 0;
  size_ = 0;
}

float RollingSeries::last() const {
  return size_ == 0 ? 0.0f : values_[(next_ + capacity() - 1) % capacity()];
}

float RollingSeries::min() const {
  if (size_ == 0) return 0;
  return *std::min_element(values_.begin(), values_.begin() + size_);
}

float RollingSeries::max() const {
  if (size_ == 0) return 0;
  return *std::max_element(values_.begin(), values_.begin() + size_);
}

void StepHistory::record(const Model& model, const Data& data) {
  iterations.add(static_cast<float>(data.solver.iterations));
  cost.add(static_cast<float>(data.solver.cost));
  contacts.add(static_cast<float>(data.contacts.size()));
  // forward() fills the energies only when the energy flag is on.
  const bool energy_on = model.options.flags.energy;
  energy.add(energy_on ? static_cast<float>(data.energy_potential + data.energy_kinetic) : 0.0f);
  // Penetration is a negative signed distance; contacts still within their
  // margin (dist > 0) do not count.
  double deepest = 0;
  for (const Contact& c : data.contacts) deepest = std::max(deepest, -c.dist);
  penetration.add(static_cast<float>(deepest));
  if (static_cast<int>(sensordata.size()) != data.sensordata.size()) {
    sensordata.assign(data.sensordata.size(), RollingSeries(kHistoryLength));
  }
  for (size_t i = 0; i < sensordata.size(); ++i) {
    sensordata[i].add(static_cast<float>(data.sensordata[static_cast<long>(i)]));
  }
}

void StepHistory::clear() {
  for (RollingSeries* s : {&iterations, &cost, &contacts, &energy, &penetration}) s->clear();
  for (RollingSeries& s : sensordata) s.clear();
}

namespace {

constexpr float kPlotHeight = 56;
constexpr float kPanelHeight = 3 * (kPlotHeight + 8) + 44;

// One plot filling its table cell; `from_zero` pins the bottom of the scale at 0.
void plot(const char* id, const RollingSeries& series, const char* overlay, bool from_zero) {
  const float low = from_zero ? std::min(0.0f, series.min()) : FLT_MAX;
  ImGui::PlotLines(id, series.data(), series.size(), series.offset(), overlay, low, FLT_MAX,
                   ImVec2(ImGui::GetContentRegionAvail().x, kPlotHeight));
}

}  // namespace

void draw_plots_panel(ViewerState& state) {
  if (!state.show_plots) return;
  const ImGuiIO& io = ImGui::GetIO();
  // Over the bottom of the 3-D view, between the side columns when they show.
  const SideWidths sides = side_widths(state, io.DisplaySize.x);
  const float width = std::max(200.0f, io.DisplaySize.x - sides.left - sides.right);
  ImGui::SetNextWindowPos(ImVec2(sides.left, io.DisplaySize.y - kPanelHeight), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, kPanelHeight), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("Plots (F2)", &state.show_plots,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  const StepHistory& h = state.history;
  char text[96];
  if (ImGui::BeginTable("plots", 2, ImGuiTableFlags_SizingStretchSame)) {
    ImGui::TableNextColumn();
    std::snprintf(text, sizeof(text), "solver iterations %.0f (max %.0f)", h.iterations.last(),
                  h.iterations.max());
    plot("##iterations", h.iterations, text, true);
    ImGui::TableNextColumn();
    std::snprintf(text, sizeof(text), "solver cost %.4g", h.cost.last());
    plot("##cost", h.cost, text, false);
    ImGui::TableNextColumn();
    std::snprintf(text, sizeof(text), "contacts %.0f (max %.0f)", h.contacts.last(),
                  h.contacts.max());
    plot("##contacts", h.contacts, text, true);
    ImGui::TableNextColumn();
    if (state.model != nullptr && !state.model->options.flags.energy) {
      std::snprintf(text, sizeof(text), "total energy: energy flag off");
    } else {
      std::snprintf(text, sizeof(text), "total energy %.5g J", h.energy.last());
    }
    plot("##energy", h.energy, text, false);
    ImGui::TableNextColumn();
    std::snprintf(text, sizeof(text), "max penetration %.3f mm (max %.3f)",
                  1000 * h.penetration.last(), 1000 * h.penetration.max());
    plot("##penetration", h.penetration, text, true);
    ImGui::TableNextColumn();
    const float ms = state.frame_ms.last();
    std::snprintf(text, sizeof(text), "frame: render + UI %.2f ms (%.0f fps)", ms,
                  ms > 0 ? 1000 / ms : 0.0f);
    plot("##frame", state.frame_ms, text, true);
    ImGui::EndTable();
  }
  ImGui::TextDisabled("last %d steps (%d frames)", h.iterations.size(), state.frame_ms.size());
  ImGui::End();
}

}  // namespace pliant::viewer
