#include "engine/data.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "engine/spatial.h"
#include "engine/workspace.h"

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

ModelShape::ModelShape(const Model& m)
    : nq(m.nq),
      nv(m.nv),
      nu(m.nu),
      na(m.na),
      nmocap(m.nmocap),
      nbody(m.body_count()),
      njnt(m.joints.count()),
      ngeom(m.geoms.count()),
      nsite(m.sites.count()),
      ntendon(m.tendons.count()),
      neq(m.equalities.count()),
      nsensor(m.sensors.count()),
      nM(mass_matrix_size(m)),
      nsensordata(m.sensors.data_size) {}

std::string ModelShape::difference(const ModelShape& o) const {
  const std::pair<const char*, std::pair<int, int>> sizes[] = {
      {"nq", {nq, o.nq}},
      {"nv", {nv, o.nv}},
      {"nu", {nu, o.nu}},
      {"na", {na, o.na}},
      {"nmocap", {nmocap, o.nmocap}},
      {"nbody", {nbody, o.nbody}},
      {"njnt", {njnt, o.njnt}},
      {"ngeom", {ngeom, o.ngeom}},
      {"nsite", {nsite, o.nsite}},
      {"ntendon", {ntendon, o.ntendon}},
      {"neq", {neq, o.neq}},
      {"nsensor", {nsensor, o.nsensor}},
      {"nM (mass matrix entries)", {nM, o.nM}},
      {"nsensordata", {nsensordata, o.nsensordata}}};
  for (const auto& [name, values] : sizes) {
    if (values.first != values.second) {
      return std::string(name) + " " + std::to_string(values.first) + " against " +
             std::to_string(values.second);
    }
  }
  return "";
}

int mass_matrix_size(const Model& m) {
  if (m.nv == 0) return 0;
  int depth = 0;
  for (int k = m.nv - 1; k >= 0; k = m.dofs.parent[k]) ++depth;
  return m.dofs.madr.back() + depth;
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
  const ModelShape given(model);
  if (given == data.model_shape()) return;
  throw std::invalid_argument("pliant: this Data was made for another model than the one given (" +
                              data.model_shape().difference(given) +
                              "); make a Data from each Model");
}

Data::Data(const Model& m) : shape_(m) {
  const int nbody = m.body_count(), nv = m.nv, nu = m.nu;
  const int njnt = m.joints.count(), ntendon = m.tendons.count();
  qpos = Eigen::Map<const VectorXd>(m.qpos0.data(), m.nq);
  qvel = VectorXd::Zero(nv);
  act = VectorXd::Zero(m.na);
  ctrl = VectorXd::Zero(nu);
  qacc_warmstart = VectorXd::Zero(nv);
  qfrc_applied = VectorXd::Zero(nv);
  xfrc_applied.assign(nbody, Vector6d::Zero());
  for (int b = 0; b < nbody; ++b) {
    if (m.bodies.mocap[b] < 0) continue;
    mocap_pos.push_back(m.bodies.pos[b]);
    mocap_quat.push_back(m.bodies.quat[b]);
  }
  xpos.assign(nbody, Vector3d::Zero());
  xipos.assign(nbody, Vector3d::Zero());
  xquat.assign(nbody, Quaterniond::Identity());
  xmat.assign(nbody, Matrix3d::Identity());
  ximat.assign(nbody, Matrix3d::Identity());
  xanchor.assign(njnt, Vector3d::Zero());
  xaxis.assign(njnt, Vector3d::Zero());
  geom_xpos.assign(m.geoms.count(), Vector3d::Zero());
  geom_xmat.assign(m.geoms.count(), Matrix3d::Identity());
  site_xpos.assign(m.sites.count(), Vector3d::Zero());
  site_xmat.assign(m.sites.count(), Matrix3d::Identity());
  subtree_com.assign(nbody, Vector3d::Zero());
  cinert.assign(nbody, SpatialInertia());
  cdof.assign(nv, Vector6d::Zero());
  ten_length = VectorXd::Zero(ntendon);
  ten_J = Eigen::MatrixXd::Zero(ntendon, nv);
  actuator_length = VectorXd::Zero(nu);
  actuator_moment = Eigen::MatrixXd::Zero(nu, nv);
  actuator_moment_begin.assign(nu, 0);
  actuator_moment_end.assign(nu, nv);
  crb.assign(nbody, SpatialInertia());
  const int nM = mass_matrix_size(m);
  qM = VectorXd::Zero(nM);
  qLD = VectorXd::Zero(nM);
  qLDiagInv = VectorXd::Zero(nv);
  cvel.assign(nbody, Vector6d::Zero());
  cdof_dot.assign(nv, Vector6d::Zero());
  ten_velocity = VectorXd::Zero(ntendon);
  actuator_velocity = VectorXd::Zero(nu);
  qfrc_bias = VectorXd::Zero(nv);
  qfrc_passive = VectorXd::Zero(nv);
  qfrc_gravcomp = VectorXd::Zero(nv);
  actuator_force = VectorXd::Zero(nu);
  qfrc_actuator = VectorXd::Zero(nv);
  act_dot = VectorXd::Zero(m.na);
  qfrc_smooth = VectorXd::Zero(nv);
  qacc_smooth = VectorXd::Zero(nv);
  qfrc_constraint = VectorXd::Zero(nv);
  qacc = VectorXd::Zero(nv);
  cacc.assign(nbody, Vector6d::Zero());
  cfrc_body.assign(nbody, Vector6d::Zero());
  sensordata = VectorXd::Zero(m.sensors.data_size);
  if (m.sensors.count() > 0) {
    subtree_linvel.assign(nbody, Vector3d::Zero());
    subtree_angmom.assign(nbody, Vector3d::Zero());
    cfrc_int.assign(nbody, Vector6d::Zero());
    cfrc_ext.assign(nbody, Vector6d::Zero());
  }
  workspace_.get().scratch_nv = VectorXd::Zero(nv);
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
