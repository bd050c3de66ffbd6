#pragma once

// The sensor panel (F3): every sensor of the model with its live values
// (sensordata as of the last step), and, for the sensors ticked, a plot of
// each value over the last steps.

namespace pliant::viewer {

struct ViewerState;

void draw_sensor_panel(ViewerState& state);

}  // namespace pliant::viewer
