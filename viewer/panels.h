#pragma once

// The Dear ImGui panels around the 3-D view: the control column (file,
// simulation, rendering, camera, physics options, actuators, warnings), the
// model column (selection and the model tree), the status line and the
// load-error box. Call between ImGui::NewFrame and ImGui::Render.

#include "viewer/panel_layout.h"
#include "viewer/state.h"

namespace pliant::viewer {

void draw_control_panel(ViewerState& state);
void draw_model_panel(ViewerState& state);
void draw_status_line(const ViewerState& state);
void draw_load_error(ViewerState& state);

// Display name of an entity: its name, or "type #id" when unnamed.
std::string entity_label(const Model& model, ObjectType type, int id);

}  // namespace pliant::viewer
