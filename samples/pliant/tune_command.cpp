// `pliant tune`: from physical targets to solref/solimp, and from
// solref/solimp to what a contact will do.

#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "engine/constraint/impedance.h"
#include "engine/tuning.h"
#include "model/attribute_reader.h"
#include "samples/pliant/commands.h"
#include "samples/runner/plot.h"

namespace pliant::cli {
namespace {

struct TuneOptions {
  std::optional<double> restitution, damping_ratio, depth, stiffness, damping;
  double mass = 1, timestep = 0.002, gravity = 9.81, dmin = 0.9, dmax = 0.95;
  std::string solref, solimp, preset, png;
  bool list = false;
};

void print_prediction(const SolRef& solref, const SolImp& solimp, const ContactPrediction& p) {
  std::printf("solref=\"%.6g %.6g\" solimp=\"%.6g %.6g %.6g %.6g %.6g\"\n", solref.timeconst,
              solref.dampratio, solimp.dmin, solimp.dmax, solimp.width, solimp.midpoint,
              solimp.power);
  std::printf("  stiffness      %.6g 1/s^2 per unit mass (times the mass for N/m)\n", p.stiffness);
  std::printf("  damping        %.6g 1/s per unit mass (times the mass for N s/m)\n", p.damping);
  std::printf("  damping ratio  %.4g\n", p.damping_ratio);
  std::printf("  natural period %.6g s\n", p.natural_period);
  std::printf("  resting depth  %.6g m under %.4g m/s^2 (impedance %.4g there)\n", p.resting_depth,
              9.81, p.resting_impedance);
  std::printf("  restitution    %.4g (normal impact)\n", p.restitution);
  std::printf("  settling time  %.6g s (to 2 %%)\n", p.settling_time);
  if (p.refsafe_clamped) std::printf("  note: %s\n", p.note.c_str());
}

std::vector<double> numbers(const std::string& text, const char* what, size_t min, size_t max) {
  std::vector<double> v;
  if (!parse_numbers(text, v) || v.size() < min || v.size() > max) {
    throw std::invalid_argument(std::string("--") + what + " needs " + std::to_string(min) +
                                (min == max ? "" : " to " + std::to_string(max)) + " numbers");
  }
  return v;
}

// The predicted 1-D drop from 5 cm: the contact's own model (a = (1-d) a0 +
// d aref along the normal, d from solimp at the current depth) stepped with
// semi-implicit Euler at the timestep, as the engine would.
runner::RunResult predicted_curves(const SolRef& solref, const SolImp& solimp, double timestep,
                                   double gravity) {
  runner::RunResult r;
  r.series = {{"height (m)", {}}, {"impedance d(r) over r = 0..2 width", {}}};
  const SolImp s = sanitize(solimp);
  const SpringDamper kb = reference_spring(sanitize(solref), s.dmax, timestep, true);
  double x = 0.05, v = 0;
  for (int k = 0; k <= 1000; ++k) {
    r.times.push_back(k * timestep);
    r.series[0].values.push_back(x);
    double a = -gravity;
    if (x < 0) {
      const double d = impedance(s, x).d;
      a = (1 - d) * a + d * (-kb.B * v - kb.K * d * x);
    }
    v += timestep * a;
    x += timestep * v;
  }
  // The impedance curve shares the panel's x axis in samples, not seconds.
  for (int k = 0; k <= 1000; ++k) {
    r.series[1].values.push_back(impedance(s, -2.0 * s.width * k / 1000).d);
  }
  return r;
}

void run_tune(const TuneOptions& o) {
  if (o.list) {
    for (const MaterialPreset& p : material_presets()) {
      std::printf("%s: %s\n", p.name.c_str(), p.description.c_str());
      print_prediction(p.solref, p.solimp, predict_contact(p.solref, p.solimp, o.timestep));
    }
    return;
  }
  SolRef solref;
  SolImp solimp;
  ContactPrediction prediction;
  if (!o.preset.empty()) {
    bool found = false;
    for (const MaterialPreset& p : material_presets()) {
      if (p.name != o.preset) continue;
      solref = p.solref;
      solimp = p.solimp;
      found = true;
    }
    if (!found) throw std::invalid_argument("unknown preset '" + o.preset + "'; see --list");
    prediction = predict_contact(solref, solimp, o.timestep, o.gravity);
  } else if (!o.solref.empty() || !o.solimp.empty()) {
    if (!o.solref.empty()) {
      const auto v = numbers(o.solref, "solref", 2, 2);
      solref = {v[0], v[1]};
    }
    if (!o.solimp.empty()) {
      const auto v = numbers(o.solimp, "solimp", 5, 5);
      solimp = {v[0], v[1], v[2], v[3], v[4]};
    }
    prediction = predict_contact(solref, solimp, o.timestep, o.gravity);
  } else {
    ContactTarget t;
    t.restitution = o.restitution;
    t.damping_ratio = o.damping_ratio;
    t.depth = o.depth;
    t.stiffness = o.stiffness;
    t.damping = o.damping;
    t.mass = o.mass;
    t.dmin = o.dmin;
    t.dmax = o.dmax;
    t.timestep = o.timestep;
    t.gravity = o.gravity;
    const ContactDesign design = design_contact(t);
    solref = design.solref;
    solimp = design.solimp;
    prediction = design.prediction;
  }
  print_prediction(solref, solimp, prediction);
  if (!o.png.empty()) {
    if (!runner::write_plot_png(predicted_curves(solref, solimp, o.timestep, o.gravity), o.png)) {
      throw std::invalid_argument("cannot write " + o.png);
    }
    std::printf(
        "plot written to %s (panels: 1 predicted drop from 5 cm, height over time; "
        "2 impedance d over depth 0..2 width)\n",
        o.png.c_str());
  }
}

}  // namespace

void add_tune_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "tune",
      "Turn contact targets (restitution, depth, stiffness) into solref/solimp, or "
      "predict what solref/solimp do");
  static TuneOptions o;
  auto optional = [&](const char* name, std::optional<double>& out, const char* help) {
    cmd->add_option_function<double>(
        name, [&out](double v) { out = v; }, help);
  };
  optional("--restitution", o.restitution, "Coefficient of restitution, 0..1");
  optional("--damping-ratio", o.damping_ratio, "Damping ratio, instead of restitution");
  optional("--depth", o.depth, "Resting penetration under gravity (m)");
  optional("--stiffness", o.stiffness, "Contact stiffness (N/m), with --mass: direct solref");
  optional("--damping", o.damping, "Contact damping (N s/m), with --mass");
  cmd->add_option("--mass", o.mass, "Mass the contact carries (kg)")->check(CLI::PositiveNumber);
  cmd->add_option("--timestep", o.timestep, "Simulation timestep (s)")->check(CLI::PositiveNumber);
  cmd->add_option("--gravity", o.gravity, "Gravity (m/s^2)");
  cmd->add_option("--dmin", o.dmin, "Impedance at first touch");
  cmd->add_option("--dmax", o.dmax, "Impedance deep in the contact");
  cmd->add_option("--solref", o.solref, "Predict for this solref (\"timeconst dampratio\")");
  cmd->add_option("--solimp", o.solimp, "Predict for this solimp (5 numbers)");
  cmd->add_option("--preset", o.preset, "A material preset (see --list)");
  cmd->add_flag("--list", o.list, "List the material presets with their predictions");
  cmd->add_option("--png", o.png, "Plot the impedance curve and a predicted drop test");
  cmd->callback([] {
    try {
      run_tune(o);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
