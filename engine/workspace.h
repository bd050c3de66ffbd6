#pragma once

// Working memory of the step's stages, kept inside Data (privately) so that a
// steady-state step makes no heap allocation. Internal to the engine: not
// part of the installed API.

#include <Eigen/Core>
#include <Eigen/LU>
#include <vector>

#include "engine/collision/collision_scratch.h"
#include "engine/constraint/islands.h"
#include "engine/thread_pool.h"
#include "pliant/eigen_types.h"
#include "solvers/kept.h"
#include "solvers/workspace.h"

namespace pliant {

struct Data;

// Jacobian scratch of constraint assembly, one per thread that builds rows.
struct AssemblyScratch {
  Eigen::MatrixXd jacobian;              // 6 x nv, zero between uses (first columns used)
  std::vector<int> columns;              // one row's columns
  std::vector<double> contact_jacobian;  // 6 x a contact's columns
};

// The integrators' matrices and vectors (engine/integrators.cpp).
struct IntegratorScratch {
  VectorXd factor;                  // nM: M + h diag(damping), or M - h qDeriv, factored
  VectorXd factor_input, factored;  // nM: that matrix now, and the one `factor` holds
  VectorXd factor_diagonal, force;  // nv
  // The implicit integrators: qDeriv (nv x nv), and implicit's M - h qDeriv
  // with its LU factors and answer; a row's non-zero columns
  // (smooth_velocity_derivative).
  Eigen::MatrixXd velocity_derivative, implicit_system;
  Eigen::PartialPivLU<Eigen::MatrixXd> implicit_lu;
  VectorXd qacc;
  std::vector<int> nonzero_columns;
  // RK4: the step's starting state and each stage's rates (nq, nv, na).
  VectorXd rk4_qpos, rk4_qvel, rk4_act, rk4_warmstart;
  VectorXd rk4_vel[4], rk4_acc[4], rk4_act_dot[4];
};

struct Workspace {
  ThreadPool pool;             // the parallel stages' workers (Data::threads > 1)
  CollisionScratch collision;  // collide()
  SolverWorkspace solver;      // the constraint solvers
  IslandScratch islands;       // solve_constraints by island
  VectorXd scratch_nv;
  // Eigen's buffers would be freed by assigning a fresh workspace
  // (reset_data): these are kept (their contents are rewritten before use).
  Kept<IntegratorScratch> integrator;
  Kept<AssemblyScratch> assembly;  // assemble_constraints (the calling thread's)
  Kept<std::vector<AssemblyScratch>> assembly_workers;  // worker k's at k - 1 (Data::threads > 1)
  std::vector<int> contact_row_start, contact_entry_start;  // per contact + 1 (threads > 1)
  std::vector<double> row;                                  // one row's values
};

// The workspace of `data`.
Workspace& workspace(Data& data);

}  // namespace pliant
