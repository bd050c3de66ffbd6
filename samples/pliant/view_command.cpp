// `pliant view [MODEL.xml]`: the interactive viewer. With --screenshot or
// --record it renders --frames frames offscreen (stepping the simulation),
// writes the last one as a PNG or all of them as a video, prints how long a
// frame took to draw and exits; this works headless under Xvfb.

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "samples/pliant/commands.h"
#include "viewer/app.h"

namespace pliant::cli {

void add_view_command(CLI::App& app) {
  auto options = std::make_shared<viewer::ViewOptions>();
  CLI::App* view = app.add_subcommand("view", "Open a model in the interactive viewer");
  view->add_option("model", options->model_path,
                   "MJCF model to open (default: samples/scenes/default.xml)");
  view->add_option("--screenshot", options->screenshot,
                   "Render offscreen, write this PNG and exit");
  view->add_option("--screenshot-info", options->screenshot_info,
                   "Headless: write this JSON with the pixel where each geom's centre is drawn "
                   "and the background there");
  view->add_option("--record", options->record,
                   "Render offscreen and record every frame to this .mp4 (needs ffmpeg) or "
                   "directory of PNGs, then exit");
  view->add_option("--frames", options->frames,
                   "Headless: frames to render, 1/60 s of simulation each; the time a frame "
                   "took to draw is printed")
      ->check(CLI::NonNegativeNumber);
  view->add_option("--width", options->width, "Window width in pixels")->check(CLI::PositiveNumber);
  view->add_option("--height", options->height, "Window height in pixels")
      ->check(CLI::PositiveNumber);
  view->add_option("--select", options->select_body, "Select this body at start");
  view->add_option("--camera", options->camera, "Look through this model camera at start");
  view->add_option("--state-log", options->state_log,
                   "Interactive: write one JSON line per frame (selection, camera, the "
                   "selected body's position) to this file, for scripted input tests");
  auto show = std::make_shared<std::string>();
  view->add_option("--show", *show,
                   "Overlays to turn on, comma-separated: contacts, forces, cones, frames, "
                   "joints, com, inertia, violations, transparent, all; panels to open: plots, "
                   "sensors, help");
  view->add_option("--plot-sensor", options->plot_sensors,
                   "Plot this sensor in the sensor panel, which opens (repeatable)");
  view->add_option("--msaa", options->msaa,
                   "Anti-aliasing samples per pixel (0: none); by default 4, or none on a "
                   "software rasterizer such as llvmpipe, where they cost half a frame")
      ->check(CLI::Range(0, 16));
  view->add_flag("--paused", options->paused, "Start paused");
  view->add_flag("--no-panels", options->hide_panels, "Hide the panels");
  view->callback([options, show] {
    std::stringstream names(*show);
    for (std::string name; std::getline(names, name, ',');) {
      if (!name.empty()) options->show.push_back(name);
    }
    if (options->model_path.empty()) {
      // The default scene, found from the source tree or the working directory.
      for (const char* candidate : {PLIANT_DEFAULT_SCENE, "samples/scenes/default.xml"}) {
        if (std::ifstream(candidate).good()) {
          options->model_path = candidate;
          break;
        }
      }
    }
    set_exit_code(viewer::run_viewer(*options));
  });
}

}  // namespace pliant::cli
