#pragma once

// Constraint islands, as MuJoCo 3.3.8 solves by default (the `island` flag):
// the kinematic trees (a root dof and its descendants) joined by constraint
// rows that couple them form islands, and the primal solvers (Newton, CG)
// solve each island alone: its dofs, its rows, its own scale
// 1 / sum(M_kk over its dofs) and its own iterations and termination. Dofs
// in no island keep qacc = qacc_smooth. PGS and noslip solve the whole
// problem at once, as in MuJoCo.

#include <vector>

#include "solvers/constraint_problem.h"
#include "solvers/kept.h"
#include "solvers/row_pattern.h"
#include "solvers/workspace.h"

namespace pliant {

class ThreadPool;

// One island's problem, gathered from the whole one: M's rows and factor,
// the rows with their columns renumbered within the island.
struct IslandProblem {
  std::vector<int> parent, depth, address, mass_column, simple, row_nnz, row_adr, col, cone_of_row;
  std::vector<unsigned char> joined;  // same_columns_as_previous of each row
  std::vector<double> mass, mass_factor, mass_inverse_diagonal, qacc_smooth, qfrc_smooth;
  std::vector<double> qacc_start, ma_start, jar_start, J, R, D, aref, frictionloss;
  std::vector<RowType> type;
  std::vector<ConeGroup> cones;
};

// What a thread other than the caller needs to solve islands: an island's
// problem and the solver's working memory.
struct IslandWorker {
  IslandProblem problem;
  SolverWorkspace solver;
};

// The islands of one step, and the storage of their problems (kept across
// steps: no heap allocation once sizes stop growing).
struct IslandScratch {
  // What find_islands read at its last call and the islands it found: a
  // step whose rows repeat it keeps its islands.
  RowPattern pattern;
  int kept_count = 0;
  // Trees are named by their root dof; tree_parent is a union-find over them.
  std::vector<int> tree_of_dof, tree_parent, tree_has_rows, island_of_root;
  std::vector<int> island_of_dof, island_of_row;          // -1: in no island
  std::vector<int> dof_order, row_order;                  // dofs and rows sorted by island
  std::vector<int> dof_start, row_start;                  // per island, into the orders (+1 entry)
  std::vector<int> next;                                  // sorting scratch
  std::vector<int> local_dof;                             // global dof -> index within its island
  std::vector<unsigned char> joined;                      // the whole problem's joins_previous
  IslandProblem problem;                                  // the calling thread's island
  Kept<std::vector<IslandWorker>> workers;                // role k's at k - 1 (Data::threads > 1)
  std::vector<int> task_island;                           // islands in the order threads take them
  Kept<std::vector<SolverStatistics>> island_statistics;  // each island's, in island order
  SolverResult result;  // the whole problem's, filled island by island
};

// Finds the islands of `whole`; returns their number. When the rows repeat
// the last call's (RowPattern), the islands found then are kept.
int find_islands(const ConstraintProblem& whole, IslandScratch& s);

// Solves `whole` island by island with `solve` (solve_newton or solve_cg)
// into workspace.result, as one solve would fill it: qacc (qacc_smooth
// outside the islands), force, qfrc_constraint; the statistics are the
// island's with the most iterations (the first of those; converged only if
// all did). Call after find_islands returned at least one island. With
// whole.parallel (its threads, of `pool`), the islands are shared among the
// threads; the largest, when it is large enough for its passes to pay on
// several threads, is solved on one of them and every other thread helps
// with its passes between two of the remaining islands (helped_loop.h).
// Each island's answer is the same on any number of threads.
void solve_by_island(const ConstraintProblem& whole, IslandScratch& s, SolverWorkspace& workspace,
                     void (*solve)(const ConstraintProblem&, SolverWorkspace&), ThreadPool& pool);

}  // namespace pliant
