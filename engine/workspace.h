#pragma once

// Working memory of the step's stages, kept inside Data (privately) so that a
// steady-state step makes no heap allocation. Internal to the engine: not
// part of the installed API.

#include <Eigen/Core>
#include <vector>

#include "engine/collision/collision_scratch.h"
#include "engine/constraint/islands.h"
#include "engine/kept.h"
#include "engine/thread_pool.h"
#include "pliant/eigen_types.h"
#include "solvers/workspace.h"

namespace pliant {

struct Data;

// Jacobian scratch of constraint assembly, one per thread that builds rows.
struct AssemblyScratch {
  Eigen::MatrixXd jacobian;              // 6 x nv, zero between uses (first columns used)
  std::vector<int> columns;              // one row's columns
  std::vector<double> contact_jacobian;  // 6 x a contact's columns
};

struct Workspace {
  ThreadPool pool;             // the parallel stages' workers (Data::threads > 1)
  CollisionScratch collision;  // collide()
  SolverWorkspace solver;      // the constraint solvers
  IslandScratch islands;       // solve_constraints by island
  VectorXd scratch_nv;
  VectorXd factor;                  // nM: M + h diag(damping) for implicit damping
  VectorXd factor_input, factored;  // nM: that matrix now, and the one `factor` holds
  VectorXd factor_diagonal, force;  // nv
  AssemblyScratch assembly;         // assemble_constraints (the calling thread's)
  Kept<std::vector<AssemblyScratch>> assembly_workers;  // worker k's at k - 1 (Data::threads > 1)
  std::vector<int> contact_row_start, contact_entry_start;  // per contact + 1 (threads > 1)
  std::vector<double> row;                                  // one row's values
};

// The workspace of `data`.
Workspace& workspace(Data& data);

}  // namespace pliant
