#include "samples/pliant/stepping_options.h"

namespace pliant::cli {

void add_stepping_options(CLI::App* command, SteppingOptions& options) {
  command->add_option("--solver", options.solver, "Constraint solver")
      ->check(CLI::IsMember({"newton", "cg", "pgs"}));
  command
      ->add_option("--ctrl-noise", options.ctrl_noise,
                   "Each step, ctrl = S * N(0,1) (mt19937_64 seeded with 1)")
      ->check(CLI::NonNegativeNumber);
}

void apply_solver_choice(const SteppingOptions& options, Model& model) {
  if (options.solver == "newton") model.options.solver = SolverType::kNewton;
  if (options.solver == "cg") model.options.solver = SolverType::kCg;
  if (options.solver == "pgs") model.options.solver = SolverType::kPgs;
}

}  // namespace pliant::cli
