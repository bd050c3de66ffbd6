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

// The size of one free body's square (a resting box's island), the dense
// size compiled on its own.
constexpr int kOneBody = 6;

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
    values_.resize(static_cast<size_t>(n_) * n_);
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
  values_.resize(total);
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

// The dense square's upper triangle is never read: only the lower one
// (column j from row j on) is cleared.
void EnvelopeCholesky::clear_values() {
  if (!dense_) {
    std::fill(values_.begin(), values_.end(), 0.0);
    return;
  }
  for (int j = 0; j < n_; ++j) {
    double* column = values_.data() + static_cast<size_t>(j) * n_;
    std::fill(column + j, column + n_, 0.0);
  }
}

// Row by row: L(i,j) = (H(i,j) - sum_k L(i,k) L(j,k)) / L(j,j) over the
// common envelope k in [max(first_i, first_j), j), and
// L(i,i) = sqrt(H(i,i) - sum_k L(i,k)^2). Divisions go through the kept
// reciprocals of the diagonal (a multiply is several times cheaper).
// Entries j and j + 1 of a row are found together: row i is read once for
// both sums, which form two independent chains; each sum still takes its
// products in ascending k, so the factor is the formula's bit for bit.
bool EnvelopeCholesky::factor() {
  if (dense_) return n_ == kOneBody ? factor_dense<kOneBody>() : factor_dense<0>();
  // L(i, i) from the sum left; false when H is not positive definite.
  const auto set_diagonal = [this](int i, double* row_i, double sum) {
    if (!(sum > 0)) return false;
    row_i[i] = std::sqrt(sum);
    inverse_diagonal_[i] = 1 / row_i[i];
    return true;
  };
  for (int i = 0; i < n_; ++i) {
    double* row_i = values_.data() + adr_[i] - first_[i];  // row_i[j] = (i, j)
    const int first_i = first_[i];
    int j = first_i;
    for (; j + 1 <= i; j += 2) {
      const double* row_j = values_.data() + adr_[j] - first_[j];
      const double* row_next = values_.data() + adr_[j + 1] - first_[j + 1];
      const int begin = std::max(first_i, first_[j]);
      const int begin_next = std::max(first_i, first_[j + 1]);  // at most j + 1
      const int shared = std::min(std::max(begin, begin_next), j);
      double sum = row_i[j], sum_next = row_i[j + 1];
      for (int k = begin; k < shared; ++k) sum -= row_i[k] * row_j[k];
      for (int k = begin_next; k < shared; ++k) sum_next -= row_i[k] * row_next[k];
      for (int k = shared; k < j; ++k) {
        const double lik = row_i[k];
        sum -= lik * row_j[k];
        sum_next -= lik * row_next[k];
      }
      row_i[j] = sum * inverse_diagonal_[j];
      if (begin_next <= j) sum_next -= row_i[j] * row_next[j];
      if (j + 1 < i) {
        row_i[j + 1] = sum_next * inverse_diagonal_[j + 1];
      } else if (!set_diagonal(i, row_i, sum_next)) {
        return false;
      }
    }
    if (j == i) {  // the diagonal left over
      double sum = row_i[i];
      for (int k = first_i; k < i; ++k) sum -= row_i[k] * row_i[k];
      if (!set_diagonal(i, row_i, sum)) return false;
    }
  }
  return true;
}

namespace {

// One column's rotation in a rank-1 update: r = sqrt(L_jj^2 +- v_j^2),
// c = r / L_jj, s = v_j / L_jj; below the diagonal
// L_kj <- (L_kj +- s v_k) / c and v_k <- c v_k - s L_kj (new).
struct Rotation {
  double c, s, sign_s, inverse_c;

  // Rotates the diagonal entry `ljj` by `vj`; false (nothing changed) when
  // the downdate would lose positive definiteness.
  bool start(double& ljj, double& inverse_ljj, double vj, double sign) {
    const double r2 = ljj * ljj + sign * vj * vj;
    if (!(r2 > 1e-15 * ljj * ljj)) return false;
    const double r = std::sqrt(r2);
    c = r / ljj;
    s = vj / ljj;
    inverse_c = ljj / r;
    sign_s = sign * s;
    ljj = r;
    inverse_ljj = 1 / r;
    return true;
  }
  // Entry k below the diagonal: L_kj and v_k.
  void apply(double& lkj, double& vk) const {
    const double l = (lkj + sign_s * vk) * inverse_c;
    lkj = l;
    vk = c * vk - s * l;
  }
};

}  // namespace

