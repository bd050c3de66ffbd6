#pragma once

// Everything that changes during simulation. A Data is made from one Model
// and used with that Model only; any number of Data share one Model, one Data
// per thread. State comes first, then results grouped by pipeline stage.
//
// Spatial vectors are 6-vectors [angular; linear] expressed in the world
// frame about the centre of mass of the body's kinematic tree
// (subtree_com[root]), as in MuJoCo ("com-based").

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "pliant/constraint_rows.h"
#include "pliant/contact.h"
#include "pliant/model.h"
#include "pliant/model_fields.h"
#include "pliant/profile.h"
#include "pliant/solver_statistics.h"
#include "pliant/spatial_inertia.h"

namespace pliant {

enum class WarningKind : int {
  kBadQpos = 0,      // NaN, Inf or huge value in qpos: state reset
  kBadQvel = 1,      // ... in qvel
  kBadQacc = 2,      // ... in qacc
  kSolverLimit = 3,  // the constraint solver stopped at its iteration limit
  kParameterClamped = 4,
  kCount = 5,
};

struct Warning {
  int count = 0;        // how many times it happened
  int last_step = -1;   // step of the last occurrence
  int last_index = -1;  // offending index (dof, row, ...), -1 when none
};

struct Workspace;  // the stages' working memory (engine/workspace.h, internal)

// Owns a Workspace; copying a Data copies it. Defined in data.cpp, where
// Workspace is complete, so that Data keeps its implicit copy and move.
class WorkspaceHandle {
 public:
  WorkspaceHandle();
  WorkspaceHandle(const WorkspaceHandle& other);
  WorkspaceHandle(WorkspaceHandle&& other) noexcept;
  WorkspaceHandle& operator=(const WorkspaceHandle& other);
  WorkspaceHandle& operator=(WorkspaceHandle&& other) noexcept;
  ~WorkspaceHandle();
  Workspace& get() { return *workspace_; }

 private:
  std::unique_ptr<Workspace> workspace_;
};

struct Data {
  explicit Data(const Model& model);

  // ---- state ----
  double time = 0;                      // s
  VectorXd qpos;                        // nq
  VectorXd qvel;                        // nv
  VectorXd act;                         // na
  VectorXd ctrl;                        // nu
  VectorXd qacc_warmstart;              // nv
  VectorXd qfrc_applied;                // nv, generalized force applied by the user
  std::vector<Vector6d> xfrc_applied;   // nbody, (torque; force) at the COM in world frame
  std::vector<Vector3d> mocap_pos;      // nmocap
  std::vector<Quaterniond> mocap_quat;  // nmocap
  long step_count = 0;

  // ---- position stage ----
  std::vector<Vector3d> xpos, xipos;  // body frame and COM in world, m
  std::vector<Quaterniond> xquat;
  std::vector<Matrix3d> xmat, ximat;
  std::vector<Vector3d> xanchor, xaxis;  // joint anchor and axis in world
  std::vector<Vector3d> geom_xpos, site_xpos;
  std::vector<Matrix3d> geom_xmat, site_xmat;
  std::vector<Vector3d> cam_xpos, light_xpos, light_xdir;  // camera_light.h
  std::vector<Matrix3d> cam_xmat;
  std::vector<Vector3d> subtree_com;   // m
  std::vector<SpatialInertia> cinert;  // body inertia about subtree_com[root]
  std::vector<Vector6d> cdof;          // nv motion axes
  VectorXd ten_length;                 // ntendon, m
  Eigen::MatrixXd ten_J;               // ntendon x nv
  VectorXd actuator_length;            // nu
  Eigen::MatrixXd actuator_moment;     // nu x nv
  // Row i of actuator_moment is zero outside dofs [begin[i], end[i]) (set
  // by transmission(), which clears and multiplies only within them).
  std::vector<int> actuator_moment_begin, actuator_moment_end;
  std::vector<SpatialInertia> crb;  // composite inertia of each subtree
  VectorXd qM;   // sparse mass matrix: row i at dofs.madr[i]: M(i,i), M(i,parent), ...
  VectorXd qLD;  // its L^T D L factor, same layout (D on the diagonal slots)
  VectorXd qLDiagInv;
  std::vector<Contact> contacts;  // from collide(); capacity is kept across steps
  ConstraintRows efc;             // constraint rows (assemble_constraints)

