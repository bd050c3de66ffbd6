// `pliant dump MODEL.xml`: one JSON line per printed step with the state and
// what the step computed, for comparing runs and engines line by line.

#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/constraint/solve.h"
#include "engine/dynamics.h"
#include "pliant/data_fields.h"
#include "pliant/derivatives.h"
#include "pliant/energy.h"
#include "pliant/forward.h"
#include "pliant/inverse.h"
#include "pliant/jacobian.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/bench/workloads.h"
#include "samples/pliant/commands.h"
#include "samples/pliant/field_json.h"
#include "samples/pliant/model_edits.h"
#include "samples/pliant/state_file.h"
#include "samples/pliant/stepping_options.h"
#include "samples/runner/warning_printer.h"

namespace pliant::cli {
namespace {

struct DumpOptions {
  std::string path;
  long steps = 100;
  long every = 1;
  SteppingOptions stepping;
  double tolerance = -1;
  int iterations = -1;
  int key = -1;
  std::string state;  // JSON state file to start from (its ctrl held)
  bool each_key = false;
  std::string fields;  // comma-separated Data fields: print these instead
  ModelEdits edits;    // parameters changed after loading
  // The toolbox at each printed step (after the line's own fields).
  std::vector<std::string> jacobians;  // "site:NAME", "body:NAME", "geom:NAME"
  bool inverse = false;                // qfrc_inverse at the step's qacc
  bool derivatives = false;            // transition A, B (and C, D with sensors)
  bool centred = false;
  double eps = 1e-6;
};

// A minimal JSON line writer: numbers with 17 significant digits, so every
// double reads back exactly.
class JsonLine {
 public:
  void key(const char* name) {
    text_ += first_ ? "{" : ",";
    first_ = false;
    text_ += "\"";
    text_ += name;
    text_ += "\":";
  }
  void number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.17g", v);
    text_ += buffer;
  }
  void integer(long v) { text_ += std::to_string(v); }
  template <class Vector>
  void array(const Vector& v) {
    text_ += "[";
    for (long i = 0; i < static_cast<long>(v.size()); ++i) {
      if (i) text_ += ",";
      number(v[i]);
    }
    text_ += "]";
  }
  void raw(const char* text) { text_ += text; }
  void raw(const std::string& text) { text_ += text; }
  const std::string& finish() {
    text_ += "}";
    return text_;
  }

