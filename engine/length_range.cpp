#include "engine/length_range.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/dynamics.h"
#include "model/numeric_limits.h"
#include "pliant/data.h"
#include "pliant/forward.h"
#include "pliant/load_error.h"
#include "pliant/step.h"

namespace pliant {
namespace {

using Mode = LengthRangeOptions::Mode;

bool wanted(const Model& m, int i, Mode mode) {
  const bool muscle = m.actuators.gain_type[i] == GainType::kMuscle ||
                      m.actuators.bias_type[i] == BiasType::kMuscle;
  switch (mode) {
    case Mode::kNone:
      return false;
    case Mode::kMuscle:
    case Mode::kMuscleUser:  // Pliant has no user gain or bias
      return muscle;
    case Mode::kAll:
      return true;
  }
  return false;
}

// The range of a limited joint or tendon the actuator drives, as it is (no
// gear); false for other transmissions.
bool limit_range(const Model& m, int i, Vector2d& range) {
  const int target = m.actuators.trn_id[i][0];
  switch (m.actuators.trn_type[i]) {
    case TransmissionType::kJoint:
    case TransmissionType::kJointInParent:
      if (!m.joints.limited[target]) return false;
      range = m.joints.range[target];
      return true;
    case TransmissionType::kTendon:
      if (!m.tendons.limited[target]) return false;
      range = m.tendons.range[target];
      return true;
    default:
      return false;
  }
}

// The model the runs step: gravity, contacts, friction loss, springs,
// dampers and actuation off, every other switch on, the run's time step,
// and Euler for RK4.
Model pulling_model(const Model& m) {
  Model sim = m;
  const LengthRangeOptions& o = m.lengthrange;
  // Every disable switch to its default (on), the enable switches kept.
  OptionFlags& f = sim.options.flags;
  const OptionFlags given = f;
  f = OptionFlags{};
  f.override_contacts = given.override_contacts;
  f.energy = given.energy;
  f.fwdinv = given.fwdinv;
  f.invdiscrete = given.invdiscrete;
  f.multiccd = given.multiccd;
  f.sensornoise = given.sensornoise;
  f.frictionloss = f.contact = f.spring = f.damper = f.gravity = f.actuation = false;
  if (o.timestep > 0) sim.options.timestep = o.timestep;
  if (sim.options.integrator == Integrator::kRk4) sim.options.integrator = Integrator::kEuler;
  return sim;
}

constexpr double kMaxPullSteps = 100000;
constexpr double kMaxTotalSteps = 400000;

struct Run {
  double low = 0, high = 0;  // extremes of the length in the final window
  bool diverged = false;     // the state went bad (and step() reset it)
};

// Whether step() has reset a diverged state (it records one of these).
bool diverged(const Data& d) {
  for (WarningKind kind : {WarningKind::kBadQpos, WarningKind::kBadQvel, WarningKind::kBadQacc}) {
    if (d.warnings[static_cast<int>(kind)].count > 0) return true;
  }
  return false;
}

// One pull: direction -1 shortens, +1 lengthens. Each step first lets the
// velocity decay, then (at the step's configuration) applies
// f = direction accel J^T / |M^-1 J^T|, J the actuator's moment row, and
// steps; the length before the step counts once the time after it is
// within the final window (the time summed step by step, as MuJoCo does).
// A pull whose state diverges stops there: step() would reset the time to
// zero and the pull would never end.
Run pull(const Model& sim, int i, double direction) {
  const LengthRangeOptions& o = sim.lengthrange;
  Data d(sim);
  const double decay = std::exp(-sim.options.timestep / std::max(0.01, o.timeconst));
  VectorXd moment(sim.nv), response(sim.nv);
  Run run;
  bool recorded = false;
  while (d.time < o.inttotal) {
    d.qvel *= decay;
    forward_position(sim, d);
    moment = d.actuator_moment.row(i).transpose();
    response = moment;
    solve_mass(sim, d, response.data());
    VectorXd force = direction * o.accel / std::max(kMinValue, response.norm()) * moment;
    const double norm = force.norm();
    if (o.maxforce > 0 && norm > o.maxforce) force *= o.maxforce / std::max(kMinValue, norm);
    d.qfrc_applied = force;
    const double length = d.actuator_length[i];
    step(sim, d);
    if (diverged(d)) {
      run.diverged = true;
      return run;
    }
    if (d.time > o.inttotal - o.interval) {
      if (length < run.low || !recorded) run.low = length;
      if (length > run.high || !recorded) run.high = length;
      recorded = true;
    }
  }
  return run;
}

std::string range_text(double low, double high) {
  return "(" + std::to_string(low) + ", " + std::to_string(high) + ")";
}

}  // namespace

void compute_length_ranges(Model& m) {
  const LengthRangeOptions& o = m.lengthrange;
  Actuators& a = m.actuators;
  // The actuators to pull (a range the model gives, or a limit taken as it
  // is, spares one).
  std::vector<int> pulled;
  for (int i = 0; i < m.nu; ++i) {
    if (!wanted(m, i, o.mode)) continue;
    if (o.useexisting && a.length_range[i][0] < a.length_range[i][1]) continue;
    if (o.uselimit && limit_range(m, i, a.length_range[i])) continue;
    pulled.push_back(i);
  }
  if (pulled.empty()) return;
  const Model sim = pulling_model(m);
  // Each pull takes inttotal / timestep steps (1000 with the defaults); a
  // model asking for more than kMaxPullSteps would keep loading for ever.
  const double steps = o.inttotal / sim.options.timestep;
  // And all the pulls together (two per actuator) at most kMaxTotalSteps:
  // a model must load in seconds, not hours (a fuzzed model pulled 10
  // actuators 100 000 steps each).
  const double total = 2.0 * static_cast<double>(pulled.size()) * steps;
  if (steps <= kMaxPullSteps && !(total <= kMaxTotalSteps)) {
    throw LoadError(m.file, 0,
                    "the length range simulation would take " + std::to_string(total) + " steps (" +
                        std::to_string(pulled.size()) + " actuators, two pulls of " +
                        std::to_string(steps) + " steps each); at most " +
                        std::to_string(static_cast<long>(kMaxTotalSteps)) +
                        " are accepted: give the actuators lengthrange, or a shorter inttotal or "
                        "a longer timestep in <compiler><lengthrange>");
  }
  for (int i : pulled) {
    const std::string what = "actuator '" + a.name[i] + "' (" + std::to_string(i) + "): ";
    const SourceLocation where =
        i < static_cast<int>(a.where.size()) ? a.where[i] : SourceLocation{m.file, 0};
    if (!(steps <= kMaxPullSteps)) {
      throw LoadError(where.file, where.line,
                      what + "its length range simulation would take " + std::to_string(steps) +
                          " steps a pull (<compiler><lengthrange> inttotal " +
                          std::to_string(o.inttotal) + " / timestep " +
                          std::to_string(sim.options.timestep) + "); at most " +
                          std::to_string(static_cast<long>(kMaxPullSteps)) +
                          " are accepted: give the actuator a lengthrange, or a shorter inttotal "
                          "or a longer timestep");
    }
    const Run shorter = pull(sim, i, -1), longer = pull(sim, i, 1);
    if (shorter.diverged || longer.diverged) {
      throw LoadError(where.file, where.line,
                      what +
                          "the length range simulation diverged (NaN, Inf or huge values in "
                          "the state); give the actuator a lengthrange, or <compiler>"
                          "<lengthrange> a smaller accel or a maxforce");
    }
    const double low = shorter.low, high = longer.high, span = high - low;
    if (!(span > 0)) {
      throw LoadError(where.file, where.line,
                      what + "the simulated length range " + range_text(low, high) +
                          " is empty; give the actuator a lengthrange");
    }
    for (const Run& run : {shorter, longer}) {
      if (run.high - run.low > o.tolrange * span) {
        throw LoadError(
            where.file, where.line,
            what + "the length range simulation did not settle: the length still moved over " +
                range_text(run.low, run.high) + " at the end, more than tolrange " +
                std::to_string(o.tolrange) + " of the range " + range_text(low, high) +
                "; give the actuator a lengthrange, or <compiler><lengthrange> a longer "
                "inttotal or a larger tolrange");
      }
    }
    a.length_range[i] = Vector2d(low, high);
  }
}

}  // namespace pliant
