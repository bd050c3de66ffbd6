#include "solvers/newton_hessian.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <type_traits>

#include "solvers/block_cholesky.h"
#include "solvers/workspace.h"

namespace pliant {

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

// sum += d jac jac^T over n columns, as a packed lower triangle (row a's
// entries b <= a, rows one after another). Zeros are skipped: a dense row
// is mostly zeros, and a contact's row has some too (the normal of a
// resting box has no sideways part).
void add_outer_product(int n, double d, const double* jac, double* sum) {
  for (int a = 0; a < n; ++a) {
    const double da = d * jac[a];
    if (da != 0) {
      for (int b = 0; b <= a; ++b) sum[b] += da * jac[b];
    }
    sum += a + 1;
  }
}

// Whether row i has the columns of the earlier row `run`: certain when
// `chained` (every row since `run` repeats the columns of the row before
// it, same_columns_as_previous), compared otherwise.
bool has_columns_of(const ConstraintProblem& p, int i, int run, bool chained) {
  if (chained) return true;
  const int n = p.row_nnz[i];
  const int* cols = p.col + p.row_adr[i];
  return n == p.row_nnz[run] && std::equal(cols, cols + n, p.col + p.row_adr[run]);
}

// A run of rows starts at a quadratic row `first` and takes each later
// quadratic row with its columns (has_columns_of), in row order, until a
// quadratic row without them, where the next run starts. next_quadratic
// walks it: the first quadratic row after row i (or nefc), with `chained`
// kept saying whether every row since `first` joins the row before.
int next_quadratic(const ConstraintProblem& p, const RowState* state, int i, bool& chained) {
  for (++i; i < p.nefc; ++i) {
    chained = chained && same_columns_as_previous(p, i);
    if (state[i] == RowState::kQuadratic) break;
  }
  return i;
}

// Whether quadratic row i (or nefc) goes on with the run from `first`.
bool in_run(const ConstraintProblem& p, int i, int first, bool chained) {
  return i < p.nefc && has_columns_of(p, i, first, chained);
}

// Four doubles, one AVX register (two SSE2 registers without AVX).
using Vector4 = double __attribute__((vector_size(32)));

// The run from `first` over 6 columns (one free body's: a box's contacts
// with the floor), its sums held in registers across the rows: row a of
// the triangle, columns 0-3, in low[a] (the columns past a are summed too,
// and never read), columns 4-5 of rows 4 and 5 in high. Each entry b <= a
// takes the products add_outer_product takes (zeros included, which
// change no sum), in the same order; the packed triangle is written to
// `block` at the end. Returns where the next run starts.
int sum_run_of_six(const ConstraintProblem& p, const RowState* state, int first, double* block) {
  Vector4 low[6] = {}, high[2] = {};
  bool chained = true;
  int i = first;
  do {
    const double* jac = p.J + p.row_adr[i];
    const double d = p.D[i];
    Vector4 jac_low;
    std::memcpy(&jac_low, jac, sizeof jac_low);
    const Vector4 jac_high = {jac[4], jac[5], 0, 0};
#pragma GCC unroll 6
    for (int a = 0; a < 6; ++a) {
      const double da = d * jac[a];
      low[a] += da * jac_low;
      if (a >= 4) high[a - 4] += da * jac_high;
    }
    i = next_quadratic(p, state, i, chained);
  } while (in_run(p, i, first, chained));
#pragma GCC unroll 6
  for (int a = 0; a < 6; ++a) {
#pragma GCC unroll 6
    for (int b = 0; b <= a; ++b) *block++ = b < 4 ? low[a][b] : high[a - 4][b - 4];
  }
  return i;
}

// The same over 12 columns (two bodies': a contact between two boxes), in
// vectors of four on the stack: row a of the triangle in the a / 4 + 1
// vectors that reach its diagonal.
int sum_run_of_twelve(const ConstraintProblem& p, const RowState* state, int first, double* block) {
  // Row a's first vector: rows 0-3 take one vector each, 4-7 two, 8-11 three.
  constexpr int kStart[12] = {0, 1, 2, 3, 4, 6, 8, 10, 12, 15, 18, 21};
  Vector4 sum[24] = {};
  bool chained = true;
  int i = first;
  do {
    const double* jac = p.J + p.row_adr[i];
    const double d = p.D[i];
    Vector4 columns[3];
    std::memcpy(columns, jac, sizeof columns);
#pragma GCC unroll 12
    for (int a = 0; a < 12; ++a) {
      const double da = d * jac[a];
#pragma GCC unroll 3
      for (int v = 0; v <= a / 4; ++v) sum[kStart[a] + v] += da * columns[v];
    }
    i = next_quadratic(p, state, i, chained);
  } while (in_run(p, i, first, chained));
  for (int a = 0; a < 12; ++a) {
    for (int b = 0; b <= a; ++b) *block++ = sum[kStart[a] + b / 4][b % 4];
  }
  return i;
}

// The run from quadratic row `first`, its n columns' sums written to
// `block` as a packed lower triangle; returns where the next run starts.
int sum_run_rows(const ConstraintProblem& p, const RowState* state, int first, int n,
                 double* block) {
  if (n == 6) return sum_run_of_six(p, state, first, block);
  if (n == 12) return sum_run_of_twelve(p, state, first, block);
  std::fill_n(block, static_cast<size_t>(n) * (n + 1) / 2, 0.0);
  bool chained = true;
  int i = first;
  do {
    add_outer_product(n, p.D[i], p.J + p.row_adr[i], block);
    i = next_quadratic(p, state, i, chained);
  } while (in_run(p, i, first, chained));
  return i;
}

// H(a, b) += D J_a J_b over the quadratic rows, in row order. Consecutive
// rows over the same columns (a contact's pyramid edges, a weld's six rows,
// every row of the dense layout) form a run (next_quadratic): their products are
// summed in a packed lower triangle of the run's columns, contiguous, and
// the sum is added once to the entries of H the run reaches (found once for
// the run).
template <class Factor>
void add_rows(const ConstraintProblem& p, const RowState* state, const int* position,
              std::vector<int>& slots, std::vector<double*>& entries, std::vector<double>& block,
              Factor& h) {
  for (int i = 0; i < p.nefc;) {
    if (state[i] != RowState::kQuadratic) {
      ++i;
      continue;
    }
    const int adr = p.row_adr[i], n = p.row_nnz[i];
    slots.resize(n);
    entries.resize(static_cast<size_t>(n) * (n + 1) / 2);
    for (int a = 0; a < n; ++a) slots[a] = slot(position, p.col[adr + a]);
    locate_entries(h, slots.data(), n, entries.data());
    block.resize(entries.size());
    i = sum_run_rows(p, state, i, n, block.data());
    for (size_t e = 0; e < entries.size(); ++e) *entries[e] += block[e];
  }
}

// Entry (i, j) of H, i >= j, for threads side by side (each with its own
// `offset`).
double& entry(EnvelopeCholesky& h, int i, int j, BlockCholesky::Offset&) { return h.at(i, j); }
double& entry(BlockCholesky& h, int i, int j, BlockCholesky::Offset& offset) {
  return h.at(i, j, offset);
}

void clear_values(EnvelopeCholesky& h, ParallelLoop*) { h.clear_values(); }
void clear_values(BlockCholesky& h, ParallelLoop* loop) { h.clear_values(loop); }

// add_rows on the problem's parallel loop, with the same sums: the runs'
// first rows are found by row chunks, each run's block is summed over its
// rows in order and the entries of H it reaches are found (runs shared
// among the threads, blocks kept side by side), then the blocks are added
// to H in row order, as add_rows adds them. (Adding by slices of H's
// columns side by side had every slice scan every run's entries: on two
// threads it took longer than add_rows on one.)
template <class Factor>
void add_rows_in_parallel(const ConstraintProblem& p, SolverWorkspace& w, const int* position,
                          Factor& h) {
  const RowState* state = w.state.data();
  const auto quadratic = [state](int i) { return state[i] == RowState::kQuadratic; };
  const auto columns = [&p](int i) { return p.col + p.row_adr[i]; };
  grow(w.run_first, p.nefc);
  unsigned char* first = w.run_first.data();
  for_row_chunks(p, [&](int, int begin, int end, int) {
    int previous = begin - 1;
    while (previous >= 0 && !quadratic(previous)) --previous;
    bool chained = false;  // every row since `previous` joins the row before
    for (int i = begin; i < end; ++i) {
      chained = chained && same_columns_as_previous(p, i);
      first[i] = 0;
      if (!quadratic(i)) continue;
      first[i] = previous < 0 || !has_columns_of(p, i, previous, chained);
      previous = i;
      chained = true;
    }
  });
  w.runs.clear();
  w.run_block.clear();
  size_t size = 0;
  for (int i = 0; i < p.nefc; ++i) {
    if (!first[i]) continue;
    w.runs.push_back(i);
    w.run_block.push_back(size);
    size += static_cast<size_t>(p.row_nnz[i]) * (p.row_nnz[i] + 1) / 2;
  }
  const int count = static_cast<int>(w.runs.size());
  grow(w.run_blocks, size);
  grow(w.run_entries, size);
  // The blocks are added by owners, one a thread, each owning a range of
  // H's storage (cut at diagonal entries): each task lists its entries by
  // owner as it finds them.
  const int threads = p.parallel->threads();
  const int tasks = std::min(count, 8 * threads);
  grow(w.owner_bounds, threads + 1);
  const double** bounds = w.owner_bounds.data();
  {
    BlockCholesky::Offset offset;
    for (int t = 1; t < threads; ++t) {
      const int diagonal = slice_begin(p.nv, t, threads);
      bounds[t] = &entry(h, diagonal, diagonal, offset);
    }
  }
  std::vector<std::vector<int>>& owned = w.owned_entries.value;
  if (static_cast<int>(owned.size()) < tasks * threads) owned.resize(tasks * threads);
  parallel_for(p.parallel, tasks, [&](int t, int) {
    BlockCholesky::Offset offset;
    for (int o = 0; o < threads; ++o) owned[t * threads + o].clear();
    const int end = slice_begin(count, t + 1, tasks);
    for (int r = slice_begin(count, t, tasks); r < end; ++r) {
      const int n = p.row_nnz[w.runs[r]];
      const int* cols = columns(w.runs[r]);
      double* block = w.run_blocks.data() + w.run_block[r];
      double** at = w.run_entries.data() + w.run_block[r];
      int e = static_cast<int>(w.run_block[r]);
      for (int a = 0; a < n; ++a) {
        const int sa = slot(position, cols[a]);
        for (int b = 0; b <= a; ++b) {
          const int sb = slot(position, cols[b]);
          const double* target = *at++ = &entry(h, std::max(sa, sb), std::min(sa, sb), offset);
          int o = 0;
          while (o + 1 < threads && !std::less<const double*>()(target, bounds[o + 1])) ++o;
          owned[t * threads + o].push_back(e++);
        }
      }
      sum_run_rows(p, state, w.runs[r], n, block);
    }
  });
  // Each owner adds its entries' blocks in row order (tasks in order), as
  // add_rows adds them.
  parallel_for(p.parallel, threads, [&](int o, int) {
    for (int t = 0; t < tasks; ++t) {
      for (const int e : owned[t * threads + o]) *w.run_entries[e] += w.run_blocks[e];
    }
  });
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
    if (tree.is_simple(i)) {
      add_entry(h, position, i, i, p.mass[address]);
      continue;
    }
    for (int j = i; j >= 0; j = tree.parent[j], ++address) {
      add_entry(h, position, i, j, p.mass[address]);
    }
  }
}

