#include "solvers/newton_solver.h"

#include <algorithm>
#include <cmath>

#include "solvers/block_cholesky.h"
#include "solvers/primal_solver.h"
#include "solvers/workspace.h"

namespace pliant {

// ---- EnvelopeCholesky ----

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

namespace {

// Index of dof k in the factor (identity unless the sparse order is in use).
int slot(const int* position, int k) { return position ? position[k] : k; }

// H(x, y) += value for dofs x, y (lower triangle in the factor's order).
template <class Factor>
void add_entry(Factor& h, const int* position, int x, int y, double value) {
  const int a = slot(position, x), b = slot(position, y);
  h.at(std::max(a, b), std::min(a, b)) += value;
}

// The entries of H at the pairs of n factor positions, as a packed lower
// triangle (see BlockCholesky::locate).
void locate_entries(EnvelopeCholesky& h, const int* slots, int n, double** entries) {
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b <= a; ++b) {
      *entries++ = &h.at(std::max(slots[a], slots[b]), std::min(slots[a], slots[b]));
    }
  }
}

void locate_entries(BlockCholesky& h, const int* slots, int n, double** entries) {
  h.locate(slots, n, entries);
}

// H(a, b) += D J_a J_b over the quadratic rows, in row order. Consecutive
// rows over the same columns (a contact's pyramid edges, a weld's six rows,
// every row of the dense layout) form a run: their products are summed in a
// packed lower triangle of the run's columns, contiguous, and the sum is
// added once to the entries of H the run reaches (found once for the run).
template <class Factor>
void add_rows(const ConstraintProblem& p, const RowState* state, const int* position,
              std::vector<int>& slots, std::vector<double*>& entries, std::vector<double>& block,
              Factor& h) {
  int group = -1;
  const auto flush = [&] {
    if (group < 0) return;
    for (size_t e = 0; e < entries.size(); ++e) *entries[e] += block[e];
  };
  for (int i = 0; i < p.nefc; ++i) {
    if (state[i] != RowState::kQuadratic) continue;
    const int adr = p.row_adr[i], n = p.row_nnz[i];
    if (group < 0 || n != p.row_nnz[group] ||
        !std::equal(p.col + adr, p.col + adr + n, p.col + p.row_adr[group])) {
      flush();
      group = i;
      slots.resize(n);
      entries.resize(static_cast<size_t>(n) * (n + 1) / 2);
      block.assign(entries.size(), 0.0);
      for (int a = 0; a < n; ++a) slots[a] = slot(position, p.col[adr + a]);
      locate_entries(h, slots.data(), n, entries.data());
    }
    const double d = p.D[i];
    const double* jac = p.J + adr;
    double* sum = block.data();
    // Zeros are skipped: a dense row is mostly zeros, and a contact's row
    // has some too (the normal of a resting box has no sideways part).
    for (int a = 0; a < n; ++a) {
      const double da = d * jac[a];
      if (da != 0) {
        for (int b = 0; b <= a; ++b) sum[b] += da * jac[b];
      }
      sum += a + 1;
    }
  }
  flush();
}

// H += Jc^T Hc Jc for one cone in its middle zone (all rows share columns):
// P = Hc Jc (dim x nnz), then H(a, b) += sum_r Jc(r, a) P(r, b).
template <class Factor>
void add_cone(const ConstraintProblem& p, const ConeGroup& cone, const double* hc,
              const int* position, std::vector<double>& product, Factor& h) {
  const int dim = cone.dim, first = cone.first_row;
  const int nnz = p.row_nnz[first];
  product.resize(static_cast<size_t>(dim) * nnz);
  for (int r = 0; r < dim; ++r) {
    for (int b = 0; b < nnz; ++b) {
      double sum = 0;
      for (int s = 0; s < dim; ++s) sum += hc[r * dim + s] * p.J[p.row_adr[first + s] + b];
      product[r * nnz + b] = sum;
    }
  }
  const int* cols = p.col + p.row_adr[first];
  for (int a = 0; a < nnz; ++a) {
    for (int b = 0; b <= a; ++b) {
      double sum = 0;
      for (int r = 0; r < dim; ++r) sum += p.J[p.row_adr[first + r] + a] * product[r * nnz + b];
      add_entry(h, position, cols[a], cols[b], sum);
    }
  }
}

