// `pliant run SCENARIO.xml`: run a scripted scene, print the report, exit 0
// when every check passes, 1 when one fails, 2 for a bad scenario or model.

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>

#include "model/load_error.h"
#include "samples/pliant/commands.h"
#include "samples/runner/plot.h"
#include "samples/runner/run.h"

namespace pliant::cli {
namespace {

struct RunCommandOptions {
  std::string path, csv, png, json_file;
  std::vector<std::string> record;
  bool json = false, update_golden = false, quiet = false;
};

void run(const RunCommandOptions& o) {
  const runner::Scenario scenario = runner::read_scenario(o.path);
  runner::RunOptions options;
  options.update_golden = o.update_golden;
  options.record = o.record;
  options.progress = !o.json && !o.quiet && isatty(fileno(stderr));
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
  cmd->add_option("--record", o.record,
                  "Quantities to record: body.NAME.x|y|z, joint.NAME.qpos|qvel, energy, "
                  "contacts, penetration")
      ->delimiter(',');
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