 private:
  std::string text_;
  bool first_ = true;
};

// The fields of the Data table, each as a flat array.
void add_fields(JsonLine& line, const Data& d, const std::vector<int>& fields) {
  const auto infos = data_field_infos();
  for (int f : fields) {
    line.key(infos[f].name);
    line.array(read_data_field(d, f));
  }
}

// A line that starts with the step and the time.
JsonLine step_line(long step, const Data& d) {
  JsonLine line;
  line.key("step");
  line.integer(step);
  line.key("time");
  line.number(d.time);
  return line;
}

// The step, the time and the chosen fields.
JsonLine fields_line(long step, const Data& d, const std::vector<int>& fields) {
  JsonLine line = step_line(step, d);
  add_fields(line, d, fields);
  return line;
}

// A Jacobian request "TYPE:NAME" resolved to its type and id.
struct JacobianRequest {
  std::string label;
  ObjectType type;
  int id;
};

std::vector<JacobianRequest> resolve_jacobians(const Model& m,
                                               const std::vector<std::string>& specs) {
  std::vector<JacobianRequest> out;
  for (const std::string& spec : specs) {
    const size_t colon = spec.find(':');
    const std::string kind = spec.substr(0, colon == std::string::npos ? 0 : colon);
    const std::string name = colon == std::string::npos ? spec : spec.substr(colon + 1);
    ObjectType type = ObjectType::kUnknown;
    if (kind == "site") type = ObjectType::kSite;
    if (kind == "body") type = ObjectType::kBody;
    if (kind == "geom") type = ObjectType::kGeom;
    if (type == ObjectType::kUnknown) {
      throw LoadError("pliant dump --jacobian", 0,
                      "'" + spec + "' is not TYPE:NAME; accepted types: site, body, geom");
    }
    const int id = m.id(type, name);
    if (id < 0) {
      throw LoadError("pliant dump --jacobian", 0,
                      "the model has no " + kind + " named '" + name + "'");
    }
    out.push_back({spec, type, id});
  }
  return out;
}

// The toolbox's numbers at the current (forwarded) state, appended to the
// line: Jacobians, inverse dynamics, transition derivatives. Inverse
// dynamics and the derivatives leave the state as it was; the next step
// recomputes everything else.
void add_toolbox(JsonLine& line, const Model& m, Data& d, const DumpOptions& o,
                 const std::vector<JacobianRequest>& jacobians) {
  if (!jacobians.empty()) {
    line.key("jacobian");
    line.raw("{");
    std::vector<double> jacp(3 * m.nv), jacr(3 * m.nv);
    for (size_t i = 0; i < jacobians.size(); ++i) {
      const JacobianRequest& r = jacobians[i];
      if (r.type == ObjectType::kSite) jacobian_site(m, d, jacp.data(), jacr.data(), r.id);
      if (r.type == ObjectType::kBody) jacobian_body(m, d, jacp.data(), jacr.data(), r.id);
      if (r.type == ObjectType::kGeom) jacobian_geom(m, d, jacp.data(), jacr.data(), r.id);
      line.raw((i ? ",\"" : "\"") + r.label + "\":[");
      line.array(jacp);
      line.raw(",");
      line.array(jacr);
      line.raw("]");
    }
    line.raw("}");
  }
  if (o.inverse) {
    inverse(m, d);
    line.key("qfrc_inverse");
    line.array(d.qfrc_inverse);
    line.key("efc_force_inverse");
    line.array(d.efc.force);
  }
  if (o.derivatives) {
    DifferenceOptions options;
    options.eps = o.eps;
    options.centred = o.centred;
    const TransitionDerivatives t = transition_derivatives(m, d, options);
    const auto matrix = [&](const char* name, const Eigen::MatrixXd& a) {
      line.key(name);
      const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = a;
      line.array(Eigen::Map<const VectorXd>(rows.data(), rows.size()));
    };
    matrix("A", t.A);
    matrix("B", t.B);
    matrix("C", t.C);
    matrix("D", t.D);
  }
}

// The default line: the state, forces and sensors, the contacts with their
// forces, and the constraint rows with MuJoCo's type codes.
JsonLine default_line(long step, const Model& m, const Data& d) {
  static const std::vector<int> state =
      data_field_indices("qpos,qvel,act,qacc,qfrc_bias,qfrc_constraint,sensordata");
  static const std::vector<int> rows =
      data_field_indices("efc_type,efc_pos,efc_diagApprox,efc_R,efc_aref,efc_force");
  JsonLine line = step_line(step, d);
  add_fields(line, d, state);
  // Contacts: geoms, dist, dim, pos, frame (9, row-major) and the force in
  // the contact frame (pyramid edges converted to normal + friction).
  line.key("ncon");
  line.integer(static_cast<long>(d.contacts.size()));
  line.key("contacts");
  line.raw("[");
  for (size_t c = 0; c < d.contacts.size(); ++c) {
    const Contact& con = d.contacts[c];
    JsonLine item;
    item.key("g");
    item.array(std::vector<double>{double(con.geom1), double(con.geom2)});
    item.key("dist");
    item.number(con.dist);
    item.key("dim");
    item.integer(con.dim);
    item.key("pos");
    item.array(std::vector<double>{con.pos[0], con.pos[1], con.pos[2]});
    item.key("frame");
    std::vector<double> frame(9);
    for (int k = 0; k < 9; ++k) frame[k] = con.frame(k / 3, k % 3);
    item.array(frame);
    item.key("force");
    double force[6];
    contact_force(m, d, static_cast<int>(c), force);
    item.array(std::vector<double>(force, force + 6));
    if (c) line.raw(",");
    line.raw(item.finish().c_str());
  }
  line.raw("]");
  line.key("nefc");
  line.integer(d.efc.count());
  add_fields(line, d, rows);
  line.key("solver_iter");
  line.integer(d.solver.iterations);
  line.key("energy");
  line.array(std::vector<double>{d.energy_potential, d.energy_kinetic});
  return line;
}

void run_dump(const DumpOptions& o) {
  std::vector<int> fields;
  try {
    fields = data_field_indices(o.fields);
  } catch (const std::invalid_argument& e) {
    throw LoadError("pliant dump --fields", 0, e.what());
  }
  Model model = load_model(o.path);
  apply_model_edits(o.edits, model);
  apply_solver_choice(o.stepping, model);
  if (o.tolerance >= 0) model.options.tolerance = o.tolerance;
  if (o.iterations >= 0) model.options.iterations = o.iterations;
  Data data(model);
  const std::vector<JacobianRequest> jacobians = resolve_jacobians(model, o.jacobians);
  const auto print = [&](long step) {
    JsonLine line =
        fields.empty() ? default_line(step, model, data) : fields_line(step, data, fields);
    add_toolbox(line, model, data, o, jacobians);
    std::cout << line.finish() << "\n";
  };
  if (o.key >= 0) {
    if (o.key >= model.keyframes.count()) {
      throw LoadError(o.path, 0,
                      "--key " + std::to_string(o.key) + " but the model has " +
                          std::to_string(model.keyframes.count()) + " keyframes");
    }
    reset_to_keyframe(model, data, o.key);
  }
  if (!o.state.empty()) read_state_file(o.state, model, data);
  if (o.each_key) {
    // One line per keyframe, at the keyframe's state, without stepping.
    for (int k = 0; k < model.keyframes.count(); ++k) {
      reset_to_keyframe(model, data, k);
      forward(model, data);
      compute_energy(model, data);
      print(k);
    }
    return;
  }
  bench::ControlNoise noise(o.stepping.ctrl_noise);
  WarningPrinter warnings(model, std::cerr);
  for (long s = 0; s < o.steps; ++s) {
    noise.fill(data.ctrl.data(), model.nu);
    if (s % o.every == 0) {
      forward(model, data);
      compute_energy(model, data);
      print(s);
    }
    step(model, data);
    warnings.after_step(data);
  }
  warnings.summary(data);
}

}  // namespace

