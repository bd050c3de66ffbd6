#include "viewer/shortcuts.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>

namespace pliant::viewer {
namespace {

void toggle(bool& flag) { flag = !flag; }

// Cycles through the model's cameras and the free camera (-1).
void cycle_camera(ViewerState& state, int step) {
  if (state.model == nullptr) return;
  const int n = state.model->cameras.count();
  Camera& camera = state.camera;
  int current = camera.mode == CameraMode::kFixed ? camera.fixed_camera : -1;
  current += step;
  if (current >= n) current = -1;
  if (current < -1) current = n - 1;
  camera.mode = current >= 0 ? CameraMode::kFixed : CameraMode::kFree;
  camera.fixed_camera = current;
}

}  // namespace

const std::vector<Shortcut>& keyboard_shortcuts() {
  static const std::vector<Shortcut> table = {
      {GLFW_KEY_F1, GLFW_KEY_F1, false, true, "F1", "help (always active)",
       [](ViewerState& s, int) { toggle(s.show_help); }},
      {GLFW_KEY_F2, GLFW_KEY_F2, false, false, "F2", "plots",
       [](ViewerState& s, int) { toggle(s.show_plots); }},
      {GLFW_KEY_F3, GLFW_KEY_F3, false, false, "F3", "sensors",
       [](ViewerState& s, int) { toggle(s.show_sensors); }},
      {GLFW_KEY_SPACE, GLFW_KEY_SPACE, false, false, "Space", "run / pause",
       [](ViewerState& s, int) { toggle(s.running); }},
      {GLFW_KEY_RIGHT, GLFW_KEY_RIGHT, false, false, "Right", "one step (pauses)",
       [](ViewerState& s, int) { s.step_requested = true; }},
      {GLFW_KEY_BACKSPACE, GLFW_KEY_BACKSPACE, false, false, "Backspace", "reset",
       [](ViewerState& s, int) { s.reset_requested = true; }},
      {GLFW_KEY_MINUS, GLFW_KEY_MINUS, false, false, "-", "half speed",
       [](ViewerState& s, int) { s.speed = std::max(s.speed / 2, 1.0 / 64); }},
      {GLFW_KEY_EQUAL, GLFW_KEY_EQUAL, false, false, "=", "double speed",
       [](ViewerState& s, int) { s.speed = std::min(s.speed * 2, 16.0); }},
      {GLFW_KEY_L, GLFW_KEY_L, true, false, "Ctrl+L", "reload the model",
       [](ViewerState& s, int) { s.reload_requested = true; }},
      {GLFW_KEY_P, GLFW_KEY_P, true, false, "Ctrl+P", "screenshot of the view to a PNG",
       [](ViewerState& s, int) { s.screenshot_requested = true; }},
      {GLFW_KEY_R, GLFW_KEY_R, true, false, "Ctrl+R", "start / stop recording the view",
       [](ViewerState& s, int) { s.record_toggle_requested = true; }},
      {GLFW_KEY_TAB, GLFW_KEY_TAB, false, false, "Tab", "hide / show the panels",
       [](ViewerState& s, int) { toggle(s.show_panels); }},
      {GLFW_KEY_ESCAPE, GLFW_KEY_ESCAPE, false, false, "Esc", "reset the view",
       [](ViewerState& s, int) { s.camera_reset_requested = true; }},
      {GLFW_KEY_LEFT_BRACKET, GLFW_KEY_LEFT_BRACKET, false, false, "[",
       "previous model camera (then free)", [](ViewerState& s, int) { cycle_camera(s, -1); }},
      {GLFW_KEY_RIGHT_BRACKET, GLFW_KEY_RIGHT_BRACKET, false, false, "]",
       "next model camera (then free)", [](ViewerState& s, int) { cycle_camera(s, 1); }},
      {GLFW_KEY_C, GLFW_KEY_C, false, false, "C", "contact points",
       [](ViewerState& s, int) { toggle(s.visual.contact_points); }},
      {GLFW_KEY_F, GLFW_KEY_F, false, false, "F", "contact forces",
       [](ViewerState& s, int) { toggle(s.visual.contact_forces); }},
      {GLFW_KEY_K, GLFW_KEY_K, false, false, "K", "friction cones",
       [](ViewerState& s, int) { toggle(s.visual.friction_cones); }},
      {GLFW_KEY_V, GLFW_KEY_V, false, false, "V", "constraint violations",
       [](ViewerState& s, int) { toggle(s.visual.violations); }},
      {GLFW_KEY_B, GLFW_KEY_B, false, false, "B", "body frames",
       [](ViewerState& s, int) { toggle(s.visual.body_frames); }},
      {GLFW_KEY_J, GLFW_KEY_J, false, false, "J", "joint axes",
       [](ViewerState& s, int) { toggle(s.visual.joint_axes); }},
      {GLFW_KEY_M, GLFW_KEY_M, false, false, "M", "centres of mass",
       [](ViewerState& s, int) { toggle(s.visual.center_of_mass); }},
      {GLFW_KEY_I, GLFW_KEY_I, false, false, "I", "inertia boxes",
       [](ViewerState& s, int) { toggle(s.visual.inertia_boxes); }},
      {GLFW_KEY_T, GLFW_KEY_T, false, false, "T", "transparent geoms",
       [](ViewerState& s, int) { toggle(s.visual.transparent); }},
      {GLFW_KEY_S, GLFW_KEY_S, false, false, "S", "shadows",
       [](ViewerState& s, int) { toggle(s.visual.shadows); }},
      {GLFW_KEY_0, GLFW_KEY_0 + kGroupCount - 1, false, false, "0 - 5", "geom group on / off",
       [](ViewerState& s, int key) {
         bool& on = s.visual.geom_groups[key - GLFW_KEY_0];
         on = !on;
       }},
  };
  return table;
}

const std::vector<MouseAction>& mouse_actions() {
  static const std::vector<MouseAction> table = {
      {"left drag", "orbit the camera"},
      {"right drag", "pan the camera"},
      {"middle drag, wheel", "zoom"},
      {"double-click", "select the body (and a contact near the point)"},
      {"right double-click", "look at the point"},
      {"Ctrl + right double-click", "follow the body under the cursor"},
      {"Ctrl + right drag", "pull the body (or the selected one) with a spring"},
      {"Ctrl + left drag", "turn the body with a torsional spring"},
      {"drop a file", "open it"},
  };
  return table;
}

bool dispatch_shortcut(ViewerState& state, int key, int mods) {
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  for (const Shortcut& s : keyboard_shortcuts()) {
    if (key < s.key || key > s.last_key || s.ctrl != ctrl) continue;
    if (!s.always && !state.shortcuts_enabled) return false;
    s.run(state, key);
    return true;
  }
  return false;
}

}  // namespace pliant::viewer
