#pragma once

// Rolling histories of what each physics step did (solver iterations and
// final cost, contact count, total energy, deepest penetration) and the
// panel that plots them with the frame time. The app records after every
// step and every frame; the panel only reads.

#include <vector>

#include "pliant/data.h"

namespace pliant::viewer {

struct ViewerState;

// Steps kept by the plots.
constexpr int kHistoryLength = 500;

// The last `capacity` values of a quantity, oldest first when read in order.
class RollingSeries {
 public:
  explicit RollingSeries(int capacity) : values_(capacity) {}
  void add(float value);
  void clear();
  int size() const { return size_; }
  float last() const;
  float min() const;
  float max() const;
  // For ImGui::PlotLines: the buffer, its count and the offset of the oldest value.
  const float* data() const { return values_.data(); }
  int offset() const { return size_ < capacity() ? 0 : next_; }
  int capacity() const { return static_cast<int>(values_.size()); }

 private:
  std::vector<float> values_;
  int next_ = 0;  // where the next value goes
  int size_ = 0;
};

struct StepHistory {
  RollingSeries iterations{kHistoryLength};   // constraint solver iterations
  RollingSeries cost{kHistoryLength};         // final solver cost
  RollingSeries contacts{kHistoryLength};     // contact count
  RollingSeries energy{kHistoryLength};       // J, potential + kinetic (energy flag on)
  RollingSeries penetration{kHistoryLength};  // m, max of -dist over contacts, 0 if none
  std::vector<RollingSeries> sensordata;      // one per sensordata value (sensor panel)

  // Appends the step that just ran.
  void record(const Model& model, const Data& data);
  void clear();
};

// The plots window, over the bottom of the 3-D view. While it shows, the
// app keeps the energy flag on for the energy plot.
void draw_plots_panel(ViewerState& state);

}  // namespace pliant::viewer
