#pragma once

// The viewer application: a window showing a model simulating in real
// time, with mouse camera control, selection and perturbation, overlays,
// panels and the contact inspector; reloads the model when its files change.
// With a screenshot or recording path it renders a number of frames
// offscreen (stepping the simulation), writes the last one as a PNG and/or
// every one to a video, prints the time a frame took, and returns.

#include <memory>
#include <string>
#include <vector>

namespace pliant::viewer {

struct PassiveLink;

struct ViewOptions {
  std::string model_path;       // empty: no model until one is opened or dropped
  std::string screenshot;       // non-empty: headless picture mode
  std::string screenshot_info;  // headless: JSON of where each geom's centre is drawn
  std::string record;           // headless: every frame to this .mp4 or PNG directory
  int frames = 60;              // headless: frames to render, 1/60 s of simulation each
  int width = 1280, height = 800;
  std::string select_body;                // body to select at start (name)
  std::string camera;                     // model camera to look through at start (name)
  std::string state_log;                  // interactive: one JSON line of state per frame
  std::vector<std::string> show;          // overlays to turn on: contacts, forces, cones, frames,
                                          // joints, com, inertia, violations, transparent, all;
                                          // and panels to open: plots, sensors, help
  std::vector<std::string> plot_sensors;  // sensors to plot at start (opens the sensor panel)
  bool paused = false;
  bool hide_panels = false;
  // Anti-aliasing samples per pixel; -1: 4, or none on a software rasterizer.
  int msaa = -1;
  // Passive: no model file; the window shows the state another thread
  // syncs through this link, and never steps (viewer/passive.h).
  std::shared_ptr<PassiveLink> passive;

  bool headless() const { return !screenshot.empty() || !record.empty(); }
};

// Runs the viewer; returns a process exit code (0 fine, 2 no OpenGL context
// or the screenshot could not be written). Errors are printed to stderr.
int run_viewer(const ViewOptions& options);

}  // namespace pliant::viewer