  // ---- velocity stage ----
  std::vector<Vector6d> cvel;      // body velocity
  std::vector<Vector6d> cdof_dot;  // nv
  VectorXd ten_velocity, actuator_velocity;
  VectorXd qfrc_bias;      // Coriolis, centrifugal and gravity: C(q, v)
  VectorXd qfrc_passive;   // springs, damping, fluid, gravity compensation
  VectorXd qfrc_gravcomp;  // gravity compensation of bodies with gravcomp, nv
  VectorXd qfrc_fluid;     // fluid forces (inertia-box and ellipsoid models), nv

  // ---- actuation ----
  VectorXd actuator_force;  // nu
  VectorXd qfrc_actuator;   // nv
  VectorXd act_dot;         // na

  // ---- acceleration ----
  VectorXd qfrc_smooth;  // passive - bias + applied + actuator + J^T xfrc
  VectorXd qacc_smooth;  // M^-1 qfrc_smooth
  VectorXd qfrc_constraint;
  VectorXd qacc;

  // ---- inverse dynamics (pliant/inverse.h) ----
  VectorXd qfrc_inverse;  // nv, the force that produces qacc
  // ---- RNE intermediates ----
  std::vector<Vector6d> cacc, cfrc_body;

  // ---- energy (when the energy flag is on) ----
  double energy_potential = 0, energy_kinetic = 0;

  // ---- sensors (engine/sensors.h), when the model has any ----
  VectorXd sensordata;                   // sensors.data_size, at sensors.adr
  std::vector<Vector3d> subtree_linvel;  // nbody, velocity of each subtree's COM, m/s
  std::vector<Vector3d> subtree_angmom;  // nbody, angular momentum about it, kg m^2/s
  // After the constraint solver (acceleration sensors only): each body's
  // acceleration with qacc (cacc, gravity included), the wrench its parent
  // exerts on it (cfrc_int) and the external wrench of contacts and
  // xfrc_applied (cfrc_ext); com-based (torque; force).
  std::vector<Vector6d> cfrc_int, cfrc_ext;

  // ---- constraint solver (solve_constraints) ----
  SolverStatistics solver;  // iterations, convergence, per-iteration statistics
  // Forward/inverse gaps when the fwdinv flag is on (pliant/inverse.h):
  // constraint force, applied force; N or N m.
  std::array<double, 2> solver_fwdinv{};

  // ---- settings ----
  // Threads one step may use: the broadphase, the narrow phase, the contact
  // rows, the constraint islands and a large island's passes over its rows
  // are shared among them (the calling thread is one; workers are started
  // on first use and kept by this Data, not by its copies). The results are
  // bit-identical for every count. Worth it on large scenes (hundreds of
  // bodies); on small ones the hand-offs cost more than they save.
  int threads = 1;

  // ---- diagnostics ----
  std::array<Warning, static_cast<int>(WarningKind::kCount)> warnings{};
  StageTimers timers;  // per-stage step time, when timers.enabled

  // The sizes of the model this Data was made for.
  const ModelSizes& model_sizes() const { return sizes_; }

 private:
  friend Workspace& workspace(Data& data);
  ModelSizes sizes_;
  WorkspaceHandle workspace_;  // working memory reused across steps
};

// Throws std::invalid_argument when `data` was made for a model of other
// sizes than `model`: stepping it would read and write out of bounds.
void check_data_matches(const Model& model, const Data& data);

// Records a warning of that kind at the current step.
void record_warning(Data& data, WarningKind kind, int index);

// What a warning of that kind means, one sentence naming what its index is
// ("NaN, Inf or huge value in qacc at dof INDEX; the state was reset").
const char* warning_text(WarningKind kind);

}  // namespace pliant
