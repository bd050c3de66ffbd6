#include "samples/runner/scenario.h"

#include <algorithm>
#include <filesystem>

#include "model/attribute_reader.h"
#include "model/xml_tree.h"
#include "pliant/load_error.h"

namespace pliant::runner {
namespace {

namespace fs = std::filesystem;

std::string resolve(const std::string& scenario, const std::string& path) {
  const fs::path p(path);
  if (p.is_absolute()) return path;
  return (fs::path(scenario).parent_path() / p).lexically_normal().string();
}

void read_action(const XmlNode& node, double time, Scenario& s) {
  AttributeReader r(node);
  Action a;
  a.time = time;
  a.line = node.line;
  if (node.name == "ctrl") {
    a.kind = Action::Kind::kCtrl;
    if (!r.read("actuator", a.target) || !r.read("value", a.value)) {
      r.fail("<ctrl> needs 'actuator' (a name) and 'value'");
    }
  } else if (node.name == "force") {
    a.kind = Action::Kind::kForce;
    if (!r.read("body", a.target)) r.fail("<force> needs 'body'");
    r.read("force", a.force);
    r.read("torque", a.torque);
    if (!r.read("duration", a.duration) || a.duration <= 0) {
      r.fail("<force> needs a positive 'duration' (s)");
    }
  } else if (node.name == "qpos" || node.name == "qvel") {
    a.kind = node.name == "qpos" ? Action::Kind::kQpos : Action::Kind::kQvel;
    if (!r.read("joint", a.target) || !r.read("value", a.value)) {
      r.fail("<" + node.name + "> needs 'joint' (a hinge or slide joint name) and 'value'");
    }
  } else if (node.name == "keyframe") {
    a.kind = Action::Kind::kKeyframe;
    if (!r.read("name", a.target)) r.fail("<keyframe> needs 'name'");
  } else if (node.name == "option") {
    a.kind = Action::Kind::kOption;
    if (!r.read("name", a.target) || !r.read("value", a.text)) {
      r.fail(
          "<option> needs 'name' (timestep, gravity, impratio, tolerance, iterations) and "
          "'value'");
    }
  } else {
    throw LoadError(node.file, node.line,
                    "unknown action <" + node.name +
                        "> in <at>; accepted: ctrl, force, qpos, qvel, keyframe, option");
  }
  r.finish();
  s.actions.push_back(a);
}

void read_expect(const XmlNode& node, Scenario& s) {
  AttributeReader r(node);
  Check c;
  c.line = node.line;
  if (!r.read("time", c.time)) r.fail("<expect> needs 'time' (s)");
  r.read("tol", c.tolerance);
  int count = 0;
  if (r.read("body", c.target)) {
    std::vector<double> v;
    if (r.read_numbers("pos", v, 3, 3)) {
      c.kind = Check::Kind::kBodyPos;
      ++count;
    }
    if (r.read_numbers("quat", v, 4, 4)) {
      c.kind = Check::Kind::kBodyQuat;
      ++count;
    }
    if (r.read_numbers("vel", v, 6, 6)) {
      c.kind = Check::Kind::kBodyVel;
      ++count;
    }
    c.expected = v;
    if (r.read("moved-since", c.since)) {
      // The distance moved since an earlier time must stay within tol.
      c.kind = Check::Kind::kBodyMoved;
      c.expected = {0};
      ++count;
      if (c.since < 0 || c.since >= c.time) {
        r.fail("'moved-since' of <expect> must be a time (s) at or after 0 and before 'time'");
      }
    }
  } else if (r.read("joint", c.target)) {
    double value = 0;
    if (r.read("qpos", value)) {
      c.kind = Check::Kind::kJointQpos;
      ++count;
    }
    if (r.read("qvel", value)) {
      c.kind = Check::Kind::kJointQvel;
      ++count;
    }
    c.expected = {value};
  } else if (r.read("sensor", c.target)) {
    if (!r.read_numbers("value", c.expected, 1, 64)) {
      r.fail("<expect> with 'sensor' needs 'value': the sensor's values, as many as its dim");
    }
    c.kind = Check::Kind::kSensor;
    ++count;
  } else {
    int contacts = 0;
    if (r.read("contacts", contacts)) {
      c.kind = Check::Kind::kContacts;
      c.expected = {static_cast<double>(contacts)};
      ++count;
    }
  }
  r.finish();
  if (count != 1) {
    r.fail(
        "<expect> checks one thing: body with pos, quat, vel or moved-since; joint with qpos or "
        "qvel; sensor with value; or contacts");
  }
  s.checks.push_back(c);
}

void read_always(const XmlNode& node, Scenario& s) {
  AttributeReader r(node);
  auto add = [&](Check::Kind kind, double limit) {
    Check c;
    c.kind = kind;
    c.tolerance = limit;
    c.line = node.line;
    s.checks.push_back(c);
  };
  double value = 0;
  bool flag = false;
  if (r.read("max-penetration", value)) add(Check::Kind::kMaxPenetration, value);
  if (r.read_bool("no-warnings", flag) && flag) add(Check::Kind::kNoWarnings, 0);
  if (r.read("energy-drift", value)) add(Check::Kind::kEnergyDrift, value);
  if (r.read("max-equality-violation", value)) add(Check::Kind::kMaxEqualityViolation, value);
  r.finish();
}

}  // namespace

Scenario read_scenario(const std::string& path) {
  const XmlNode root = read_xml_file(path, "scenario");
  Scenario s;
  s.file = path;
  AttributeReader r(root);
  std::string model;
  if (!r.read("model", model)) r.fail("<scenario> needs 'model', the MJCF file to run");
  s.model_path = resolve(path, model);
  r.read("duration", s.duration);
  if (s.duration <= 0) r.fail("'duration' of <scenario> must be positive (s)");
  double timestep = 0;
  if (r.read("timestep", timestep)) {
    if (timestep <= 0) r.fail("'timestep' of <scenario> must be positive (s)");
    s.timestep = timestep;
  }
  r.finish();
  for (const XmlNode& child : root.children) {
    if (child.name == "at") {
      AttributeReader a(child);
      double time = 0;
      if (!a.read("time", time) || time < 0) a.fail("<at> needs a non-negative 'time' (s)");
      a.finish();
      for (const XmlNode& action : child.children) read_action(action, time, s);
    } else if (child.name == "expect") {
      read_expect(child, s);
    } else if (child.name == "always") {
      read_always(child, s);
    } else if (child.name == "golden") {
      AttributeReader g(child);
      std::string file;
      if (!g.read("file", file)) g.fail("<golden> needs 'file', a CSV trajectory");
      s.golden_file = resolve(path, file);
      g.read("tol", s.golden_tolerance);
      g.finish();
      s.golden_line = child.line;
    } else {
      throw LoadError(child.file, child.line,
                      "unknown element <" + child.name +
                          "> in <scenario>; accepted: at, expect, always, golden");
    }
  }
  std::stable_sort(s.actions.begin(), s.actions.end(),
                   [](const Action& a, const Action& b) { return a.time < b.time; });
  return s;
}

}  // namespace pliant::runner
