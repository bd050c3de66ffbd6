#pragma once

// Where the side columns go: their widths for a window (open, collapsed to a
// toolbar strip, or hidden), the strips with the buttons that open them, and
// the open/collapsed state remembered between interactive sessions.

#include "viewer/state.h"

namespace pliant::viewer {

// Width of an open side column at most, of a collapsed one (the strip with
// its button), and the least width an open column shrinks to, pixels.
constexpr float kPanelWidth = 340;
constexpr float kToolbarWidth = 30;
constexpr float kMinPanelWidth = 180;

struct SideWidths {
  float left = 0, right = 0;
};

// 0 on both sides when the panels are hidden (Tab). A collapsed column takes
// the toolbar width. Open columns share what leaves the 3-D view 60 % of the
// window, each between kMinPanelWidth and kPanelWidth (at 1280 px: 256 each;
// at 960 px: 192 each, or 340 beside a collapsed column).
SideWidths side_widths(const ViewerState& state, float display_width);

// The strips of collapsed columns, with the button that opens each, and the
// button on open columns that collapses them. Call between ImGui::NewFrame
// and ImGui::Render; returns true when a column opened or closed.
bool draw_side_toolbars(ViewerState& state);
// The small "collapse" button at the top of an open column (left or right).
bool collapse_button(ViewerState& state, bool left);

// $XDG_CONFIG_HOME/pliant/panels (or ~/.config/pliant/panels): "left 0|1"
// and "right 0|1". Missing or unreadable: both open.
void load_panel_layout(ViewerState& state);
void save_panel_layout(const ViewerState& state);

}  // namespace pliant::viewer
