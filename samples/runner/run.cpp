#include "samples/runner/run.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "engine/spatial.h"
#include "model/attribute_reader.h"
#include "pliant/energy.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/load_error.h"
#include "pliant/step.h"
#include "samples/runner/warning_printer.h"

namespace pliant::runner {
namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", v);
  return buffer;
}

std::string vector_text(const std::vector<double>& v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + number(v[i]);
  return out + ")";
}

int find(const Model& m, ObjectType type, const std::string& name, const Scenario& s, int line,
         const char* what) {
  const int id = m.id(type, name);
  if (id < 0) {
    throw LoadError(s.file, line,
                    std::string("the model has no ") + what + " named '" + name + "'");
  }
  return id;
}

// Velocity of a body's frame origin (linear, then angular), world frame.
std::vector<double> body_velocity(const Model& m, const Data& d, int body) {
  const Vector6d& v = d.cvel[body];
  const Vector3d w = angular(v);
  const Vector3d lin = linear(v) + w.cross(d.xpos[body] - d.subtree_com[m.bodies.root[body]]);
  return {lin.x(), lin.y(), lin.z(), w.x(), w.y(), w.z()};
}

// One recorded quantity, parsed from "body.NAME.x|y|z", "joint.NAME.qpos|qvel",
// "sensor.NAME" (a one-value sensor), "sensor.NAME.K" (value K of a sensor),
// "energy", "contacts" or "penetration".
struct Probe {
  enum class Kind { kBodyAxis, kJointQpos, kJointQvel, kSensor, kEnergy, kContacts, kPenetration };
  Kind kind;
  int id = -1, axis = 0;
};

// "NAME" (a sensor with one value) or "NAME.K" (its value K, from 0).
Probe parse_sensor_probe(const Model& m, const Scenario& s, const std::string& spec) {
  std::string name = spec;
  int component = -1;
  const size_t dot = spec.rfind('.');
  if (m.id(ObjectType::kSensor, spec) < 0 && dot != std::string::npos) {
    const std::string index = spec.substr(dot + 1);
    if (!index.empty() && index.find_first_not_of("0123456789") == std::string::npos) {
      name = spec.substr(0, dot);
      component = std::stoi(index);
    }
  }
  const int id = find(m, ObjectType::kSensor, name, s, 0, "sensor");
  const int dim = m.sensors.dim[id];
  if (component < 0 && dim == 1) component = 0;
  if (component < 0 || component >= dim) {
    throw LoadError(s.file, 0,
                    "cannot record 'sensor." + spec + "': sensor '" + name + "' has " +
                        std::to_string(dim) + " values; record sensor." + name + ".0 to sensor." +
                        name + "." + std::to_string(dim - 1));
  }
  return {Probe::Kind::kSensor, m.sensors.adr[id] + component};
}

Probe parse_probe(const Model& m, const Scenario& s, const std::string& spec) {
  auto bad = [&] {
    return LoadError(s.file, 0,
                     "cannot record '" + spec + "'; accepted: body.NAME.x|y|z, " +
                         "joint.NAME.qpos|qvel, sensor.NAME, sensor.NAME.K, energy, contacts, " +
                         "penetration");
  };
  if (spec.rfind("sensor.", 0) == 0) return parse_sensor_probe(m, s, spec.substr(7));
  if (spec == "energy") return {Probe::Kind::kEnergy};
  if (spec == "contacts") return {Probe::Kind::kContacts};
  if (spec == "penetration") return {Probe::Kind::kPenetration};
  const size_t first = spec.find('.'), last = spec.rfind('.');
  if (first == std::string::npos || first == last) throw bad();
  const std::string kind = spec.substr(0, first), name = spec.substr(first + 1, last - first - 1);
  const std::string field = spec.substr(last + 1);
  if (kind == "body" && (field == "x" || field == "y" || field == "z")) {
    return {Probe::Kind::kBodyAxis, find(m, ObjectType::kBody, name, s, 0, "body"), field[0] - 'x'};
  }
  if (kind == "joint" && (field == "qpos" || field == "qvel")) {
    return {field == "qpos" ? Probe::Kind::kJointQpos : Probe::Kind::kJointQvel,
            find(m, ObjectType::kJoint, name, s, 0, "joint")};
  }
  throw bad();
}

double penetration(const Data& d) {
  double deepest = 0;
  for (const Contact& c : d.contacts) deepest = std::max(deepest, -c.dist);
  return deepest;
}

