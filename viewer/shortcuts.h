#pragma once

// The viewer's keyboard shortcuts as one table: the key handler dispatches
// through it and the help panel (F1) lists it, so the two cannot disagree.
// Mouse actions are listed alongside for the help panel; the app handles
// them itself, as they depend on drags and picking.

#include <vector>

#include "viewer/state.h"

namespace pliant::viewer {

struct Shortcut {
  int key;             // GLFW key code
  int last_key;        // the same, or the end of a contiguous range of keys
  bool ctrl;           // needs Ctrl held (and without it, does not match)
  bool always;         // works even when shortcuts are turned off
  const char* keys;    // as the help shows it
  const char* action;  // what it does
  void (*run)(ViewerState& state, int key);
};

struct MouseAction {
  const char* gesture;
  const char* action;
};

const std::vector<Shortcut>& keyboard_shortcuts();
const std::vector<MouseAction>& mouse_actions();

// Runs the shortcut bound to a key press; false when none applies (no
// binding, or shortcuts are turned off and the key is not F1).
bool dispatch_shortcut(ViewerState& state, int key, int mods);

}  // namespace pliant::viewer