template <class Factor>
void add_mass(const ConstraintProblem& p, const int* position, Factor& h) {
  const TreeSparsity& tree = p.mass_tree;
  for (int i = 0; i < p.nv; ++i) {
    int address = tree.address[i];
    for (int j = i; j >= 0; j = tree.parent[j], ++address) {
      add_entry(h, position, i, j, p.mass[address]);
    }
  }
}

const int* factor_positions(const SolverWorkspace& w) {
  if (w.hessian_blocks) return w.block_order.positions();
  return w.hessian_permuted ? w.hessian_order.positions() : nullptr;
}

// Builds H from scratch at the current states and factorises it.
template <class Factor>
void assemble_and_factor(const ConstraintProblem& p, SolverWorkspace& w, Factor& h) {
  const int* position = factor_positions(w);
  h.clear_values();
  add_mass(p, position, h);
  add_rows(p, w.state.data(), position, w.hessian_slots, w.hessian_entries, w.hessian_block, h);
  for (int c = 0; c < p.ncone; ++c) {
    if (w.state[p.cones[c].first_row] != RowState::kCone) continue;
    add_cone(p, p.cones[c], w.cone_hessian.data() + c * kMaxConeDim * kMaxConeDim, position,
             w.cone_product, h);
  }
  if (!h.factor()) {
    // Not positive definite in floating point: fall back to M alone, whose
    // tree factor always exists (the direction is then a PCG one).
    h.clear_values();
    add_mass(p, position, h);
    h.factor();
  }
}

void assemble_and_factor(const ConstraintProblem& p, SolverWorkspace& w) {
  if (w.hessian_blocks) {
    assemble_and_factor(p, w, w.block_hessian);
  } else {
    assemble_and_factor(p, w, w.hessian);
  }
}

// Below this many trees the envelope is never beaten by much.
constexpr int kMinBlockTrees = 8;

}  // namespace

void build_hessian(const ConstraintProblem& p, SolverWorkspace& w) {
  // Envelope: dense, or (in the tree ordering) the union of M's ancestor
  // rows and every row's column span (rows in any state, so updates never
  // leave it).
  EnvelopeCholesky& h = w.hessian;
  h.begin_pattern(p.nv);
  // One tree (a robot, or an island of one body): its dofs in their own
  // order are already the tree ordering's, so no ordering and no permuting
  // (positions are then the identity, and every dof's root is at 0).
  const bool one_tree = p.mass_tree.is_one_tree();
  w.hessian_permuted = !p.dense_hessian && !one_tree;
  if (p.dense_hessian) {
    h.make_dense();
  } else {
    if (!one_tree) w.hessian_order.compute(p);
    const int* position = one_tree ? nullptr : w.hessian_order.positions();
    for (int i = 0; i < p.nv; ++i) {
      h.widen(slot(position, i), one_tree ? 0 : w.hessian_order.root_position(i));
    }
    for (int i = 0; i < p.nefc; ++i) {
      const int adr = p.row_adr[i], nnz = p.row_nnz[i];
      if (nnz == 0 || same_columns_as_previous(p, i)) continue;
      int lowest = slot(position, p.col[adr]);
      for (int k = 1; k < nnz; ++k) lowest = std::min(lowest, slot(position, p.col[adr + k]));
      for (int k = 0; k < nnz; ++k) h.widen(slot(position, p.col[adr + k]), lowest);
    }
  }
  // Many trees: a block factor in minimum-degree order, if it costs less.
  using Factor = ConstraintProblem::Factor;
  w.hessian_blocks = false;
  if (p.factor == Factor::kBlocks || (p.factor == Factor::kAuto && w.hessian_permuted &&
                                      w.hessian_order.tree_count() >= kMinBlockTrees)) {
    if (w.hessian_permuted) {
      w.block_order.compute_like(w.hessian_order, TreeOrdering::Method::kMinimumDegree);
    } else {
      w.block_order.compute(p, TreeOrdering::Method::kMinimumDegree);
    }
    w.block_hessian.analyse(p, w.block_order);
    w.hessian_blocks =
        p.factor == Factor::kBlocks || w.block_hessian.factor_work() < h.pattern_factor_work();
  }
  if (!w.hessian_blocks) h.finish_pattern();
  assemble_and_factor(p, w);
}