// The largest |violation| of any equality constraint row (m for connect and
// weld positions, rad for weld orientations and joint equalities).
double equality_violation(const Data& d) {
  double worst = 0;
  for (int i = 0; i < d.efc.count(); ++i) {
    if (d.efc.type[i] == ConstraintType::kEquality) worst = std::max(worst, std::abs(d.efc.pos[i]));
  }
  return worst;
}

double read_probe(const Model& m, const Data& d, const Probe& p) {
  switch (p.kind) {
    case Probe::Kind::kBodyAxis:
      return d.xpos[p.id][p.axis];
    case Probe::Kind::kJointQpos:
      return d.qpos[m.joints.qpos_adr[p.id]];
    case Probe::Kind::kJointQvel:
      return d.qvel[m.joints.dof_adr[p.id]];
    case Probe::Kind::kSensor:
      return d.sensordata[p.id];
    case Probe::Kind::kEnergy:
      return d.energy_potential + d.energy_kinetic;
    case Probe::Kind::kContacts:
      return static_cast<double>(d.contacts.size());
    case Probe::Kind::kPenetration:
      return penetration(d);
  }
  return 0;
}

void apply_option(Model& m, const Action& a, const Scenario& s) {
  std::vector<double> values;
  if (!parse_numbers(a.text, values) || values.empty()) {
    throw LoadError(s.file, a.line, "option value '" + a.text + "' is not a list of numbers");
  }
  if (a.target == "timestep" && values[0] > 0) {
    m.options.timestep = values[0];
  } else if (a.target == "gravity" && values.size() == 3) {
    m.options.gravity = Vector3d(values[0], values[1], values[2]);
  } else if (a.target == "impratio" && values[0] > 0) {
    m.options.impratio = values[0];
  } else if (a.target == "tolerance" && values[0] >= 0) {
    m.options.tolerance = values[0];
  } else if (a.target == "iterations" && values[0] >= 0) {
    m.options.iterations = static_cast<int>(values[0]);
  } else {
    throw LoadError(s.file, a.line,
                    "cannot set option '" + a.target + "' to '" + a.text +
                        "'; accepted: timestep (> 0), gravity (3 numbers), impratio (> 0), "
                        "tolerance (>= 0), iterations (>= 0)");
  }
}

void apply_action(Model& m, Data& d, const Action& a, const Scenario& s) {
  switch (a.kind) {
    case Action::Kind::kCtrl:
      d.ctrl[find(m, ObjectType::kActuator, a.target, s, a.line, "actuator")] = a.value;
      break;
    case Action::Kind::kForce: {
      const int body = find(m, ObjectType::kBody, a.target, s, a.line, "body");
      d.xfrc_applied[body].head<3>() += a.torque;
      d.xfrc_applied[body].tail<3>() += a.force;
      break;
    }
    case Action::Kind::kQpos:
    case Action::Kind::kQvel: {
      const int joint = find(m, ObjectType::kJoint, a.target, s, a.line, "joint");
      const JointType type = m.joints.type[joint];
      if (type != JointType::kHinge && type != JointType::kSlide) {
        throw LoadError(s.file, a.line, "joint '" + a.target + "' is not a hinge or slide joint");
      }
      if (a.kind == Action::Kind::kQpos) {
        d.qpos[m.joints.qpos_adr[joint]] = a.value;
      } else {
        d.qvel[m.joints.dof_adr[joint]] = a.value;
      }
      break;
    }
    case Action::Kind::kKeyframe:
      reset_to_keyframe(m, d, find(m, ObjectType::kKey, a.target, s, a.line, "keyframe"));
      break;
    case Action::Kind::kOption:
      apply_option(m, a, s);
      break;
  }
}

