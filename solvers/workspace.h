#pragma once

// Working memory of the constraint solvers. Kept by the caller across
// steps, so a steady-state solve makes no heap allocation. The solvers' own
// arrays only grow (entries past the problem's sizes are stale); `result`
// is sized to the problem.

#include <vector>

#include "solvers/block_cholesky.h"
#include "solvers/constraint_problem.h"
#include "solvers/cost.h"
#include "solvers/envelope_cholesky.h"
#include "solvers/grow.h"
#include "solvers/kept.h"
#include "solvers/tree_ordering.h"

namespace pliant {

struct SolverWorkspace {
  // nv
  std::vector<double> ma, grad, mgrad, search, msearch, grad_old, mgrad_old, scratch_nv;
  // nefc
  std::vector<double> jar, jv, rank_vector;
  std::vector<int> live_rows;               // the line search's rows inside its window
  std::vector<int> changed_rows;            // Newton's rows changing state in an iteration
  int entering_rows = 0, leaving_rows = 0;  // ... at its front and its back
  // Rows with the same columns: row_run_end[i] ends row i's run; a run's
  // entries of a vector are gathered in `gathered` (nv).
  std::vector<int> row_run_end;
  std::vector<double> gathered;
  std::vector<unsigned char> joined;  // each row's same_columns_as_previous, if p lacks them
  // On a parallel loop: worker k's `gathered` at k - 1, and J^T f by column
  // ranges, range t holding columns [range_column[t], range_column[t + 1])
  // and visiting the runs (their first rows) in range_runs[t].
  Kept<std::vector<std::vector<double>>> worker_gathered;
  std::vector<int> range_column;
  Kept<std::vector<std::vector<int>>> range_runs;
  std::vector<RowState> state, old_state;
  std::vector<double> cone_hessian;         // kMaxConeDim^2 per cone
  std::vector<double> cone_product;         // Hc Jc for one cone
  EnvelopeCholesky hessian;                 // in the factor's order (identity when dense)
  TreeOrdering hessian_order;               // dof order of the sparse factor
  bool hessian_permuted = false;            // hessian_order in use
  BlockCholesky block_hessian;              // on many trees, when cheaper than the envelope
  TreeOrdering block_order;                 // its dof order (minimum degree)
  BlockCholesky::UpdateBatch update_batch;  // its rank-1 updates on several threads
  bool hessian_blocks = false;              // block_hessian in use
  std::vector<double> hessian_rhs;          // nv, a right-hand side in the factor's order
  std::vector<int> hessian_slots;           // one row's columns as factor indices
  std::vector<double*> hessian_entries;     // entries of H a run of rows reaches
  std::vector<double> hessian_block;        // the run's sum, packed lower triangle
  // The same on several threads: each row whether it starts a run of
  // quadratic rows, the runs' first rows, where each run's block
  // starts in run_blocks, the blocks and the entries they add to.
  std::vector<unsigned char> run_first;
  std::vector<int> runs;
  std::vector<size_t> run_block;
  std::vector<double> run_blocks;
  std::vector<double*> run_entries;  // the entry of H each block entry adds to
  // Where each thread's range of H's storage starts (threads + 1), and per
  // task and owning thread the block entries it adds.
  std::vector<const double*> owner_bounds;
  Kept<std::vector<std::vector<int>>> owned_entries;
  // The warm-start comparison's two candidates: J a - aref and M a.
  std::vector<double> warm_jar, warm_ma, smooth_jar, smooth_ma;
  // PGS
  std::vector<double> ar, b, residual;
  SolverResult result;

  // Storage a caller may use for the problem's own arrays (cone groups
  // built from its representation).
  std::vector<int> cone_of_row;
  std::vector<ConeGroup> cones;

  // Sizes the nv and nefc arrays (keeps capacity).
  void prepare(const ConstraintProblem& p);

 private:
  void grow_arrays(const ConstraintProblem& p);
  // The largest sizes prepare() has grown the arrays to: a problem within
  // them (every step of a settled scene, every island after the largest)
  // skips the growing.
  int grown_nv_ = -1, grown_nefc_ = -1, grown_ncone_ = -1, grown_threads_ = -1;
};

}  // namespace pliant
