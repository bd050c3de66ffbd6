#include "solvers/tree_ldl.h"

namespace pliant {

// Eliminating from the leaves up: for dof k (deepest first) and each
// ancestor i of k, the multiplier L(k,i) = M(k,i) / D(k) updates row i at
// i's ancestors j: M(i,j) -= L(k,i) M(k,j). Fill-in never leaves the
// ancestor pattern, which is why the layout stays fixed.
void tree_ldl_factor(const TreeSparsity& tree, double* values, double* inverse_diagonal) {
  for (int k = tree.n - 1; k >= 0; --k) {
    const int row_k = tree.address[k];
    const double inverse_diagonal = 1 / values[row_k];
    // Walk the ancestors i of k together with their slots in row k.
    int slot_ki = row_k + 1;
    for (int i = tree.parent[k]; i >= 0; i = tree.parent[i], ++slot_ki) {
      const double multiplier = values[slot_ki] * inverse_diagonal;
      // Row i's entries (i, j) for j = i and up, against row k's (k, j).
      int slot_ij = tree.address[i];
      int slot_kj = slot_ki;
      for (int j = i; j >= 0; j = tree.parent[j], ++slot_ij, ++slot_kj) {
        values[slot_ij] -= multiplier * values[slot_kj];
      }
      values[slot_ki] = multiplier;
    }
  }
  for (int k = 0; k < tree.n; ++k) inverse_diagonal[k] = 1.0 / values[tree.address[k]];
}

// M = L^T D L, so x = L^-1 D^-1 L^-T b: back-substitute L^T from the leaves
// up, scale, then forward-substitute L from the roots down.
void tree_ldl_solve(const TreeSparsity& tree, const double* factor, const double* inverse_diagonal,
                    double* x) {
  for (int i = tree.n - 1; i >= 0; --i) {
    const double xi = x[i];
    if (xi == 0) continue;
    int slot = tree.address[i] + 1;
    for (int j = tree.parent[i]; j >= 0; j = tree.parent[j], ++slot) x[j] -= factor[slot] * xi;
  }
  for (int i = 0; i < tree.n; ++i) x[i] *= inverse_diagonal[i];
  for (int i = 0; i < tree.n; ++i) {
    int slot = tree.address[i] + 1;
    for (int j = tree.parent[i]; j >= 0; j = tree.parent[j], ++slot) x[i] -= factor[slot] * x[j];
  }
}

void tree_multiply(const TreeSparsity& tree, const double* values, const double* x, double* y) {
  for (int i = 0; i < tree.n; ++i) y[i] = values[tree.address[i]] * x[i];
  for (int i = 0; i < tree.n; ++i) {
    int slot = tree.address[i] + 1;
    for (int j = tree.parent[i]; j >= 0; j = tree.parent[j], ++slot) {
      y[i] += values[slot] * x[j];
      y[j] += values[slot] * x[i];
    }
  }
}

}  // namespace pliant
