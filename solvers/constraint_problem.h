#pragma once

// The constraint problem the solvers work on, as plain arrays: no Model, no
// bodies, no MJCF. The primal solvers (Newton, PCG) minimise over the
// acceleration a
//
//   cost(a) = 0.5 (a - a0)^T M (a - a0) + sum_i s_i(J_i a - aref_i)
//
// where s_i is the soft-constraint cost of row i (see solvers/cost.h); the
// dual solver (PGS) minimises 0.5 f^T (J M^-1 J^T + R) f + f^T (J a0 - aref)
// over forces f in the rows' feasible sets. Both give a = a0 + M^-1 J^T f.

#include <algorithm>
#include <vector>

#include "pliant/solver_statistics.h"
#include "solvers/parallel_loop.h"
#include "solvers/row_length.h"
#include "solvers/tree_ldl.h"

namespace pliant {

// One elliptic contact: rows first_row .. first_row + dim - 1 (normal first).
struct ConeGroup {
  int first_row = 0;
  int dim = 0;
  double mu = 0;            // cone coefficient of the primal cost (friction[0]/sqrt(impratio))
  double friction[5] = {};  // per friction direction (tangent1, tangent2, spin, roll1, roll2)
};

// A read-only view of one step's constraint problem. Every pointer must stay
// valid while a solver runs.
struct ConstraintProblem {
  int nv = 0;
  int nefc = 0;

  // M in tree-sparse storage (solvers/tree_ldl.h) and its L^T D L factor.
  TreeSparsity mass_tree;
  const double* mass = nullptr;
  const double* mass_factor = nullptr;
  const double* mass_inverse_diagonal = nullptr;

  const double* qacc_smooth = nullptr;  // a0 = M^-1 qfrc_smooth, nv
  const double* qfrc_smooth = nullptr;  // nv

  // J in CSR: row i has row_nnz[i] entries col/J[row_adr[i] ...], ascending
  // columns. All rows of one elliptic cone list the same columns.
  const int* row_nnz = nullptr;
  const int* row_adr = nullptr;
  const int* col = nullptr;
  const double* J = nullptr;

  const RowType* type = nullptr;         // nefc
  const double* R = nullptr;             // regulariser, nefc
  const double* D = nullptr;             // 1 / R, nefc
  const double* aref = nullptr;          // reference acceleration, nefc
  const double* frictionloss = nullptr;  // friction-loss rows' bound, nefc
  const int* cone_of_row = nullptr;      // elliptic rows: index into cones; others -1
  const ConeGroup* cones = nullptr;
  int ncone = 0;

  // Convergence: stop when scale * (cost decrease) < tolerance or
  // scale * |gradient| < tolerance, or after `iterations` iterations.
  double scale = 1;  // 1 / (meaninertia * max(1, nv))
  double tolerance = 1e-8;
  int iterations = 100;
  // The line search: at most ls_iterations evaluations; done when
  // |slope| < tolerance * ls_tolerance * |s| / scale.
  int ls_iterations = 50;
  double ls_tolerance = 0.01;

  // Where the primal solvers start (nullptr: a0); PGS starts from
  // force_start (nullptr: zero).
  const double* qacc_start = nullptr;
  const double* force_start = nullptr;
  // J qacc_start - aref (nefc) and M qacc_start (nv) when the caller has
  // them already (the warm-start comparison computed them); nullptr: the
  // primal solvers compute them.
  const double* jar_start = nullptr;
  const double* ma_start = nullptr;

  // Use the dense Cholesky for Newton's Hessian (otherwise an envelope
  // factorisation following the rows' sparsity).
  bool dense_hessian = true;
  // Which sparse factor Newton uses: the cheaper by estimated work, or one
  // forced (the block factor then also serves dense problems).
  enum class Factor { kAuto, kEnvelope, kBlocks };
  Factor factor = Factor::kAuto;