// `from` is the body's position at the check's `since` time (kBodyMoved).
CheckResult evaluate(const Model& m, const Data& d, const Check& c, const Scenario& s,
                     const Vector3d& from) {
  CheckResult r;
  r.line = c.line;
  std::vector<double> measured;
  std::string what;
  switch (c.kind) {
    case Check::Kind::kBodyMoved: {
      const int b = find(m, ObjectType::kBody, c.target, s, c.line, "body");
      const double moved = (d.xpos[b] - from).norm();
      r.description =
          "t=" + number(c.time) + "  body " + c.target + " moved since t=" + number(c.since);
      r.measured = number(moved) + " m";
      r.expected = "<= " + number(c.tolerance) + " m";
      r.error = moved;
      r.pass = moved <= c.tolerance;
      return r;
    }
    case Check::Kind::kBodyPos: {
      const int b = find(m, ObjectType::kBody, c.target, s, c.line, "body");
      measured = {d.xpos[b].x(), d.xpos[b].y(), d.xpos[b].z()};
      what = "body " + c.target + " pos";
      break;
    }
    case Check::Kind::kBodyQuat: {
      const int b = find(m, ObjectType::kBody, c.target, s, c.line, "body");
      Quaterniond q = d.xquat[b];
      // q and -q are one orientation: compare with the sign nearer the expectation.
      const Eigen::Vector4d e(c.expected[0], c.expected[1], c.expected[2], c.expected[3]);
      if (Eigen::Vector4d(q.w(), q.x(), q.y(), q.z()).dot(e) < 0) q.coeffs() *= -1;
      measured = {q.w(), q.x(), q.y(), q.z()};
      what = "body " + c.target + " quat";
      break;
    }
    case Check::Kind::kBodyVel:
      measured = body_velocity(m, d, find(m, ObjectType::kBody, c.target, s, c.line, "body"));
      what = "body " + c.target + " vel";
      break;
    case Check::Kind::kJointQpos:
    case Check::Kind::kJointQvel: {
      const int j = find(m, ObjectType::kJoint, c.target, s, c.line, "joint");
      const bool pos = c.kind == Check::Kind::kJointQpos;
      measured = {pos ? d.qpos[m.joints.qpos_adr[j]] : d.qvel[m.joints.dof_adr[j]]};
      what = "joint " + c.target + (pos ? " qpos" : " qvel");
      break;
    }
    case Check::Kind::kSensor: {
      const int id = find(m, ObjectType::kSensor, c.target, s, c.line, "sensor");
      const int dim = m.sensors.dim[id];
      if (static_cast<int>(c.expected.size()) != dim) {
        throw LoadError(s.file, c.line,
                        "<expect> gives " + std::to_string(c.expected.size()) +
                            " values for sensor '" + c.target + "', which has " +
                            std::to_string(dim));
      }
      const double* values = d.sensordata.data() + m.sensors.adr[id];
      measured.assign(values, values + dim);
      what = "sensor " + c.target;
      break;
    }
    case Check::Kind::kContacts:
      measured = {static_cast<double>(d.contacts.size())};
      what = "contacts";
      break;
    default:
      break;
  }
  double error = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    error = std::max(error, std::abs(measured[i] - c.expected[i]));
  }
  r.description = "t=" + number(c.time) + "  " + what;
  r.measured = measured.size() == 1 ? number(measured[0]) : vector_text(measured);
  r.expected = (c.expected.size() == 1 ? number(c.expected[0]) : vector_text(c.expected)) + " +- " +
               number(c.tolerance);
  r.error = error;
  r.pass = error <= c.tolerance;
  return r;
}

// The golden trajectory: time, qpos, qvel at every step, with a header.
std::string golden_header(const Model& m) {
  std::string h = "time";
  for (int i = 0; i < m.nq; ++i) h += ",qpos[" + std::to_string(i) + "]";
  for (int i = 0; i < m.nv; ++i) h += ",qvel[" + std::to_string(i) + "]";
  return h;
}

void golden_row(const Data& d, std::vector<double>& row) {
  row.clear();
  row.push_back(d.time);
  row.insert(row.end(), d.qpos.begin(), d.qpos.end());
  row.insert(row.end(), d.qvel.begin(), d.qvel.end());
}

void draw_progress(double fraction) {
  const int width = 40, filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r[%s%s] %3d%%", std::string(filled, '#').c_str(),
               std::string(width - filled, ' ').c_str(), static_cast<int>(fraction * 100));
  std::fflush(stderr);
}

}  // namespace

bool RunResult::passed() const {
  for (const CheckResult& c : checks) {
    if (!c.pass) return false;
  }
  return true;
}