// Column by column from v's first non-zero (Rotation). The column below the
// diagonal is contiguous in the dense square (rank_one_dense), listed by
// column_row_ and column_slot_ in the row envelope.
bool EnvelopeCholesky::rank_one(double* v, bool downdate, int first) {
  if (dense_) return rank_one_dense(v, downdate, first);
  const double sign = downdate ? -1 : 1;
  bool ok = true;
  int j = first;
  while (j < n_ && v[j] == 0) ++j;
  for (; j < n_; ++j) {
    const double vj = v[j];
    if (vj == 0) continue;
    v[j] = 0;
    if (!ok) continue;
    Rotation rotation;
    if (!rotation.start(at(j, j), inverse_diagonal_[j], vj, sign)) {
      ok = false;  // rank loss: the caller refactorises
      continue;
    }
    for (int e = column_start_[j]; e < column_start_[j + 1]; ++e) {
      rotation.apply(values_[column_slot_[e]], v[column_row_[e]]);
    }
  }
  return ok;
}

// The same rotations on the dense square, two columns per sweep where both
// rotate: row j + 1 of column j is rotated first (it gives column j + 1's
// v), then each row below takes column j's rotation and column j + 1's in
// turn, so every entry sees the operations of one column at a time, in
// order, and the factor is bit-identical; v and the rows below are read
// and written once for the two columns.
bool EnvelopeCholesky::rank_one_dense(double* v, bool downdate, int first) {
  const double sign = downdate ? -1 : 1;
  const int n = n_;
  double* a = values_.data();
  bool ok = true;
  int j = first;
  while (j < n && v[j] == 0) ++j;
  for (; j < n; ++j) {
    const double vj = v[j];
    if (vj == 0) continue;
    v[j] = 0;
    if (!ok) continue;
    double* __restrict column = a + static_cast<size_t>(j) * n;
    Rotation one;
    if (!one.start(column[j], inverse_diagonal_[j], vj, sign)) {
      ok = false;  // rank loss: the caller refactorises
      continue;
    }
    int below = j + 1;
    if (below < n) {
      one.apply(column[below], v[below]);
      ++below;
      Rotation two;
      double* __restrict next = column + n;
      if (v[j + 1] != 0 && two.start(next[j + 1], inverse_diagonal_[j + 1], v[j + 1], sign)) {
        v[j + 1] = 0;
        double* __restrict rest = v;
        for (int k = below; k < n; ++k) {
          double vk = rest[k];
          one.apply(column[k], vk);
          two.apply(next[k], vk);
          rest[k] = vk;
        }
        ++j;
        continue;
      }
    }
    // Contiguous and distinct from v: the loop vectorises unchecked.
    double* __restrict rest = v;
    for (int k = below; k < n; ++k) one.apply(column[k], rest[k]);
  }
  return ok;
}

