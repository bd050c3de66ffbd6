#pragma once

// Options shared by the subcommands that step a model (`dump`, `bench`), so
// that they mean the same thing in both.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "pliant/model.h"

namespace pliant::cli {

struct SteppingOptions {
  std::string solver;                // "newton", "cg", "pgs", or empty for the model's own
  double ctrl_noise = 0;             // each step, ctrl = ctrl_noise * N(0,1)
  std::vector<std::string> disable;  // MuJoCo disable-flag names ("contact", ...)
  std::string hessian_factor;        // "envelope", "blocks", or empty for the cheaper
  std::string integrator;            // "euler", "rk4", "implicit", "implicitfast", or empty
};

// Adds --solver, --ctrl-noise, --disable, --hessian-factor and --integrator
// to `command`.
void add_stepping_options(CLI::App* command, SteppingOptions& options);

// The model's solver and integrator replaced by the ones chosen, if any, and
// the flags named by --disable switched off.
void apply_solver_choice(const SteppingOptions& options, Model& model);

}  // namespace pliant::cli
