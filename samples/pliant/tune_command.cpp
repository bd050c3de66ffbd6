// `pliant tune`: from physical targets to solref/solimp, and from
// solref/solimp to what a contact will do.

#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "model/attribute_reader.h"
#include "pliant/impedance.h"
#include "pliant/tuning.h"
#include "samples/pliant/commands.h"
#include "samples/runner/plot.h"

namespace pliant::cli {
namespace {

struct TuneOptions {
  std::optional<double> restitution, damping_ratio, depth, stiffness, damping;
  std::optional<double> impact_speed, max_penetration;
  double mass = 1, timestep = 0.002, gravity = 9.81, dmin = 0.9, dmax = 0.95;
  double friction = 1, impratio = 1;
  std::string solref, solimp, preset, png, cone = "pyramidal";
  bool list = false;
};

ContactCone cone_of(const TuneOptions& o) {
  return {o.cone == "pyramidal", o.friction, o.impratio};
}

// Impact speeds of the stepped-drop table (m/s).
constexpr double kTableSpeeds[] = {0.25, 0.5, 1, 2, 5};

// What the contact does when a body reaches the surface at each speed,
// stepped at the timestep as the engine steps it.
void print_drop_table(const SolRef& solref, const SolImp& solimp, const TuneOptions& o) {
  std::printf("  stepped drops at %g s (the surface reached at a step's start):\n", o.timestep);
  std::printf("    speed (m/s)      ");
  for (double v : kTableSpeeds) std::printf("%9g", v);
  std::printf("\n    restitution      ");
  for (double v : kTableSpeeds) {
    const ImpactPrediction p =
        simulate_impact(solref, solimp, o.timestep, o.gravity, v, 0, cone_of(o));
    std::printf("%9.3f", p.restitution);
  }
  std::printf("\n    penetration (mm) ");
  for (double v : kTableSpeeds) {
    const ImpactPrediction p =
        simulate_impact(solref, solimp, o.timestep, o.gravity, v, 0, cone_of(o));
    std::printf("%9.3g", 1000 * p.max_penetration);
  }
  std::printf("\n");
}

// Each target next to its prediction; returns false when one gave way.
bool print_impact_targets(const ImpactTarget& t, const ImpactDesign& d) {
  std::printf("  target            asked        predicted (stepped at %g s)\n", t.timestep);
  std::printf(
      "  restitution       %-12.4g %.4f at %g m/s (%.3f to %.3f when the surface is "
      "reached mid-step)\n",
      t.restitution, d.at_speed.restitution, t.speed, d.restitution_low, d.restitution_high);
  std::printf("  resting depth     %-12.4g %.6g m\n", t.depth, d.resting_depth);
  if (t.max_penetration > 0) {
    std::printf("  max penetration   %-12.4g %.4g m (up to %.4g m mid-step)\n", t.max_penetration,
                d.at_speed.max_penetration, d.penetration_worst);
  } else {
    std::printf("  max penetration   (none)       %.4g m (up to %.4g m mid-step)\n",
                d.at_speed.max_penetration, d.penetration_worst);
  }
  for (const std::string& s : d.gave_way) std::printf("  GAVE WAY: %s\n", s.c_str());
  for (const std::string& s : d.gave_way)
    std::fprintf(stderr, "warning: gave way: %s\n", s.c_str());
  return d.gave_way.empty();
}

void print_prediction(const SolRef& solref, const SolImp& solimp, const ContactPrediction& p) {
  std::printf("solref=\"%.9g %.9g\" solimp=\"%.9g %.9g %.9g %.9g %.9g\"\n", solref.timeconst,
              solref.dampratio, solimp.dmin, solimp.dmax, solimp.width, solimp.midpoint,
              solimp.power);
  std::printf("  stiffness      %.6g 1/s^2 per unit mass (times the mass for N/m)\n", p.stiffness);
  std::printf("  damping        %.6g 1/s per unit mass (times the mass for N s/m)\n", p.damping);
  std::printf("  damping ratio  %.4g\n", p.damping_ratio);
  std::printf("  natural period %.6g s\n", p.natural_period);
  std::printf("  resting depth  %.6g m under %.4g m/s^2 (impedance %.4g there)\n", p.resting_depth,
              9.81, p.resting_impedance);
  std::printf("  restitution    %.4g (closed form: linear spring-damper at rest)\n", p.restitution);
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
      const double d = impedance(s, x).d, aref = -kb.B * v - kb.K * d * x;
      if (aref > a) a = (1 - d) * a + d * aref;  // the contact pushes, never pulls
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

void write_png(const SolRef& solref, const SolImp& solimp, const TuneOptions& o);

void run_tune(const TuneOptions& o) {
  if (o.cone != "pyramidal" && o.cone != "elliptic") {
    throw std::invalid_argument("--cone is pyramidal or elliptic, not '" + o.cone + "'");
  }
  if (!(o.friction > 0) || !(o.impratio >= 1)) {
    throw std::invalid_argument("--friction must be positive and --impratio at least 1");
  }
  if (o.list) {
    for (const MaterialPreset& p : material_presets()) {
      std::printf("%s: %s\n", p.name.c_str(), p.description.c_str());
      print_prediction(p.solref, p.solimp, predict_contact(p.solref, p.solimp, o.timestep));
      print_drop_table(p.solref, p.solimp, o);
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
    t.impact_speed = o.impact_speed;
    t.max_penetration = o.max_penetration;
    t.cone = cone_of(o);
    const ContactDesign design = design_contact(t);
    solref = design.solref;
    solimp = design.solimp;
    prediction = design.prediction;
    if (design.impact) {
      print_prediction(solref, solimp, prediction);
      if (!print_impact_targets(impact_target(t), *design.impact)) set_exit_code(1);
      print_drop_table(solref, solimp, o);
      write_png(solref, solimp, o);
      return;
    }
  }
  print_prediction(solref, solimp, prediction);
  print_drop_table(solref, solimp, o);
  write_png(solref, solimp, o);
}

void write_png(const SolRef& solref, const SolImp& solimp, const TuneOptions& o) {
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
  optional("--impact-speed", o.impact_speed,
           "Speed (m/s) at which the restitution must hold: designs solref and the whole "
           "solimp by stepping the drop");
  optional("--max-penetration", o.max_penetration,
           "With --impact-speed: the deepest the body may sink at that speed (m)");
  cmd->add_option("--cone", o.cone, "Friction cone the contact uses: pyramidal or elliptic");
  cmd->add_option("--friction", o.friction, "Sliding friction of the pair (pyramidal cones)");
  cmd->add_option("--impratio", o.impratio, "The model's impratio (pyramidal cones)");
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
