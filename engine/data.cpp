#include "pliant/data.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace pliant {

void check_data_matches(const Model& model, const Data& data) {
  const ModelSizes given(model);
  if (given == data.model_sizes()) return;
  throw std::invalid_argument("pliant: this Data was made for another model than the one given (" +
                              data.model_sizes().difference(given) +
                              "); make a Data from each Model");
}

void record_warning(Data& data, WarningKind kind, int index) {
  Warning& w = data.warnings[static_cast<int>(kind)];
  ++w.count;
  w.last_step = static_cast<int>(data.step_count);
  w.last_index = index;
}

const char* warning_text(WarningKind kind) {
  switch (kind) {
    case WarningKind::kBadQpos:
      return "NaN, Inf or huge value in qpos at index INDEX; the state was reset";
    case WarningKind::kBadQvel:
      return "NaN, Inf or huge value in qvel at dof INDEX; the state was reset";
    case WarningKind::kBadQacc:
      return "NaN, Inf or huge value in qacc at dof INDEX; the state was reset";
    case WarningKind::kSolverLimit:
      return "the constraint solver stopped at its iteration limit (INDEX iterations)";
    case WarningKind::kParameterClamped:
      return "a constraint parameter was clamped (index INDEX)";
    case WarningKind::kCount:
      break;
  }
  return "?";
}

const char* stage_name(Stage stage) {
  switch (stage) {
    case Stage::kKinematics:
      return "kinematics";
    case Stage::kInertia:
      return "inertia and factor";
    case Stage::kCollision:
      return "collision";
    case Stage::kAssembly:
      return "constraint assembly";
    case Stage::kVelocity:
      return "velocity and bias";
    case Stage::kActuation:
      return "actuation";
    case Stage::kAcceleration:
      return "smooth acceleration";
    case Stage::kSolver:
      return "constraint solver";
    case Stage::kSensors:
      return "sensors";
    case Stage::kStep:
      return "step";
    case Stage::kCount:
      break;
  }
  return "?";
}

}  // namespace pliant
