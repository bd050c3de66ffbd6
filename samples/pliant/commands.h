#pragma once

#include <CLI/CLI.hpp>

namespace pliant::cli {

// Exit codes: 0 success, 1 a check failed, 2 bad input (model, scenario, usage).
constexpr int kExitBadInput = 2;

// Each add_*_command registers a subcommand whose callback sets the exit code.
void add_info_command(CLI::App& app);
void add_fields_command(CLI::App& app);
void add_jacobian_command(CLI::App& app);
void add_dump_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_tune_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_save_command(CLI::App& app);
// Only when the viewer is built (PLIANT_HAS_VIEWER).
void add_view_command(CLI::App& app);

int exit_code();
void set_exit_code(int code);

}  // namespace pliant::cli
