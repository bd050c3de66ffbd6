// `pliant run SCENARIO.xml`: run a scripted scene, print the report, exit 0
// when every check passes, 1 when one fails, 2 for a bad scenario or model.
// With --screenshot the final state is rendered offscreen into a PNG (only
// when the viewer library is built; it needs a display or Xvfb).

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "pliant/load_error.h"
#include "samples/pliant/commands.h"
#include "samples/runner/plot.h"
#include "samples/runner/run.h"
#ifdef PLIANT_HAS_VIEWER
#include "viewer/offscreen.h"
#endif

namespace pliant::cli {
namespace {

struct RunCommandOptions {
  std::string path, csv, png, json_file, screenshot;
  int width = 960, height = 600;  // screenshot size, pixels
  std::vector<std::string> record;
  bool json = false, update_golden = false, quiet = false;
};

#ifdef PLIANT_HAS_VIEWER
// The final state through the viewer's default free camera; false with a
// sentence in *error when there is no OpenGL context or the file cannot be
// written.
bool render_final_frame(const Model& model, const Data& data, const RunCommandOptions& o,
                        std::string* error) {
  auto renderer = viewer::OffscreenRenderer::create(o.width, o.height, error);
  if (!renderer) return false;
  renderer->set_model(model);
  viewer::Camera camera;
  viewer::reset_camera(camera, viewer::scene_bounds(model, data));
  const viewer::Image image = renderer->render(model, data, camera, viewer::VisualOptions{});
  return viewer::write_png(o.screenshot, image, error);
}
#endif

void run(const RunCommandOptions& o) {
#ifndef PLIANT_HAS_VIEWER
  if (!o.screenshot.empty()) {
    std::cerr << "error: --screenshot needs the viewer, and this pliant was built without it "
                 "(configure with GLFW, OpenGL, Dear ImGui and stb installed)\n";
    set_exit_code(kExitBadInput);
    return;
  }
#endif
  const runner::Scenario scenario = runner::read_scenario(o.path);
  runner::RunOptions options;
  options.update_golden = o.update_golden;
  options.record = o.record;
  options.progress = !o.json && !o.quiet && isatty(fileno(stderr));
  std::string screenshot_error;
  bool screenshot_written = false;
#ifdef PLIANT_HAS_VIEWER
  if (!o.screenshot.empty()) {
    options.at_end = [&](const Model& model, const Data& data) {
      screenshot_written = render_final_frame(model, data, o, &screenshot_error);
    };
  }
#endif
  const runner::RunResult result = runner::run_scenario(scenario, options);
  if (o.json) {
    std::cout << runner::format_json(result) << "\n";
  } else {
    std::cout << runner::format_report(result);
  }
  if (!o.json_file.empty()) std::ofstream(o.json_file) << runner::format_json(result) << "\n";
  if (!o.csv.empty()) {
    runner::write_csv(result, o.csv);
    if (!o.json) std::cout << "trajectory written to " << o.csv << "\n";
  }
  if (!o.png.empty()) {
    if (result.series.empty()) {
      std::cerr << "error: --png needs quantities to plot; choose them with --record\n";
      set_exit_code(kExitBadInput);
      return;
    }
    if (!runner::write_plot_png(result, o.png)) {
      std::cerr << "error: cannot write " << o.png << "\n";
      set_exit_code(kExitBadInput);
      return;
    }
    if (!o.json) {
      std::cout << "plot written to " << o.png << " (panels: ";
      for (size_t i = 0; i < result.series.size() && i < 8; ++i) {
        std::cout << (i ? ", " : "") << i + 1 << " " << result.series[i].name;
      }
      std::cout << ")\n";
    }
  }
  if (!o.screenshot.empty()) {
    if (!screenshot_written) {
      std::cerr << "error: --screenshot: " << screenshot_error << "\n";
      set_exit_code(kExitBadInput);
      return;
    }
    if (!o.json) {
      std::cout << "final frame (t = " << result.simulated << " s) written to " << o.screenshot
                << "\n";
    }
  }
  set_exit_code(result.passed() ? 0 : 1);
}

}  // namespace

void add_run_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("run", "Run a scripted scenario and check what must hold");
  static RunCommandOptions o;
  cmd->add_option("scenario", o.path, "Scenario XML file")->required();
  cmd->add_flag("--json", o.json, "Print the result as one JSON object");
  cmd->add_option("--json-file", o.json_file, "Also write the JSON result to FILE");
  cmd->add_option("--csv", o.csv, "Write the recorded quantities to FILE (CSV with a header)");
  cmd->add_option("--png", o.png, "Plot the recorded quantities over time into FILE");
  cmd->add_option(
         "--record", o.record,
         "Quantities to record: body.NAME.x|y|z, joint.NAME.qpos|qvel, sensor.NAME[.K], energy, "
         "contacts, penetration")
      ->delimiter(',');
  cmd->add_option("--screenshot", o.screenshot,
                  "Render the final frame offscreen into this PNG (needs the viewer and a "
                  "display or Xvfb)");
  cmd->add_option("--width", o.width, "Screenshot width in pixels")->check(CLI::PositiveNumber);
  cmd->add_option("--height", o.height, "Screenshot height in pixels")->check(CLI::PositiveNumber);
  cmd->add_flag("--update-golden", o.update_golden, "Rewrite the scenario's golden trajectory");
  cmd->add_flag("--quiet", o.quiet, "No progress bar");
  cmd->callback([] {
    try {
      run(o);
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
