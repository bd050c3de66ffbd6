#pragma once

// Sparse L^T D L factorisation of a symmetric positive-definite matrix whose
// sparsity follows a tree (a kinematic tree's mass matrix): entry (i, j) can
// be non-zero only when j is i or one of its ancestors.
//
// Storage ("row-ancestor" layout): row i occupies values[address[i] ...],
// holding (i, i) first, then (i, parent(i)), (i, parent(parent(i))), ... up
// to the root. The factor uses the same layout: L is unit lower triangular
// (its diagonal slots hold D). Work is O(sum of depth^2), not O(n^3).
// Reference: Featherstone, "Rigid Body Dynamics Algorithms", section 6.3.

#include <vector>

namespace pliant {

struct TreeSparsity {
  int n = 0;
  const int* parent = nullptr;   // parent index, -1 at a root; parent[i] < i
  const int* address = nullptr;  // first slot of each row (rows in order, contiguous)
  // The column of each slot: row i's are i, then its ancestors nearest
  // first (tree_columns). Loops along a row read them instead of chasing
  // parents, so no load waits for the one before it.
  const int* column = nullptr;
  int entries = 0;  // slots in all: row i ends where row i + 1 starts, the last here
  // Rows whose entries off the diagonal count as zero where simple[i] > 0
  // (nullptr: none): MuJoCo's simple dofs (dof_simplenum), those of a root
  // body whose inertial frame is its own, whose block of M is diagonal but
  // for round-off. The factor, the solves and the product leave those
  // entries out, as MuJoCo's sparse M does not store them.
  const int* simple = nullptr;

  int row_end(int i) const { return i + 1 < n ? address[i + 1] : entries; }
  bool is_simple(int i) const { return simple && simple[i] > 0; }

  // One kinematic tree (a robot alone, or one body): every dof but the
  // first has a parent. False when there is no dof.
  bool is_one_tree() const {
    for (int k = 1; k < n; ++k) {
      if (parent[k] < 0) return false;
    }
    return n > 0;
  }
};

// In place: on entry `values` holds the lower triangle of M, on exit its
// factor (D on the diagonal slots, L below; zero in the rows of simple
// dofs). Also writes 1/D into `inverse_diagonal`.
void tree_ldl_factor(const TreeSparsity& tree, double* values, double* inverse_diagonal);

// x <- M^-1 x, given the factor from tree_ldl_factor.
void tree_ldl_solve(const TreeSparsity& tree, const double* factor, const double* inverse_diagonal,
                    double* x);

// The same for the rows begin..end-1 alone, a run closed under parents (whole
// kinematic trees): x outside the run is neither read nor written, and M^-1
// couples nothing across trees, so it equals the full solve of an x that is
// zero outside the run. Costs the run's share of the factor.
void tree_ldl_solve_range(const TreeSparsity& tree, const double* factor,
                          const double* inverse_diagonal, double* x, int begin, int end);

// y = M x for the (unfactored) matrix in row-ancestor storage (simple
// dofs' rows by their diagonal alone).
void tree_multiply(const TreeSparsity& tree, const double* values, const double* x, double* y);

// TreeSparsity::column for the dofs' parents (its size is `entries`).
std::vector<int> tree_columns(int n, const int* parent);

}  // namespace pliant
