#pragma once

// Everything the viewer's window shows and the panels edit: the loaded
// model (the viewer's own copy, so options and contact parameters can be
// edited live), its Data, the camera, the switches, the selection and the
// simulation controls. Panels write requests; the app acts on them between
// frames.

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "pliant/data.h"
#include "viewer/camera.h"
#include "viewer/model_files.h"
#include "viewer/perturbation.h"
#include "viewer/plots.h"
#include "viewer/scene.h"

namespace pliant::viewer {

struct LoadFailure {
  std::string file;
  int line = 0;
  std::string message;
};

struct ViewerState {
  std::string path;  // the model shown (or last tried)
  std::unique_ptr<Model> model;
  std::unique_ptr<Data> data;
  SceneBounds bounds;
  Camera camera;
  VisualOptions visual;
  Highlight highlight;
  Perturbation perturbation;
  std::optional<LoadFailure> load_error;
  RecentFiles recent;
  std::vector<std::string> watched_files;

  // Simulation control.
  bool passive = false;  // a script steps the data (launch_passive): no time controls
  bool running = true;
  double speed = 1;             // simulated seconds per real second asked for
  double real_time_factor = 0;  // measured
  int keyframe = 0;
  int threads = 1;          // Data::threads of the viewer's steps (Physics options)
  bool show_panels = true;  // Tab hides both side columns
  // Each side column open, or collapsed to a toolbar strip (remembered
  // between sessions by interactive viewers, panel_layout.h).
  bool left_panel_open = true, right_panel_open = true;
  bool show_help = false;
  bool show_plots = false;
  bool show_sensors = false;
  std::vector<bool> plotted_sensors;  // per sensor: its values plotted in the sensor panel
  // Off: keys are left to other programs (a teleoperation client reading
  // the keyboard); F1 still opens the help, where they are turned back on.
  bool shortcuts_enabled = true;

  // What happened per physics step (for the plots) and per drawn frame.
  StepHistory history;
  RollingSeries frame_ms{kHistoryLength};  // rendering + UI, per frame

  // Screenshots and recording: the app fills these in, the status line shows them.
  std::string recording_path;  // non-empty while recording
  int recorded_frames = 0;
  std::string message;  // shown in the status line until message_until
  std::chrono::steady_clock::time_point message_until;

  // Requests from the panels and keys, handled by the app.
  bool reload_requested = false;
  bool reset_requested = false;
  bool step_requested = false;
  bool keyframe_requested = false;
  bool camera_reset_requested = false;
  bool screenshot_requested = false;
  bool record_toggle_requested = false;
  std::string open_requested;
};

// Shows a sentence in the status line for a few seconds.
inline void show_message(ViewerState& state, std::string text, double seconds = 4) {
  state.message = std::move(text);
  state.message_until = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(seconds));
}

}  // namespace pliant::viewer