void add_dump_command(CLI::App& app) {
  CLI::App* dump = app.add_subcommand("dump", "Step a model and print one JSON line per step");
  static DumpOptions o;
  dump->add_option("model", o.path, "MJCF model file")->required();
  dump->add_option("--steps", o.steps, "Number of steps")->check(CLI::NonNegativeNumber);
  dump->add_option("--every", o.every, "Print every K-th step")->check(CLI::PositiveNumber);
  dump->add_option("--tol", o.tolerance, "Solver tolerance")->check(CLI::NonNegativeNumber);
  dump->add_option("--iters", o.iterations, "Solver iterations")->check(CLI::NonNegativeNumber);
  dump->add_option("--key", o.key, "Start from keyframe K")->check(CLI::NonNegativeNumber);
  dump->add_option("--state", o.state,
                   "Start from this JSON state file: qpos, qvel and optionally act, ctrl, "
                   "qacc_warmstart");
  dump->add_flag("--each-key", o.each_key,
                 "Print one line per keyframe at its state (numbered by keyframe), no stepping");
  dump->add_option("--fields", o.fields,
                   "Print these Data fields (comma-separated; `pliant fields` lists them) "
                   "instead of the default line");
  dump->add_option("--jacobian", o.jacobians,
                   "Also print the Jacobian of site:NAME, body:NAME or geom:NAME (repeatable)");
  dump->add_flag("--inverse", o.inverse,
                 "Also print qfrc_inverse (inverse dynamics at the step's qacc) and its "
                 "constraint forces");
  dump->add_flag("--derivatives", o.derivatives,
                 "Also print the transition derivatives A, B, C, D (row-major, finite "
                 "differences)");
  dump->add_flag("--centred", o.centred, "Centred differences for --derivatives");
  dump->add_option("--eps", o.eps, "Nudge size for --derivatives")->check(CLI::PositiveNumber);
  add_stepping_options(dump, o.stepping);
  add_model_edit_options(dump, o.edits);
  dump->callback([] {
    try {
      run_dump(o);
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