// The factor on the problem's threads where it can use them (the block
// factor's subtrees).
bool factor(EnvelopeCholesky& h, ParallelLoop*) { return h.factor(); }
bool factor(BlockCholesky& h, ParallelLoop* loop) { return h.factor(loop); }

const int* factor_positions(const SolverWorkspace& w) {
  if (w.hessian_blocks) return w.block_order.positions();
  return w.hessian_permuted ? w.hessian_order.positions() : nullptr;
}

// Builds H from scratch at the current states and factorises it.
template <class Factor>
void assemble_and_factor(const ConstraintProblem& p, SolverWorkspace& w, Factor& h) {
  const int* position = factor_positions(w);
  clear_values(h, p.parallel);
  add_mass(p, position, h);
  if (p.parallel && p.parallel->threads() > 1 && row_chunks(p.nefc) > 1) {
    add_rows_in_parallel(p, w, position, h);
  } else {
    add_rows(p, w.state.data(), position, w.hessian_slots, w.hessian_entries, w.hessian_block, h);
  }
  for (int c = 0; c < p.ncone; ++c) {
    if (w.state[p.cones[c].first_row] != RowState::kCone) continue;
    add_cone(p, p.cones[c], w.cone_hessian.data() + c * kMaxConeDim * kMaxConeDim, position,
             w.cone_product, h);
  }
  if (!factor(h, p.parallel)) {
    // Not positive definite in floating point: fall back to M alone, whose
    // tree factor always exists (the direction is then a PCG one).
    h.clear_values();
    add_mass(p, position, h);
    factor(h, p.parallel);
  }
}

