#pragma once

// Everything the viewer's window shows and the panels edit: the loaded
// model (the viewer's own copy, so options and contact parameters can be
// edited live), its Data, the camera, the switches, the selection and the
// simulation controls. Panels write requests; the app acts on them between
// frames.

#include <memory>
#include <optional>
#include <string>

#include "engine/data.h"
#include "viewer/camera.h"
#include "viewer/model_files.h"
#include "viewer/perturbation.h"
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
  bool running = true;
  double speed = 1;             // simulated seconds per real second asked for
  double real_time_factor = 0;  // measured
  int keyframe = 0;
  bool show_panels = true;

  // Requests from the panels and keys, handled by the app.
  bool reload_requested = false;
  bool reset_requested = false;
  bool step_requested = false;
  bool keyframe_requested = false;
  bool camera_reset_requested = false;
  std::string open_requested;
};

}  // namespace pliant::viewer