RunResult run_scenario(const Scenario& s, const RunOptions& options) {
  Model model = load_model(s.model_path);
  if (s.timestep) model.options.timestep = *s.timestep;
  Data data(model);
  RunResult result;
  result.scenario = s.file;
  result.model = s.model_path;

  std::vector<Probe> probes;
  for (const std::string& spec : options.record) {
    probes.push_back(parse_probe(model, s, spec));
    result.series.push_back({spec, {}});
  }
  std::vector<std::vector<double>> golden;
  std::vector<double> row;

  // Forces act over [t, t + duration): remember when to take each off.
  struct ActiveForce {
    double until;
    size_t action;
  };
  std::vector<ActiveForce> active;
  size_t next_action = 0;
  std::vector<bool> checked(s.checks.size(), false);
  // Where each moved-since check's body was at its `since` time.
  std::vector<Vector3d> moved_from(s.checks.size(), Vector3d::Zero());
  std::vector<bool> moved_started(s.checks.size(), false);
  double max_equality_violation = 0;
  double max_penetration = 0, energy0 = 0, worst_gain = 0, energy_scale = 0;
  bool energy_started = false;
  const auto start = std::chrono::steady_clock::now();
  const double eps = 1e-9;

  forward(model, data);
  WarningPrinter warnings(model, std::cerr);
  while (true) {
    const double h = model.options.timestep;
    // Actions due now.
    while (next_action < s.actions.size() && s.actions[next_action].time <= data.time + eps) {
      const Action& a = s.actions[next_action];
      apply_action(model, data, a, s);
      if (a.kind == Action::Kind::kForce) active.push_back({a.time + a.duration, next_action});
      ++next_action;
    }
    for (size_t i = 0; i < active.size();) {
      if (active[i].until <= data.time + eps) {
        const Action& a = s.actions[active[i].action];
        const int body = model.id(ObjectType::kBody, a.target);
        data.xfrc_applied[body].head<3>() -= a.torque;
        data.xfrc_applied[body].tail<3>() -= a.force;
        active.erase(active.begin() + static_cast<long>(i));
      } else {
        ++i;
      }
    }
    forward(model, data);
    compute_energy(model, data);
    // Whole-run measures.
    max_penetration = std::max(max_penetration, penetration(data));
    max_equality_violation = std::max(max_equality_violation, equality_violation(data));
    const double energy = data.energy_potential + data.energy_kinetic;
    if (!energy_started) {
      energy0 = energy;
      energy_started = true;
    }
    energy_scale = std::max({energy_scale, std::abs(energy0), data.energy_kinetic});
    worst_gain = std::max(worst_gain, energy - energy0);
    // Checks due at this time (the step nearest their time); moved-since
    // checks first take the body's position at their start time.
    for (size_t i = 0; i < s.checks.size(); ++i) {
      const Check& c = s.checks[i];
      if (c.kind != Check::Kind::kBodyMoved || moved_started[i]) continue;
      if (c.since > data.time + 0.5 * h) continue;
      moved_from[i] = data.xpos[find(model, ObjectType::kBody, c.target, s, c.line, "body")];
      moved_started[i] = true;
    }
    for (size_t i = 0; i < s.checks.size(); ++i) {
      const Check& c = s.checks[i];
      if (c.time < 0 || checked[i] || c.time > data.time + 0.5 * h) continue;
      result.checks.push_back(evaluate(model, data, c, s, moved_from[i]));
      checked[i] = true;
    }
    result.times.push_back(data.time);
    for (size_t i = 0; i < probes.size(); ++i) {
      result.series[i].values.push_back(read_probe(model, data, probes[i]));
    }
    golden_row(data, row);
    golden.push_back(row);
    if (options.progress) draw_progress(std::min(1.0, data.time / s.duration));
    if (data.time >= s.duration - eps) break;
    step(model, data);
    warnings.after_step(data);
    ++result.steps;
  }
  warnings.summary(data);
  if (options.progress) std::fprintf(stderr, "\r%60s\r", "");
  result.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.simulated = data.time;
  if (options.at_end) options.at_end(model, data);

  // Checks whose time lies after the end never ran: that is a failure.
  for (size_t i = 0; i < s.checks.size(); ++i) {
    const Check& c = s.checks[i];
    if (c.time >= 0 && !checked[i]) {
      result.checks.push_back({c.line, "t=" + number(c.time) + "  (after the run's end)",
                               "not reached", "a time within the duration", 0, false});
    }
  }
  for (const Check& c : s.checks) {
    CheckResult r;
    r.line = c.line;
    switch (c.kind) {
      case Check::Kind::kMaxPenetration:
        r.description = "always  max penetration";
        r.measured = number(max_penetration) + " m";
        r.expected = "<= " + number(c.tolerance) + " m";
        r.error = max_penetration;
        r.pass = max_penetration <= c.tolerance;
        break;
      case Check::Kind::kNoWarnings: {
        int count = 0;
        for (const Warning& w : data.warnings) count += w.count;
        r.description = "always  no warnings";
        r.measured = std::to_string(count) + " warnings";
        r.expected = "0";
        r.error = count;
        r.pass = count == 0;
        break;
      }
      case Check::Kind::kEnergyDrift: {
        // Energy gained over the start, relative to the larger of the
        // starting energy and the largest kinetic energy seen. Losses are
        // physical (damping, friction, soft contacts); gains are not.
        const double drift = worst_gain / std::max(energy_scale, 1e-12);
        r.description = "always  energy gain";
        r.measured = number(drift) + " (relative)";
        r.expected = "<= " + number(c.tolerance);
        r.error = drift;
        r.pass = drift <= c.tolerance;
        break;
      }
      case Check::Kind::kMaxEqualityViolation:
        r.description = "always  max equality violation";
        r.measured = number(max_equality_violation);
        r.expected = "<= " + number(c.tolerance) + " (m or rad)";
        r.error = max_equality_violation;
        r.pass = max_equality_violation <= c.tolerance;
        break;
      default:
        continue;
    }
    result.checks.push_back(r);
  }

  if (!s.golden_file.empty()) {
    if (options.update_golden) {
      std::ofstream out(s.golden_file);
      out << golden_header(model) << "\n";
      char buffer[32];
      for (const auto& r : golden) {
        for (size_t i = 0; i < r.size(); ++i) {
          std::snprintf(buffer, sizeof(buffer), "%.17g", r[i]);
          out << (i ? "," : "") << buffer;
        }
        out << "\n";
      }
      result.golden_note = "golden trajectory written to " + s.golden_file;
    } else {
      CheckResult r;
      r.line = s.golden_line;
      r.description = "golden trajectory " + s.golden_file;
      std::ifstream in(s.golden_file);
      std::string header, line;
      double worst = 0;
      size_t rows = 0;
      bool readable = in && std::getline(in, header) && header == golden_header(model);
      while (readable && std::getline(in, line)) {
        std::vector<double> values;
        std::string cell;
        std::stringstream cells(line);
        while (std::getline(cells, cell, ',')) values.push_back(std::strtod(cell.c_str(), nullptr));
        if (rows >= golden.size() || values.size() != golden[rows].size()) {
          readable = false;
          break;
        }
        for (size_t i = 0; i < values.size(); ++i) {
          worst = std::max(worst, std::abs(values[i] - golden[rows][i]));
        }
        ++rows;
      }
      readable = readable && rows == golden.size();
      r.measured = readable ? "max deviation " + number(worst) : "unreadable or different shape";
      r.expected = "<= " + number(s.golden_tolerance) + " (--update-golden rewrites it)";
      r.error = worst;
      r.pass = readable && worst <= s.golden_tolerance;
      result.checks.push_back(r);
    }
  }
  return result;
}