void assemble_and_factor(const ConstraintProblem& p, SolverWorkspace& w) {
  if (w.hessian_blocks) {
    assemble_and_factor(p, w, w.block_hessian);
  } else {
    assemble_and_factor(p, w, w.hessian);
  }
}

// One tree is laid out leaves first when M's pattern then fills less than
// this share of the lower triangle.
constexpr double kLeavesFirstFill = 0.75;

// Below this many trees the envelope is never beaten by much.
constexpr int kMinBlockTrees = 8;

}  // namespace

void build_hessian(const ConstraintProblem& p, SolverWorkspace& w) {
  // Envelope: dense, or (in the tree ordering) the union of M's ancestor
  // rows and every row's column span (rows in any state, so updates never
  // leave it).
  EnvelopeCholesky& h = w.hessian;
  h.begin_pattern(p.nv);
  // One tree (a robot, or an island of one body) is stored as the dense
  // square: in its own order (no ordering, no permuting), or leaves first
  // where that keeps most of M's zeros (a humanoid: 243 entries of 378),
  // which the factor keeps and the dense loops skip (tree_ordering.h). A
  // chain has no zeros to keep, a walker few (36 of 45): not worth the
  // permuting.
  const bool one_tree = p.mass_tree.is_one_tree();
  const bool leaves_first = [&] {
    if (!one_tree) return false;
    const double entries = w.hessian_order.leaves_first_entries(p.mass_tree.parent, 0, p.nv);
    return entries > 0 && entries < kLeavesFirstFill * 0.5 * p.nv * (p.nv + 1.0);
  }();
  w.hessian_permuted = !p.dense_hessian && (!one_tree || leaves_first);
  if (p.dense_hessian || one_tree) {
    if (w.hessian_permuted) w.hessian_order.compute(p);
    h.make_dense();
  } else {
    w.hessian_order.compute(p);
    const int* position = w.hessian_order.positions();
    for (int i = 0; i < p.nv; ++i) h.widen(position[i], w.hessian_order.envelope_start(i));
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

void solve_hessian(const ConstraintProblem& p, SolverWorkspace& w, double* x) {
  if (w.hessian_blocks) {
    w.hessian_rhs.resize(w.block_hessian.size());
    w.block_order.to_factor(x, w.hessian_rhs.data());
    w.block_hessian.solve(w.hessian_rhs.data(), p.parallel);
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
HessianChange plan_hessian_update(const ConstraintProblem& p, SolverWorkspace& w) {
  // The rows changing, listed once: entering from the front of `changed`,
  // leaving from its back, each in row order. By row chunks (on the
  // problem's loop): each chunk counts its rows, then lists them from
  // where the chunks before it end (one chunk lists them as it counts).
  int* changed = w.changed_rows.data();
  const int chunks = row_chunks(p.nefc);
  struct ChunkChanges {
    int entering, leaving;
    // A rebuild assembles J^T D J over the quadratic rows before it
    // factors: nnz (nnz + 1) / 2 products a row (sums of whole numbers
    // and halves: exact in any order).
    double assembly_work;
    bool rebuild;  // an elliptic cone in its middle zone or changing
  };
  ChunkChanges counted[kMaxRowChunks];  // set by the chunks in use
  const RowState* state = w.state.data();
  const RowState* old_state = w.old_state.data();
  const auto quadratic = [](RowState s) { return s == RowState::kQuadratic; };
  // Rows [begin, end) counted into k, and listed from `front` and `back`
  // when kList.
  const auto scan = [&]<bool kList>(std::bool_constant<kList>, int begin, int end, ChunkChanges& k,
                                    int front, int back) {
    for (int i = begin; i < end; ++i) {
      if (quadratic(state[i])) k.assembly_work += 0.5 * p.row_nnz[i] * (p.row_nnz[i] + 1.0);
      if (p.type[i] == RowType::kContactElliptic) {
        k.rebuild = k.rebuild || state[i] == RowState::kCone || state[i] != old_state[i];
        continue;
      }
      const bool was = quadratic(old_state[i]), is = quadratic(state[i]);
      if (was == is) continue;
      if (is) {
        if (kList) changed[front + k.entering] = i;
        ++k.entering;
      } else {
        if (kList) changed[back - k.leaving] = i;
        ++k.leaving;
      }
    }
  };
  if (chunks == 1) {
    counted[0] = ChunkChanges{};
    scan(std::true_type{}, 0, p.nefc, counted[0], 0, p.nefc - 1);
  } else {
    for_row_chunks(p, [&](int c, int begin, int end, int) {
      counted[c] = ChunkChanges{};
      scan(std::false_type{}, begin, end, counted[c], 0, 0);
    });
  }
  int entering = 0, leaving = 0;
  double assembly_work = 0;
  for (int c = 0; c < chunks; ++c) {
    if (counted[c].rebuild) return HessianChange::kRebuild;
    const ChunkChanges k = counted[c];
    counted[c].entering = entering;  // now where the chunk's rows go
    counted[c].leaving = leaving;
    entering += k.entering;
    leaving += k.leaving;
    assembly_work += k.assembly_work;
  }
  w.entering_rows = entering;
  w.leaving_rows = leaving;
  if (entering + leaving == 0) return HessianChange::kNone;
  if (chunks > 1) {
    for_row_chunks(p, [&](int c, int begin, int end, int) {
      ChunkChanges listed{};
      scan(std::true_type{}, begin, end, listed, counted[c].entering,
           p.nefc - 1 - counted[c].leaving);
    });
  }
  // An update touches at most the whole envelope: once the updates would
  // cost more than assembling and refactorising, rebuild.
  double update_work = (entering + leaving) * w.hessian.update_work();
  const double factor_work =
      assembly_work + (w.hessian_blocks ? w.block_hessian.factor_work() : w.hessian.factor_work());
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
  return update_work > factor_work ? HessianChange::kRebuild : HessianChange::kRankOne;
}

bool rank_one_updates(const ConstraintProblem& p, SolverWorkspace& w) {
  const int* changed = w.changed_rows.data();
  const int* position = factor_positions(w);
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
  for (int t = 0; t < w.entering_rows && ok; ++t) ok = rank_one(changed[t], false);
  for (int t = 0; t < w.leaving_rows && ok; ++t) ok = rank_one(changed[p.nefc - 1 - t], true);
  return ok;
}

bool rank_one_updates_beside(const ConstraintProblem& p, SolverWorkspace& w,
                             void (*beside)(void* context), void* context) {
  const int threads = p.parallel ? p.parallel->threads() : 1;
  if (!w.hessian_blocks || threads <= 1) {
    bool ok = true;
    parallel_for(p.parallel, 2, [&](int task, int) {
      if (task == 0) {
        ok = rank_one_updates(p, w);
      } else {
        beside(context);
      }
    });
    return ok;
  }
  // The vectors rank_one_updates would make, in its order.
  BlockCholesky::UpdateBatch& batch = w.update_batch;
  batch.clear();
  const int* position = factor_positions(w);
  const auto add = [&](int i, bool downdate) {
    const double scale = std::sqrt(p.D[i]);
    const int adr = p.row_adr[i];
    for (int k = 0; k < p.row_nnz[i]; ++k) {
      batch.index.push_back(slot(position, p.col[adr + k]));
      batch.value.push_back(scale * p.J[adr + k]);
    }
    batch.start.push_back(static_cast<int>(batch.index.size()));
    batch.downdate.push_back(downdate);
  };
  const int* changed = w.changed_rows.data();
  for (int t = 0; t < w.entering_rows; ++t) add(changed[t], false);
  for (int t = 0; t < w.leaving_rows; ++t) add(changed[p.nefc - 1 - t], true);
  w.block_hessian.begin_updates(batch, threads);
  // `beside` last: the loop's other threads claim from the back, so one
  // takes it while the caller starts the pipeline's first stage.
  parallel_for(p.parallel, threads + 1, [&](int task, int) {
    if (task == threads) {
      beside(context);
    } else {
      w.block_hessian.take_updates();
    }
  });
  return w.block_hessian.updates_ok();
}

void rebuild_hessian(const ConstraintProblem& p, SolverWorkspace& w) { assemble_and_factor(p, w); }

void update_hessian(const ConstraintProblem& p, SolverWorkspace& w) {
  switch (plan_hessian_update(p, w)) {
    case HessianChange::kNone:
      return;
    case HessianChange::kRankOne:
      if (rank_one_updates(p, w)) return;
      [[fallthrough]];
    case HessianChange::kRebuild:
      assemble_and_factor(p, w);
  }
}

}  // namespace pliant
