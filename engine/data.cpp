#include "pliant/data.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/spatial.h"
#include "engine/workspace.h"
#include "pliant/data_fields.h"

namespace pliant {

SpatialInertia& SpatialInertia::operator+=(const SpatialInertia& other) {
  for (int i = 0; i < 6; ++i) rotational[i] += other.rotational[i];
  first_moment += other.first_moment;
  mass += other.mass;
  return *this;
}

SpatialInertia spatial_inertia(double mass, const Vector3d& principal, const Matrix3d& rotation,
                               const Vector3d& offset) {
  // Rotate the principal moments into the world, then move them from the
  // centre of mass to the reference point: I + m (|d|^2 E - d d^T).
  const Matrix3d tensor = rotation * principal.asDiagonal() * rotation.transpose();
  const double d2 = offset.squaredNorm();
  SpatialInertia out;
  out.rotational = {tensor(0, 0) + mass * (d2 - offset.x() * offset.x()),
                    tensor(1, 1) + mass * (d2 - offset.y() * offset.y()),
                    tensor(2, 2) + mass * (d2 - offset.z() * offset.z()),
                    tensor(0, 1) - mass * offset.x() * offset.y(),
                    tensor(0, 2) - mass * offset.x() * offset.z(),
                    tensor(1, 2) - mass * offset.y() * offset.z()};
  out.first_moment = mass * offset;
  out.mass = mass;
  return out;
}

WorkspaceHandle::WorkspaceHandle() : workspace_(std::make_unique<Workspace>()) {}
WorkspaceHandle::WorkspaceHandle(const WorkspaceHandle& other)
    : workspace_(std::make_unique<Workspace>(*other.workspace_)) {}
WorkspaceHandle::WorkspaceHandle(WorkspaceHandle&& other) noexcept = default;
WorkspaceHandle& WorkspaceHandle::operator=(const WorkspaceHandle& other) {
  if (this != &other) workspace_ = std::make_unique<Workspace>(*other.workspace_);
  return *this;
}
WorkspaceHandle& WorkspaceHandle::operator=(WorkspaceHandle&& other) noexcept = default;
WorkspaceHandle::~WorkspaceHandle() = default;

Workspace& workspace(Data& data) { return data.workspace_.get(); }

void check_data_matches(const Model& model, const Data& data) {
  const ModelSizes given(model);
  if (given == data.model_sizes()) return;
  throw std::invalid_argument("pliant: this Data was made for another model than the one given (" +
                              data.model_sizes().difference(given) +
                              "); make a Data from each Model");
}

Data::Data(const Model& m) : sizes_(m) {
  allocate_data_fields(m, *this);
  qpos = Eigen::Map<const VectorXd>(m.qpos0.data(), m.nq);
  for (int b = 0, k = 0; b < m.body_count(); ++b) {
    if (m.bodies.mocap[b] < 0) continue;
    mocap_pos[k] = m.bodies.pos[b];
    mocap_quat[k++] = m.bodies.quat[b];
  }
  std::fill(actuator_moment_end.begin(), actuator_moment_end.end(), m.nv);
  workspace_.get().scratch_nv = VectorXd::Zero(m.nv);
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
