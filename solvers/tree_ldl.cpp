#include "solvers/tree_ldl.h"

#include <algorithm>

namespace pliant {

namespace {

// Each loop below is compiled twice: without simple dofs (kSimple false)
// it carries no test for them.

// Eliminating from the leaves up: for dof k (deepest first) and each
// ancestor i of k, the multiplier L(k,i) = M(k,i) / D(k) updates row i at
// i's ancestors j: M(i,j) -= L(k,i) M(k,j). Fill-in never leaves the
// ancestor pattern, which is why the layout stays fixed. Row i's ancestors
// are exactly the ancestors of k from i on, so row i and the tail of row k
// from slot (k,i) line up slot for slot: the update is one contiguous loop
// of depth(i) + 1 entries. Row k's ancestors are read from its columns, not
// by chasing parents, so no address waits for the one before it.
template <bool kSimple>
void factor(const TreeSparsity& tree, double* values, double* inverse_diagonal) {
  const int* column = tree.column;
  for (int k = tree.n - 1; k >= 0; --k) {
    const int row_k = tree.address[k];
    const int length_k = tree.row_end(k) - row_k;
    if (kSimple && tree.is_simple(k)) {
      // A simple dof's ancestors are its body's own (simple too): no updates.
      std::fill(values + row_k + 1, values + row_k + length_k, 0.0);
      continue;
    }
    const double inverse_diagonal_k = 1 / values[row_k];
    // Slot s of row k holds column column[row_k + s], k's s-th ancestor.
    for (int s = 1; s < length_k; ++s) {
      const int slot_ki = row_k + s;
      const double multiplier = values[slot_ki] * inverse_diagonal_k;
      double* __restrict row_i = values + tree.address[column[slot_ki]];
      const double* __restrict tail_k = values + slot_ki;
      const int length = length_k - s;
      for (int t = 0; t < length; ++t) row_i[t] -= multiplier * tail_k[t];
      values[slot_ki] = multiplier;
    }
  }
  for (int k = 0; k < tree.n; ++k) inverse_diagonal[k] = 1.0 / values[tree.address[k]];
}

// Row i of L times x over its ancestors, slots first..last (nearest
// ancestor first in storage), summed from the root down as MuJoCo 3.3.8's
// sparse dot product sums: four interleaved partial sums while four or more
// terms remain, combined pairwise, then the rest in turn (measured: qacc of
// the humanoid and the cheetah equal to 3.3.8's to the bit). The four sums
// are independent chains, so the loop also runs faster than one chain.
inline double ancestor_dot(const double* factor, const double* x, const int* column, int first,
                           int last) {
  int slot = last;
  double sum = 0;
  if (last - first + 1 >= 4) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (; slot - 3 >= first; slot -= 4) {
      s0 += factor[slot] * x[column[slot]];
      s1 += factor[slot - 1] * x[column[slot - 1]];
      s2 += factor[slot - 2] * x[column[slot - 2]];
      s3 += factor[slot - 3] * x[column[slot - 3]];
    }
    sum = (s0 + s2) + (s1 + s3);
  }
  for (; slot >= first; --slot) sum += factor[slot] * x[column[slot]];
  return sum;
}

// M = L^T D L, so x = L^-1 D^-1 L^-T b: back-substitute L^T from the leaves
// up, scale, then forward-substitute L from the roots down.
template <bool kSimple>
void solve_range(const TreeSparsity& tree, const double* factor, const double* inverse_diagonal,
                 double* x, int begin, int end) {
  const int* column = tree.column;
  for (int i = end - 1; i >= begin; --i) {
    const double xi = x[i];
    if (xi == 0 || (kSimple && tree.is_simple(i))) continue;
    const int row_end = tree.row_end(i);
    for (int slot = tree.address[i] + 1; slot < row_end; ++slot)
      x[column[slot]] -= factor[slot] * xi;
  }
  for (int i = begin; i < end; ++i) x[i] *= inverse_diagonal[i];
  for (int i = begin; i < end; ++i) {
    if (kSimple && tree.is_simple(i)) continue;
    const int first = tree.address[i] + 1;
    const int last = tree.row_end(i) - 1;
    if (last < first) continue;
    x[i] -= ancestor_dot(factor, x, column, first, last);
  }
}

// Row i's own sum is kept in a register: the ancestors' entries it writes
// are other rows', and later rows add to y[i] only after it is stored.
template <bool kSimple>
void multiply(const TreeSparsity& tree, const double* values, const double* x, double* y) {
  const int* column = tree.column;
  for (int i = 0; i < tree.n; ++i) y[i] = values[tree.address[i]] * x[i];
  for (int i = 0; i < tree.n; ++i) {
    if (kSimple && tree.is_simple(i)) continue;
    const int row_end = tree.row_end(i);
    const double xi = x[i];
    double yi = y[i];
    for (int slot = tree.address[i] + 1; slot < row_end; ++slot) {
      const int j = column[slot];
      yi += values[slot] * x[j];
      y[j] += values[slot] * xi;
    }
    y[i] = yi;
  }
}

}  // namespace

void tree_ldl_factor(const TreeSparsity& tree, double* values, double* inverse_diagonal) {
  if (tree.simple) {
    factor<true>(tree, values, inverse_diagonal);
  } else {
    factor<false>(tree, values, inverse_diagonal);
  }
}

void tree_ldl_solve(const TreeSparsity& tree, const double* factor, const double* inverse_diagonal,
                    double* x) {
  tree_ldl_solve_range(tree, factor, inverse_diagonal, x, 0, tree.n);
}

void tree_ldl_solve_range(const TreeSparsity& tree, const double* factor,
                          const double* inverse_diagonal, double* x, int begin, int end) {
  if (tree.simple) {
    solve_range<true>(tree, factor, inverse_diagonal, x, begin, end);
  } else {
    solve_range<false>(tree, factor, inverse_diagonal, x, begin, end);
  }
}

void tree_multiply(const TreeSparsity& tree, const double* values, const double* x, double* y) {
  if (tree.simple) {
    multiply<true>(tree, values, x, y);
  } else {
    multiply<false>(tree, values, x, y);
  }
}

std::vector<int> tree_columns(int n, const int* parent) {
  std::vector<int> column;
  for (int i = 0; i < n; ++i) {
    for (int j = i; j >= 0; j = parent[j]) column.push_back(j);
  }
  return column;
}

}  // namespace pliant