void solve_hessian(SolverWorkspace& w, double* x) {
  if (w.hessian_blocks) {
    w.hessian_rhs.resize(w.block_hessian.size());
    w.block_order.to_factor(x, w.hessian_rhs.data());
    w.block_hessian.solve(w.hessian_rhs.data());
    w.block_order.from_factor(w.hessian_rhs.data(), x);
    return;
  }
  if (!w.hessian_permuted) {
    w.hessian.solve(x);
    return;
  }
  w.hessian_rhs.resize(w.hessian.size());
  w.hessian_order.to_factor(x, w.hessian_rhs.data());
  w.hessian.solve(w.hessian_rhs.data());
  w.hessian_order.from_factor(w.hessian_rhs.data(), x);
}

// Rows entering the quadratic state add sqrt(D) J_i to the factor by a
// rank-1 update, rows leaving remove it by a downdate (after the updates,
// so the matrix stays positive definite on the way). Cones in or around
// their middle zone, many changes, or a downdate losing rank: rebuild.
void update_hessian(const ConstraintProblem& p, SolverWorkspace& w) {
  // The rows changing, listed once: entering from the front of `changed`,
  // leaving from its back, each in row order.
  int* changed = w.changed_rows.data();
  int entering = 0, leaving = 0;
  for (int i = 0; i < p.nefc; ++i) {
    if (p.type[i] == RowType::kContactElliptic) {
      if (w.state[i] == RowState::kCone || w.state[i] != w.old_state[i]) {
        assemble_and_factor(p, w);
        return;
      }
      continue;
    }
    const bool was = w.old_state[i] == RowState::kQuadratic;
    const bool is = w.state[i] == RowState::kQuadratic;
    if (was == is) continue;
    if (is) {
      changed[entering++] = i;
    } else {
      changed[p.nefc - 1 - leaving++] = i;
    }
  }
  if (entering + leaving == 0) return;
  // An update touches at most the whole envelope: once the updates would
  // cost more than refactorising, refactor.
  double update_work = (entering + leaving) * w.hessian.update_work();
  const double factor_work =
      w.hessian_blocks ? w.block_hessian.factor_work() : w.hessian.factor_work();
  const int* position = factor_positions(w);
  if (w.hessian_blocks) {
    // An update walks the elimination tree from the row's first column
    // (sums of whole numbers: exact in any order).
    update_work = 0;
    auto add_work = [&](int i) {
      const int adr = p.row_adr[i];
      int first = p.nv;
      for (int k = 0; k < p.row_nnz[i]; ++k) first = std::min(first, position[p.col[adr + k]]);
      if (first < p.nv) update_work += w.block_hessian.update_work(first);
    };
    for (int t = 0; t < entering && update_work <= factor_work; ++t) add_work(changed[t]);
    for (int t = 0; t < leaving && update_work <= factor_work; ++t) {
      add_work(changed[p.nefc - 1 - t]);
    }
  }
  if (update_work > factor_work) {
    assemble_and_factor(p, w);
    return;
  }
  double* v = w.rank_vector.data();
  auto rank_one = [&](int i, bool downdate) {
    const double scale = std::sqrt(p.D[i]);
    const int adr = p.row_adr[i];
    int first = p.nv;
    for (int k = 0; k < p.row_nnz[i]; ++k) {
      const int at = slot(position, p.col[adr + k]);
      v[at] = scale * p.J[adr + k];
      first = std::min(first, at);
    }
    return w.hessian_blocks ? w.block_hessian.rank_one(v, downdate, first)
                            : w.hessian.rank_one(v, downdate, first);
  };
  bool ok = true;
  for (int t = 0; t < entering && ok; ++t) ok = rank_one(changed[t], false);
  for (int t = 0; t < leaving && ok; ++t) ok = rank_one(changed[p.nefc - 1 - t], true);
  if (!ok) assemble_and_factor(p, w);
}

void solve_newton(const ConstraintProblem& problem, SolverWorkspace& workspace) {
  solve_primal(problem, workspace, PrimalMethod::kNewton);
}

}  // namespace pliant