  // Per row, whether it lists the same columns as the row before it
  // (same_columns_as_previous), when the caller has worked it out (nefc);
  // nullptr: compared where asked.
  const unsigned char* joins_previous = nullptr;
  // A parallel loop for the solvers' passes over rows and columns; nullptr:
  // this thread. Results are the same either way.
  ParallelLoop* parallel = nullptr;
  // Called with pause_context between a primal solver's iterations
  // (nullptr: never): a solve beside more urgent work (a small island
  // solved beside a large one) lends its thread to that work there.
  // Results are the same either way.
  void (*pause)(void* context) = nullptr;
  void* pause_context = nullptr;
};

// A solver's output.
struct SolverResult {
  std::vector<double> qacc;             // nv
  std::vector<double> force;            // nefc
  std::vector<double> qfrc_constraint;  // J^T force, nv
  SolverStatistics statistics;
};

// ---- operations on the problem's arrays ----

// y = M x.
inline void problem_mass_multiply(const ConstraintProblem& p, const double* x, double* y) {
  tree_multiply(p.mass_tree, p.mass, x, y);
}

// x <- M^-1 x.
inline void problem_mass_solve(const ConstraintProblem& p, double* x) {
  tree_ldl_solve(p.mass_tree, p.mass_factor, p.mass_inverse_diagonal, x);
}

// Whether row i lists the same columns as row i - 1 (the rows of one
// contact do): a pass that derives structure from the rows' columns alone
// can skip it.
inline bool same_columns_as_previous(const ConstraintProblem& p, int i) {
  if (p.joins_previous) return p.joins_previous[i] != 0;
  if (i == 0 || p.row_nnz[i] != p.row_nnz[i - 1]) return false;
  const int* a = p.col + p.row_adr[i];
  const int* b = p.col + p.row_adr[i - 1];
  return a == b || std::equal(a, a + p.row_nnz[i], b);
}

// The first row of chunk c of `chunks` (c == chunks: nefc): a cut in
// proportion, moved past the rows of an elliptic cone it would split.
inline int chunk_begin(const ConstraintProblem& p, int c, int chunks) {
  int row = slice_begin(p.nefc, c, chunks);
  while (row < p.nefc && p.cone_of_row && p.cone_of_row[row] >= 0 &&
         p.cones[p.cone_of_row[row]].first_row != row) {
    ++row;
  }
  return row;
}

// task(chunk, begin, end, worker) for every row chunk [begin, end), on the
// problem's parallel loop.
template <class Task>
void for_row_chunks(const ConstraintProblem& p, Task&& task) {
  const int chunks = row_chunks(p.nefc);
  parallel_for(p.parallel, chunks, [&](int c, int worker) {
    task(c, chunk_begin(p, c, chunks), chunk_begin(p, c + 1, chunks), worker);
  });
}

// y = J x over rows [first, stop), which list the same columns: their
// entries of x are gathered once into `gathered` (row_nnz[first] long),
// each row's sum taking its products in column order, as a row alone does.
inline void multiply_run(const ConstraintProblem& p, int first, int stop, const double* x,
                         double* gathered, double* y) {
  const int* cols = p.col + p.row_adr[first];
  with_row_length(p.row_nnz[first], [&](auto length) {
    const int n = row_length<length>(p.row_nnz[first]);
#pragma GCC unroll 12
    for (int k = 0; k < n; ++k) gathered[k] = x[cols[k]];
    for (int i = first; i < stop; ++i) {
      const double* jac = p.J + p.row_adr[i];
      double sum = 0;
#pragma GCC unroll 12
      for (int k = 0; k < n; ++k) sum += jac[k] * gathered[k];
      y[i] = sum;
    }
  });
}

// y = J x (nefc). Rows over the same columns (known from joins_previous: a
// contact's, a weld's) read their entries of x once (multiply_run) when
// there are at most kGatheredColumns of them.
inline void problem_jacobian_multiply(const ConstraintProblem& p, const double* x, double* y) {
  constexpr int kGatheredColumns = 32;
  for_row_chunks(p, [&](int, int begin, int end, int) {
    double gathered[kGatheredColumns];
    for (int i = begin; i < end;) {
      const int n = p.row_nnz[i];
      int stop = i + 1;
      if (p.joins_previous && n <= kGatheredColumns) {
        while (stop < end && p.joins_previous[stop]) ++stop;
      }
      if (stop > i + 1) {
        multiply_run(p, i, stop, x, gathered, y);
        i = stop;
        continue;
      }
      const int* cols = p.col + p.row_adr[i];
      const double* jac = p.J + p.row_adr[i];
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += jac[k] * x[cols[k]];
      y[i++] = sum;
    }
  });
}

// y = J^T f (nv).
inline void problem_jacobian_transpose_multiply(const ConstraintProblem& p, const double* f,
                                                double* y) {
  for (int k = 0; k < p.nv; ++k) y[k] = 0;
  for (int i = 0; i < p.nefc; ++i) {
    const double fi = f[i];
    if (fi == 0) continue;
    const int adr = p.row_adr[i];
    for (int k = 0; k < p.row_nnz[i]; ++k) y[p.col[adr + k]] += p.J[adr + k] * fi;
  }
}

}  // namespace pliant
