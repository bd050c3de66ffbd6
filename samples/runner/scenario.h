#pragma once

// A scripted regression scene: which model, how long, what happens when, and
// what must hold. Read from a small XML file (see samples/scenes/*.scenario.xml
// and README.md); errors are LoadError with file and line.

#include <optional>
#include <string>
#include <vector>

#include "pliant/model.h"

namespace pliant::runner {

// One timed action.
struct Action {
  enum class Kind { kCtrl, kForce, kQpos, kQvel, kKeyframe, kOption };
  Kind kind = Kind::kCtrl;
  double time = 0;     // s
  std::string target;  // actuator, body, joint or keyframe name; option name
  double value = 0;
  Vector3d force{0, 0, 0}, torque{0, 0, 0};  // N, N m (world frame, at the COM)
  double duration = 0;                       // s, for forces
  std::string text;                          // option value as written
  int line = 0;
};

// One check at a time (expect) or over the whole run (always).
struct Check {
  enum class Kind {
    kBodyPos,
    kBodyQuat,
    kBodyVel,
    kJointQpos,
    kJointQvel,
    kContacts,
    kMaxPenetration,
    kNoWarnings,
    kEnergyDrift,
    kBodyMoved,             // distance a body moved between `since` and `time`
    kMaxEqualityViolation,  // largest |violation| of any equality row over the run
    kSensor,                // a sensor's values (all of its dim)
  };
  Kind kind = Kind::kBodyPos;
  double time = -1;  // s; -1 for checks over the whole run
  std::string target;
  std::vector<double> expected;
  double tolerance = 0;
  int line = 0;
  double since = -1;  // s; kBodyMoved: the time the distance is measured from
};

struct Scenario {
  std::string file;        // the scenario's path
  std::string model_path;  // resolved against the scenario's folder
  double duration = 1;     // s
  std::optional<double> timestep;
  std::vector<Action> actions;  // sorted by time
  std::vector<Check> checks;
  std::string golden_file;  // resolved; empty when none
  double golden_tolerance = 1e-8;
  int golden_line = 0;
};

// Throws LoadError (file, line, what is wrong and what is accepted).
Scenario read_scenario(const std::string& path);

}  // namespace pliant::runner
