// The `pliant` command line. Each subcommand lives in its own file and
// registers itself here.

#include <CLI/CLI.hpp>
#include <iostream>

#include "samples/pliant/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Pliant: rigid-body physics with soft constraints, reading MJCF models"};
  app.require_subcommand(1);
  pliant::cli::add_info_command(app);
  pliant::cli::add_fields_command(app);
  pliant::cli::add_jacobian_command(app);
  pliant::cli::add_dump_command(app);
  pliant::cli::add_run_command(app);
  pliant::cli::add_tune_command(app);
  pliant::cli::add_bench_command(app);
  pliant::cli::add_save_command(app);
#ifdef PLIANT_HAS_VIEWER
  pliant::cli::add_view_command(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2, like a bad model: the input was not usable.
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return pliant::cli::exit_code();
}