std::string format_report(const RunResult& r) {
  std::ostringstream out;
  out << "scenario " << r.scenario << "\n  model " << r.model << "\n";
  out << "  " << number(r.simulated) << " s simulated in " << r.steps << " steps, "
      << number(r.wall) << " s wall (" << number(r.steps / std::max(r.wall, 1e-9)) << " steps/s)\n";
  int failed = 0;
  for (const CheckResult& c : r.checks) {
    failed += c.pass ? 0 : 1;
    out << "  " << (c.pass ? "PASS" : "FAIL") << "  " << c.description << " = " << c.measured
        << "   expected " << c.expected << "   [line " << c.line << "]\n";
  }
  if (!r.golden_note.empty()) out << "  " << r.golden_note << "\n";
  out << "result: " << (failed ? "FAIL" : "PASS") << " (" << r.checks.size() - failed << " passed, "
      << failed << " failed)\n";
  return out.str();
}

std::string format_json(const RunResult& r) {
  nlohmann::ordered_json out;
  out["scenario"] = r.scenario;
  out["model"] = r.model;
  out["passed"] = r.passed();
  out["steps"] = r.steps;
  out["simulated"] = r.simulated;
  out["wall"] = r.wall;
  out["steps_per_second"] = r.steps / std::max(r.wall, 1e-9);
  out["checks"] = nlohmann::ordered_json::array();
  for (const CheckResult& c : r.checks) {
    out["checks"].push_back({{"line", c.line},
                             {"check", c.description},
                             {"measured", c.measured},
                             {"expected", c.expected},
                             {"error", c.error},
                             {"pass", c.pass}});
  }
  return out.dump();
}

void write_csv(const RunResult& r, const std::string& path) {
  std::ofstream out(path);
  out << "time";
  for (const Series& s : r.series) out << "," << s.name;
  out << "\n";
  char buffer[32];
  for (size_t k = 0; k < r.times.size(); ++k) {
    std::snprintf(buffer, sizeof(buffer), "%.17g", r.times[k]);
    out << buffer;
    for (const Series& s : r.series) {
      std::snprintf(buffer, sizeof(buffer), "%.17g", s.values[k]);
      out << "," << buffer;
    }
    out << "\n";
  }
}

}  // namespace pliant::runner