// L y = x forward, then L^T x = y backward (column access through rows).
void EnvelopeCholesky::solve(double* x) const {
  if (dense_) {
    if (n_ == kOneBody) {
      solve_dense<kOneBody>(x);
    } else {
      solve_dense<0>(x);
    }
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
// envelope's factor(). Columns are finished in pairs (j, j + 1), so each
// later column is read and written once for both: its entries take the
// product of column j, then of column j + 1, in that order as before.
template <int N>
bool EnvelopeCholesky::factor_dense() {
  const int n = N > 0 ? N : n_;
  double* a = values_.data();
  const auto finish_column = [&](int j) {
    double* column_j = a + static_cast<size_t>(j) * n;
    const double d = column_j[j];
    if (!(d > 0)) return false;
    column_j[j] = std::sqrt(d);
    const double inverse = 1 / column_j[j];
    inverse_diagonal_[j] = inverse;
    for (int i = j + 1; i < n; ++i) column_j[i] *= inverse;
    return true;
  };
  // Column l (rows l..n-1) -= column `source` (same rows) * L(l, source).
  const auto subtract_one = [&](int source, int l) {
    const double* column_s = a + static_cast<size_t>(source) * n;
    const double l_ls = column_s[l];
    if (l_ls == 0) return;
    // Distinct columns: no aliasing, so the loop vectorises unchecked.
    double* __restrict target = a + static_cast<size_t>(l) * n + l;
    const double* __restrict from = column_s + l;
    const int length = n - l;
    for (int i = 0; i < length; ++i) target[i] -= from[i] * l_ls;
  };
  int j = 0;
  for (; j + 1 < n; j += 2) {
    if (!finish_column(j)) return false;
    subtract_one(j, j + 1);
    if (!finish_column(j + 1)) return false;
    const double* __restrict first = a + static_cast<size_t>(j) * n;
    const double* __restrict second = first + n;
    for (int l = j + 2; l < n; ++l) {
      const double l_first = first[l], l_second = second[l];
      if (l_first == 0 || l_second == 0) {
        subtract_one(j, l);
        subtract_one(j + 1, l);
        continue;
      }
      double* __restrict target = a + static_cast<size_t>(l) * n + l;
      const double* __restrict from_first = first + l;
      const double* __restrict from_second = second + l;
      const int length = n - l;
      for (int i = 0; i < length; ++i) {
        const double t = target[i] - from_first[i] * l_first;
        target[i] = t - from_second[i] * l_second;
      }
    }
  }
  if (j < n && !finish_column(j)) return false;
  return true;
}

// solve() on the square: forward by columns, backward along rows.
template <int N>
void EnvelopeCholesky::solve_dense(double* x) const {
  const int n = N > 0 ? N : n_;
  const double* a = values_.data();
  const auto column = [&](int j) { return a + static_cast<size_t>(j) * n; };
  // Forward, two columns at a time where both x's are non-zero: each x[i]
  // below takes column j's product, then column j + 1's, as one at a time.
  int j = 0;
  while (j < n) {
    const double xj = x[j] * inverse_diagonal_[j];
    x[j] = xj;
    if (xj == 0) {
      ++j;
      continue;
    }
    const double* __restrict first = column(j);
    double* __restrict rest = x;
    int i = j + 1;
    if (i < n) {
      rest[i] -= first[i] * xj;
      const double xj1 = rest[i] * inverse_diagonal_[i];
      if (xj1 != 0) {
        rest[i] = xj1;
        const double* __restrict second = column(i);
        for (++i; i < n; ++i) {
          const double t = rest[i] - first[i] * xj;
          rest[i] = t - second[i] * xj1;
        }
        j += 2;
        continue;
      }
      ++i;
    }
    for (; i < n; ++i) rest[i] -= first[i] * xj;
    ++j;
  }
  // Backward along rows (stride n), two rows at a time likewise: x[k]
  // takes row i's product, then row i - 1's; the two entries of each
  // column are adjacent.
  int i = n - 1;
  while (i >= 0) {
    const double xi = x[i] * inverse_diagonal_[i];
    x[i] = xi;
    if (xi == 0) {
      --i;
      continue;
    }
    if (i >= 1) {
      x[i - 1] -= a[static_cast<size_t>(i - 1) * n + i] * xi;
      const double xi1 = x[i - 1] * inverse_diagonal_[i - 1];
      if (xi1 != 0) {
        x[i - 1] = xi1;
        for (int k = 0; k < i - 1; ++k) {
          const double* entries = a + static_cast<size_t>(k) * n + i - 1;
          const double t = x[k] - entries[1] * xi;
          x[k] = t - entries[0] * xi1;
        }
        i -= 2;
        continue;
      }
    }
    for (int k = 0; k < i - 1; ++k) x[k] -= a[static_cast<size_t>(k) * n + i] * xi;
    --i;
  }
}

// ---- the Hessian H = M + J^T diag(D quadratic) J + sum of cone terms ----

}  // namespace pliant
