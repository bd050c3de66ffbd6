#include "samples/pliant/stepping_options.h"

#include <utility>
#include <vector>

namespace pliant::cli {

namespace {

// MuJoCo's disable-flag names and the switches they turn off in Pliant.
// island off solves the constraint problem whole instead of island by
// island; nativeccd off collides general convex pairs by MPR (MuJoCo
// 2.2.2's method) instead of GJK and EPA. midphase names a MuJoCo 3.x
// strategy Pliant does not have: with it off, MuJoCo computes what Pliant
// always computes (no bounding-volume midphase), so it is accepted for
// like-for-like comparisons.
std::vector<std::pair<std::string, bool OptionFlags::*>> disable_flags() {
  return {{"constraint", &OptionFlags::constraint},
          {"equality", &OptionFlags::equality},
          {"frictionloss", &OptionFlags::frictionloss},
          {"limit", &OptionFlags::limit},
          {"contact", &OptionFlags::contact},
          {"spring", &OptionFlags::spring},
          {"damper", &OptionFlags::damper},
          {"gravity", &OptionFlags::gravity},
          {"clampctrl", &OptionFlags::clampctrl},
          {"warmstart", &OptionFlags::warmstart},
          {"filterparent", &OptionFlags::filterparent},
          {"actuation", &OptionFlags::actuation},
          {"refsafe", &OptionFlags::refsafe},
          {"sensor", &OptionFlags::sensor},
          {"midphase", &OptionFlags::midphase},
          {"eulerdamp", &OptionFlags::eulerdamp},
          {"autoreset", &OptionFlags::autoreset},
          {"nativeccd", &OptionFlags::nativeccd},
          {"island", &OptionFlags::island}};
}

}  // namespace

void add_stepping_options(CLI::App* command, SteppingOptions& options) {
  std::string names;
  for (const auto& [name, flag] : disable_flags()) names += (names.empty() ? "" : ", ") + name;
  command
      ->add_option("--disable", options.disable,
                   "Comma-separated MuJoCo disable flags to switch off: " + names)
      ->delimiter(',')
      ->check(CLI::IsMember([] {
        std::vector<std::string> out;
        for (const auto& [name, flag] : disable_flags()) out.push_back(name);
        return out;
      }()));
  command->add_option("--solver", options.solver, "Constraint solver")
      ->check(CLI::IsMember({"newton", "cg", "pgs"}));
  command
      ->add_option("--hessian-factor", options.hessian_factor,
                   "Newton's sparse Hessian factor (default: the cheaper by estimated work)")
      ->check(CLI::IsMember({"envelope", "blocks"}));
  command->add_option("--integrator", options.integrator, "Integrator (default: the model's)")
      ->check(CLI::IsMember({"euler", "rk4", "implicit", "implicitfast"}));
  command
      ->add_option("--ctrl-noise", options.ctrl_noise,
                   "Each step, ctrl = S * N(0,1) (mt19937_64 seeded with 1)")
      ->check(CLI::NonNegativeNumber);
}

void apply_solver_choice(const SteppingOptions& options, Model& model) {
  for (const std::string& name : options.disable) {
    for (const auto& [flag_name, flag] : disable_flags()) {
      if (name == flag_name) model.options.flags.*flag = false;
    }
  }
  if (options.solver == "newton") model.options.solver = SolverType::kNewton;
  if (options.solver == "cg") model.options.solver = SolverType::kCg;
  if (options.solver == "pgs") model.options.solver = SolverType::kPgs;
  if (options.hessian_factor == "envelope") model.options.hessian_factor = HessianFactor::kEnvelope;
  if (options.hessian_factor == "blocks") model.options.hessian_factor = HessianFactor::kBlocks;
  if (options.integrator == "euler") model.options.integrator = Integrator::kEuler;
  if (options.integrator == "rk4") model.options.integrator = Integrator::kRk4;
  if (options.integrator == "implicit") model.options.integrator = Integrator::kImplicit;
  if (options.integrator == "implicitfast") model.options.integrator = Integrator::kImplicitFast;
}

}  // namespace pliant::cli
