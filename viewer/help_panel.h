#pragma once

// The help window (F1): every keyboard shortcut and mouse action, from the
// same tables the key handler dispatches through, and the switch that turns
// the shortcuts off so the keyboard can drive another program.

#include "viewer/state.h"

namespace pliant::viewer {

void draw_help_panel(ViewerState& state);

}  // namespace pliant::viewer
