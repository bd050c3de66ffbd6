#include "solvers/envelope_cholesky.h"

#include <algorithm>
#include <cmath>

namespace pliant {

void EnvelopeCholesky::begin_pattern(int n) {
  n_ = n;
  first_.resize(n);
  for (int i = 0; i < n; ++i) first_[i] = i;
}

void EnvelopeCholesky::make_dense() {
  for (int i = 0; i < n_; ++i) first_[i] = 0;
}

// Envelopes filling at least this share of the lower triangle are stored as
// a dense square: twice the entries at most, but no index per entry.
constexpr double kDenseFill = 0.75;

void EnvelopeCholesky::finish_pattern() {
  if (n_ == static_cast<int>(laid_out_first_.size()) && first_ == laid_out_first_) return;
  laid_out_first_ = first_;
  int total = 0;
  for (int i = 0; i < n_; ++i) total += i - first_[i] + 1;
  factor_work_ = pattern_factor_work();
  update_work_ = total;
  const double triangle = 0.5 * n_ * (n_ + 1.0);
  dense_ = n_ > 0 && total >= kDenseFill * triangle;
  row_base_.resize(n_);
  column_base_.resize(n_);
  inverse_diagonal_.assign(n_, 0.0);
  if (dense_) {
    for (int i = 0; i < n_; ++i) {
      row_base_[i] = i;
      column_base_[i] = i * n_;
    }
    values_.assign(static_cast<size_t>(n_) * n_, 0.0);
    return;
  }
  adr_.resize(n_ + 1);
  column_start_.assign(n_ + 1, 0);
  adr_[0] = 0;
  for (int i = 0; i < n_; ++i) {
    adr_[i + 1] = adr_[i] + i - first_[i] + 1;
    row_base_[i] = adr_[i] - first_[i];
    column_base_[i] = i;
    for (int j = first_[i]; j < i; ++j) ++column_start_[j + 1];
  }
  values_.assign(total, 0.0);
  for (int j = 0; j < n_; ++j) column_start_[j + 1] += column_start_[j];
  column_row_.resize(column_start_[n_]);
  column_slot_.resize(column_start_[n_]);
  // Rows ascend, so each column's list is in ascending row order.
  cursor_.assign(column_start_.begin(), column_start_.end() - 1);
  for (int i = 0; i < n_; ++i) {
    for (int j = first_[i]; j < i; ++j) {
      column_row_[cursor_[j]] = i;
      column_slot_[cursor_[j]] = adr_[i] + j - first_[i];
      ++cursor_[j];
    }
  }
}

// Entry (i, j) of the factor costs the overlap of rows i and j; bounded by
// the shorter row, so sum over rows of width^2 / 2.
double EnvelopeCholesky::pattern_factor_work() const {
  double work = 0;
  for (int i = 0; i < n_; ++i) {
    const double width = i - first_[i] + 1;
    work += 0.5 * width * width;
  }
  return work;
}

void EnvelopeCholesky::clear_values() { std::fill(values_.begin(), values_.end(), 0.0); }

// Row by row: L(i,j) = (H(i,j) - sum_k L(i,k) L(j,k)) / L(j,j) over the
// common envelope k in [max(first_i, first_j), j), and
// L(i,i) = sqrt(H(i,i) - sum_k L(i,k)^2). Divisions go through the kept
// reciprocals of the diagonal (a multiply is several times cheaper).
bool EnvelopeCholesky::factor() {
  if (dense_) return factor_dense();
  for (int i = 0; i < n_; ++i) {
    double* row_i = values_.data() + adr_[i] - first_[i];  // row_i[j] = (i, j)
    for (int j = first_[i]; j <= i; ++j) {
      const double* row_j = values_.data() + adr_[j] - first_[j];
      double sum = row_i[j];
      for (int k = std::max(first_[i], first_[j]); k < j; ++k) sum -= row_i[k] * row_j[k];
      if (j < i) {
        row_i[j] = sum * inverse_diagonal_[j];
      } else {
        if (!(sum > 0)) return false;
        row_i[i] = std::sqrt(sum);
        inverse_diagonal_[i] = 1 / row_i[i];
      }
    }
  }
  return true;
}

// Column by column from v's first non-zero: r = sqrt(L_jj^2 +- v_j^2),
// c = r / L_jj, s = v_j / L_jj; below the diagonal
// L_kj <- (L_kj +- s v_k) / c and v_k <- c v_k - s L_kj (new). The column
// below the diagonal is contiguous in the dense square, listed by
// column_row_ and column_slot_ in the row envelope.
bool EnvelopeCholesky::rank_one(double* v, bool downdate, int first) {
  const double sign = downdate ? -1 : 1;
  bool ok = true;
  int j = first;
  while (j < n_ && v[j] == 0) ++j;
  for (; j < n_; ++j) {
    const double vj = v[j];
    if (vj == 0) continue;
    v[j] = 0;
    if (!ok) continue;
    double& ljj = at(j, j);
    const double r2 = ljj * ljj + sign * vj * vj;
    if (!(r2 > 1e-15 * ljj * ljj)) {
      ok = false;  // rank loss: the caller refactorises
      continue;
    }
    const double r = std::sqrt(r2);
    const double c = r / ljj, s = vj / ljj, inverse_c = ljj / r;
    ljj = r;
    inverse_diagonal_[j] = 1 / r;
    const double sign_s = sign * s;
    if (dense_) {
      // Contiguous and distinct from v: the loop vectorises unchecked.
      double* __restrict below = &ljj + 1;
      double* __restrict rest = v + j + 1;
      const int length = n_ - j - 1;
      for (int k = 0; k < length; ++k) {
        const double lkj = (below[k] + sign_s * rest[k]) * inverse_c;
        below[k] = lkj;
        rest[k] = c * rest[k] - s * lkj;
      }
    } else {
      for (int e = column_start_[j]; e < column_start_[j + 1]; ++e) {
        const int k = column_row_[e];
        double& lkj = values_[column_slot_[e]];
        lkj = (lkj + sign_s * v[k]) * inverse_c;
        v[k] = c * v[k] - s * lkj;
      }
    }
  }
  return ok;
}

// L y = x forward, then L^T x = y backward (column access through rows).
void EnvelopeCholesky::solve(double* x) const {
  if (dense_) {
    solve_dense(x);
    return;
  }
  for (int i = 0; i < n_; ++i) {
    const double* row = values_.data() + adr_[i] - first_[i];
    double sum = x[i];
    for (int k = first_[i]; k < i; ++k) sum -= row[k] * x[k];
    x[i] = sum * inverse_diagonal_[i];
  }
  for (int i = n_ - 1; i >= 0; --i) {
    const double* row = values_.data() + adr_[i] - first_[i];
    const double xi = x[i] * inverse_diagonal_[i];
    x[i] = xi;
    if (xi == 0) continue;
    for (int k = first_[i]; k < i; ++k) x[k] -= row[k] * xi;
  }
}

// The dense square, column-major. Right-looking: column j is scaled by
// 1 / L(j, j), then subtracted from the columns right of it. Entry (i, l)
// still receives its products L(i, k) L(l, k) in ascending k, as in the row
// envelope's factor().
bool EnvelopeCholesky::factor_dense() {
  const int n = n_;
  double* a = values_.data();
  for (int j = 0; j < n; ++j) {
    double* column_j = a + static_cast<size_t>(j) * n;
    const double d = column_j[j];
    if (!(d > 0)) return false;
    column_j[j] = std::sqrt(d);
    const double inverse = 1 / column_j[j];
    inverse_diagonal_[j] = inverse;
    for (int i = j + 1; i < n; ++i) column_j[i] *= inverse;
    for (int l = j + 1; l < n; ++l) {
      const double l_lj = column_j[l];
      if (l_lj == 0) continue;
      // Distinct columns: no aliasing, so the loop vectorises unchecked.
      double* __restrict target = a + static_cast<size_t>(l) * n + l;
      const double* __restrict source = column_j + l;
      const int length = n - l;
      for (int i = 0; i < length; ++i) target[i] -= source[i] * l_lj;
    }
  }
  return true;
}

// solve() on the square: forward by columns, backward along rows.
void EnvelopeCholesky::solve_dense(double* x) const {
  const int n = n_;
  const double* a = values_.data();
  for (int j = 0; j < n; ++j) {
    const double xj = x[j] * inverse_diagonal_[j];
    x[j] = xj;
    if (xj == 0) continue;
    const double* __restrict below = a + static_cast<size_t>(j) * n + j + 1;
    double* __restrict rest = x + j + 1;
    const int length = n - j - 1;
    for (int i = 0; i < length; ++i) rest[i] -= below[i] * xj;
  }
  for (int i = n - 1; i >= 0; --i) {
    const double xi = x[i] * inverse_diagonal_[i];
    x[i] = xi;
    if (xi == 0) continue;
    for (int k = 0; k < i; ++k) x[k] -= a[static_cast<size_t>(k) * n + i] * xi;
  }
}

// ---- the Hessian H = M + J^T diag(D quadratic) J + sum of cone terms ----

}  // namespace pliant
