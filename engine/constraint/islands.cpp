#include "engine/constraint/islands.h"

#include <algorithm>
#include <atomic>

#include "engine/helped_loop.h"
#include "engine/thread_pool.h"
#include "solvers/group_sort.h"

namespace pliant {
namespace {

int find_root(std::vector<int>& parent, int t) {
  while (parent[t] != t) {
    parent[t] = parent[parent[t]];
    t = parent[t];
  }
  return t;
}

// One kinematic tree (a single robot) that some row reaches: one island of
// every dof and row, in their own order, as the general pass would find
// without its union-find over every row's columns.
bool one_tree_island(const ConstraintProblem& p, IslandScratch& s) {
  const int nv = p.nv, nefc = p.nefc;
  if (!p.mass_tree.is_one_tree()) return false;
  bool reached = false;
  for (int i = 0; i < nefc && !reached; ++i) {
    const int adr = p.row_adr[i];
    for (int k = 0; k < p.row_nnz[i] && !reached; ++k) {
      reached = !p.dense_hessian || p.J[adr + k] != 0;
    }
  }
  if (!reached) return false;
  s.island_of_row.assign(nefc, 0);
  s.island_of_dof.assign(nv, 0);
  s.dof_order.resize(nv);
  for (int k = 0; k < nv; ++k) s.dof_order[k] = k;
  s.row_order.resize(nefc);
  for (int i = 0; i < nefc; ++i) s.row_order[i] = i;
  s.dof_start.assign({0, nv});
  s.row_start.assign({0, nefc});
  return true;
}

int find_new_islands(const ConstraintProblem& p, IslandScratch& s) {
  const int nv = p.nv, nefc = p.nefc;
  // A tree is named by its root dof.
  s.tree_of_dof.resize(nv);
  for (int k = 0; k < nv; ++k) {
    const int parent = p.mass_tree.parent[k];
    s.tree_of_dof[k] = parent < 0 ? k : s.tree_of_dof[parent];
  }
  if (one_tree_island(p, s)) return 1;
  s.tree_parent.resize(nv);
  for (int k = 0; k < nv; ++k) s.tree_parent[k] = k;
  std::vector<int>& has_rows = s.tree_has_rows;
  has_rows.assign(nv, 0);
  // A sparse row over the columns of the row before it (a contact's other
  // pyramid edges or cone rows) joins the same trees.
  const auto repeats_previous = [&p](int i) {
    return !p.dense_hessian && same_columns_as_previous(p, i);
  };
  for (int i = 0; i < nefc; ++i) {
    if (repeats_previous(i)) continue;
    int first = -1, last_tree = -1;
    const int adr = p.row_adr[i];
    for (int k = 0; k < p.row_nnz[i]; ++k) {
      // Dense rows (small models) list every dof: only non-zeros couple.
      if (p.dense_hessian && p.J[adr + k] == 0) continue;
      // A tree's dofs are mostly adjacent columns: each run is joined once.
      if (s.tree_of_dof[p.col[adr + k]] == last_tree) continue;
      last_tree = s.tree_of_dof[p.col[adr + k]];
      const int tree = find_root(s.tree_parent, last_tree);
      has_rows[last_tree] = 1;
      if (first < 0) {
        first = tree;
      } else if (tree != first) {
        s.tree_parent[tree] = first;
      }
    }
  }
  // Islands numbered in the order of their first row.
  std::vector<int>& island_of_root = s.island_of_root;
  island_of_root.assign(nv, -1);
  s.island_of_row.assign(nefc, -1);
  int count = 0;
  for (int i = 0; i < nefc; ++i) {
    if (repeats_previous(i)) {
      s.island_of_row[i] = s.island_of_row[i - 1];
      continue;
    }
    const int adr = p.row_adr[i];
    for (int k = 0; k < p.row_nnz[i]; ++k) {
      if (p.dense_hessian && p.J[adr + k] == 0) continue;
      const int root = find_root(s.tree_parent, s.tree_of_dof[p.col[adr + k]]);
      if (island_of_root[root] < 0) island_of_root[root] = count++;
      s.island_of_row[i] = island_of_root[root];
      break;
    }
  }
  // A row whose Jacobian is zero on every dof (in the dense layout: a
  // friction direction no dof can move, as in a planar model) couples
  // nothing: it joins its cone's island (a cone's rows stay together) or
  // else the first island, where it changes no other row's answer.
  if (count > 0) {
    for (int c = 0; c < p.ncone; ++c) {
      const ConeGroup& cone = p.cones[c];
      int island = -1;
      for (int r = 0; r < cone.dim && island < 0; ++r) island = s.island_of_row[cone.first_row + r];
      for (int r = 0; r < cone.dim; ++r) s.island_of_row[cone.first_row + r] = std::max(island, 0);
    }
    for (int i = 0; i < nefc; ++i) s.island_of_row[i] = std::max(s.island_of_row[i], 0);
  }
  s.island_of_dof.assign(nv, -1);
  for (int k = 0; k < nv; ++k) {
    const int tree = s.tree_of_dof[k];
    if (has_rows[tree]) s.island_of_dof[k] = island_of_root[find_root(s.tree_parent, tree)];
  }
  sort_by_group(s.island_of_dof, nv, count, s.dof_order, s.dof_start, s.next);
  sort_by_group(s.island_of_row, nefc, count, s.row_order, s.row_start, s.next);
  return count;
}

}  // namespace

int find_islands(const ConstraintProblem& p, IslandScratch& s) {
  if (s.pattern.repeats_or_keep(p)) return s.kept_count;
  s.kept_count = find_new_islands(p, s);
  return s.kept_count;
}

namespace {

// Copies a row's n columns and values, the usual lengths unrolled (see
// with_row_length).
template <int N>
void copy_row(const int* __restrict cols, const double* __restrict jac, int* __restrict to_col,
              double* __restrict to_jac) {
#pragma GCC unroll 12
  for (int k = 0; k < N; ++k) to_col[k] = cols[k];
#pragma GCC unroll 12
  for (int k = 0; k < N; ++k) to_jac[k] = jac[k];
}

void copy_row(int n, const int* __restrict cols, const double* __restrict jac,
              int* __restrict to_col, double* __restrict to_jac) {
  if (n == 6) return copy_row<6>(cols, jac, to_col, to_jac);
  if (n == 12) return copy_row<12>(cols, jac, to_col, to_jac);
  for (int k = 0; k < n; ++k) {
    to_col[k] = cols[k];
    to_jac[k] = jac[k];
  }
}

// An island's tree, renumbered: its size in M's entries and M's trace.
struct IslandTree {
  int mass_entries = 0;
  double trace = 0;
};

// The island's n dofs (in global order) numbered in s.local_dof, with
// their parents, depths and where each row of M starts (row j's columns:
// j, then its ancestors) in `q`; q.mass_column is sized, and filled by
// fill_mass_column.
IslandTree island_tree(const ConstraintProblem& whole, IslandScratch& s, const int* dofs, int n,
                       IslandProblem& q) {
  grow(q.parent, n);
  grow(q.address, n + 1);
  grow(q.depth, n);
  IslandTree tree;
  for (int j = 0; j < n; ++j) {
    const int k = dofs[j];
    s.local_dof[k] = j;
    const int parent = whole.mass_tree.parent[k];
    q.parent[j] = parent < 0 ? -1 : s.local_dof[parent];
    q.depth[j] = q.parent[j] < 0 ? 0 : q.depth[q.parent[j]] + 1;
    q.address[j] = tree.mass_entries;
    tree.mass_entries += q.depth[j] + 1;
    tree.trace += whole.mass[whole.mass_tree.address[k]];
  }
  q.address[n] = tree.mass_entries;
  grow(q.mass_column, tree.mass_entries);
  return tree;
}

// Row j of M's columns: j, then its ancestors.
void fill_mass_column(IslandProblem& q, int j) {
  int* column = q.mass_column.data() + q.address[j];
  for (int t = 0, d = j; t <= q.depth[j]; ++t, d = q.parent[d]) column[t] = d;
}

// `whole` cut to the island's n dofs and m rows: its tree (from
// island_tree), its size, loop and scale; the caller points the arrays.
ConstraintProblem island_problem(const ConstraintProblem& whole, const IslandProblem& q, int n,
                                 int m, const IslandTree& tree, const int* simple,
                                 ParallelLoop* parallel) {
  ConstraintProblem p = whole;
  p.nv = n;
  p.nefc = m;
  p.mass_tree = {n,     q.parent.data(), q.address.data(), q.mass_column.data(), tree.mass_entries,
                 simple};
  p.parallel = parallel;
  p.scale = 1 / tree.trace;
  p.force_start = nullptr;
  return p;
}

// Whether island g's dofs and rows are each a contiguous range of the
// whole problem's, in a layout view_island can point into: sparse rows, no
// elliptic cones, and a first row that does not join the row before it.
// One body's island usually is: its dofs are its tree's, its rows a geom
// pair's contacts, one after another.
bool contiguous_island(const ConstraintProblem& whole, const IslandScratch& s, int g) {
  if (whole.dense_hessian || whole.ncone > 0 || !whole.joins_previous) return false;
  const int n = s.dof_start[g + 1] - s.dof_start[g];
  const int m = s.row_start[g + 1] - s.row_start[g];
  if (n == 0 || m == 0) return false;
  const int* dofs = s.dof_order.data() + s.dof_start[g];
  const int* rows = s.row_order.data() + s.row_start[g];
  return dofs[n - 1] - dofs[0] == n - 1 && rows[m - 1] - rows[0] == m - 1 &&
         !whole.joins_previous[rows[0]];
}

// Island g's problem when contiguous_island holds: the problem
// gather_island would build, value for value, with its arrays pointing
// into the whole problem's instead of copied. Only the tree's structure
// (parents, row addresses, M's columns) and J's columns are renumbered,
// into `q`; J's columns keep the whole problem's addresses (q.col grows to
// reach them).
ConstraintProblem view_island(const ConstraintProblem& whole, IslandScratch& s, int g,
                              IslandProblem& q, ParallelLoop* parallel) {
  const int n = s.dof_start[g + 1] - s.dof_start[g];
  const int first_dof = s.dof_order[s.dof_start[g]];
  const IslandTree tree = island_tree(whole, s, s.dof_order.data() + s.dof_start[g], n, q);
  for (int j = 0; j < n; ++j) fill_mass_column(q, j);

  const int m = s.row_start[g + 1] - s.row_start[g];
  const int first_row = s.row_order[s.row_start[g]];
  const int* col = whole.col;
  if (first_dof > 0) {
    // One pass over the span of the rows' entries (entries of other rows
    // inside it are renumbered too, and never read).
    int begin = whole.row_adr[first_row], end = begin;
    for (int i = first_row; i < first_row + m; ++i) {
      begin = std::min(begin, whole.row_adr[i]);
      end = std::max(end, whole.row_adr[i] + whole.row_nnz[i]);
    }
    grow(q.col, end);
    int* __restrict to = q.col.data();
    const int* __restrict from = whole.col;
    for (int e = begin; e < end; ++e) to[e] = from[e] - first_dof;
    col = q.col.data();
  }

  // M's rows of the island's dofs lie one after another from its first
  // dof's, as the island's own rows would (every ancestor is in the island).
  const int mass_start = whole.mass_tree.address[first_dof];
  const double* start = whole.qacc_start ? whole.qacc_start : whole.qacc_smooth;
  ConstraintProblem p = island_problem(
      whole, q, n, m, tree, whole.mass_tree.simple ? whole.mass_tree.simple + first_dof : nullptr,
      parallel);
  p.mass = whole.mass + mass_start;
  p.mass_factor = whole.mass_factor + mass_start;
  p.mass_inverse_diagonal = whole.mass_inverse_diagonal + first_dof;
  p.qacc_smooth = whole.qacc_smooth + first_dof;
  p.qfrc_smooth = whole.qfrc_smooth + first_dof;
  p.row_nnz = whole.row_nnz + first_row;
  p.row_adr = whole.row_adr + first_row;
  p.col = col;
  p.type = whole.type + first_row;
  p.R = whole.R + first_row;
  p.D = whole.D + first_row;
  p.aref = whole.aref + first_row;
  p.frictionloss = whole.frictionloss + first_row;
  p.cone_of_row = whole.cone_of_row ? whole.cone_of_row + first_row : nullptr;
  p.cones = nullptr;
  p.ncone = 0;
  p.joins_previous = whole.joins_previous + first_row;
  p.qacc_start = start + first_dof;
  p.jar_start = whole.jar_start ? whole.jar_start + first_row : nullptr;
  p.ma_start = whole.ma_start ? whole.ma_start + first_dof : nullptr;
  return p;
}

// Gathers island g of `whole` into `q` and returns its problem (pointing
// into `q`), which runs its passes over rows on `parallel` (nullptr: this
// thread). local_dof must hold -1 at the island's dofs; it is left holding
// their indices within the island.
ConstraintProblem gather_island(const ConstraintProblem& whole, IslandScratch& s, int g,
                                IslandProblem& q, ParallelLoop* parallel) {
  const double* start = whole.qacc_start ? whole.qacc_start : whole.qacc_smooth;
  // The island's dofs, in global order, with their rows of M and its factor.
  const int n = s.dof_start[g + 1] - s.dof_start[g];
  const int* dofs = s.dof_order.data() + s.dof_start[g];
  if (whole.mass_tree.simple) grow(q.simple, n);
  grow(q.mass_inverse_diagonal, n);
  grow(q.qacc_smooth, n);
  grow(q.qfrc_smooth, n);
  grow(q.qacc_start, n);
  if (whole.ma_start) grow(q.ma_start, n);
  const IslandTree tree = island_tree(whole, s, dofs, n, q);
  const int mass_entries = tree.mass_entries;
  grow(q.mass, mass_entries);
  grow(q.mass_factor, mass_entries);
  // Each dof's rows of M and of its factor, and its vectors' entries, by
  // chunks of dofs (on `parallel`).
  const int dof_chunks = row_chunks(n);
  parallel_for(parallel, dof_chunks, [&](int c, int) {
    const int end = slice_begin(n, c + 1, dof_chunks);
    for (int j = slice_begin(n, c, dof_chunks); j < end; ++j) {
      const int k = dofs[j];
      const int adr = whole.mass_tree.address[k], count = q.depth[j] + 1;
      fill_mass_column(q, j);
      std::copy_n(whole.mass + adr, count, q.mass.data() + q.address[j]);
      std::copy_n(whole.mass_factor + adr, count, q.mass_factor.data() + q.address[j]);
      if (whole.mass_tree.simple) q.simple[j] = whole.mass_tree.simple[k];
      q.mass_inverse_diagonal[j] = whole.mass_inverse_diagonal[k];
      q.qacc_smooth[j] = whole.qacc_smooth[k];
      q.qfrc_smooth[j] = whole.qfrc_smooth[k];
      q.qacc_start[j] = start[k];
      if (whole.ma_start) q.ma_start[j] = whole.ma_start[k];
    }
  });

  // The island's rows, in global order, with their columns renumbered.
  const int m = s.row_start[g + 1] - s.row_start[g];
  const int* rows = s.row_order.data() + s.row_start[g];
  grow(q.row_nnz, m);
  grow(q.row_adr, m);
  size_t entries = 0;
  for (int r = 0; r < m; ++r) entries += whole.row_nnz[rows[r]];
  grow(q.col, entries);
  grow(q.J, entries);
  grow(q.type, m);
  grow(q.R, m);
  grow(q.D, m);
  grow(q.aref, m);
  if (whole.jar_start) grow(q.jar_start, m);
  grow(q.frictionloss, m);
  grow(q.cone_of_row, m);
  grow(q.joined, m);
  // Where each row's entries go: a sparse row keeps all of them, a dense
  // row (it lists every dof) only its island's.
  int filled = 0;
  for (int r = 0; r < m; ++r) {
    const int i = rows[r];
    q.row_adr[r] = filled;
    int kept = whole.row_nnz[i];
    if (whole.dense_hessian) {
      const int adr = whole.row_adr[i];
      kept = 0;
      for (int k = 0; k < whole.row_nnz[i]; ++k) kept += s.island_of_dof[whole.col[adr + k]] == g;
    }
    q.row_nnz[r] = kept;
    filled += kept;
  }
  // The rows' entries and values, by chunks of rows (on `parallel`).
  const int chunks = row_chunks(m);
  const bool dense = whole.dense_hessian;
  parallel_for(parallel, chunks, [&](int c, int) {
    const int begin = slice_begin(m, c, chunks), end = slice_begin(m, c + 1, chunks);
    for (int r = begin; r < end; ++r) {
      const int i = rows[r];
      const int adr = whole.row_adr[i], nnz = whole.row_nnz[i];
      const int* cols = whole.col + adr;
      const double* jac = whole.J + adr;
      int* __restrict to_col = q.col.data() + q.row_adr[r];
      double* __restrict to_jac = q.J.data() + q.row_adr[r];
      if (dense) {
        for (int k = 0; k < nnz; ++k) {
          if (s.island_of_dof[cols[k]] != g) continue;
          *to_col++ = s.local_dof[cols[k]];
          *to_jac++ = jac[k];
        }
      } else if (r > begin && rows[r - 1] == i - 1 && whole.joins_previous &&
                 whole.joins_previous[i]) {
        // A contact's next row: the renumbered columns of the row before.
        copy_row(nnz, q.col.data() + q.row_adr[r - 1], jac, to_col, to_jac);
      } else {
        for (int k = 0; k < nnz; ++k) {
          to_col[k] = s.local_dof[cols[k]];
          to_jac[k] = jac[k];
        }
      }
      q.type[r] = whole.type[i];
      q.R[r] = whole.R[i];
      q.D[r] = whole.D[i];
      q.aref[r] = whole.aref[i];
      if (whole.jar_start) q.jar_start[r] = whole.jar_start[i];
      q.frictionloss[r] = whole.frictionloss[i];
      q.cone_of_row[r] = -1;
    }
  });
  // Rows over the previous row's columns, once every row's are in place: a
  // sparse row next to its neighbour in the whole problem has its columns
  // as it had there (renumbered alike); others are compared.
  parallel_for(parallel, chunks, [&](int c, int) {
    const int end = slice_begin(m, c + 1, chunks);
    for (int r = slice_begin(m, c, chunks); r < end; ++r) {
      const int i = rows[r];
      if (!whole.dense_hessian && whole.joins_previous && r > 0 && rows[r - 1] == i - 1) {
        q.joined[r] = whole.joins_previous[i];
      } else {
        q.joined[r] =
            r > 0 && q.row_nnz[r] == q.row_nnz[r - 1] &&
            std::equal(q.col.begin() + q.row_adr[r], q.col.begin() + q.row_adr[r] + q.row_nnz[r],
                       q.col.begin() + q.row_adr[r - 1]);
      }
    }
  });
  // Cones, renumbered in row order.
  q.cones.clear();
  if (whole.ncone > 0) {
    for (int r = 0; r < m; ++r) {
      const int i = rows[r];
      const int cone = whole.cone_of_row[i];
      if (cone < 0) continue;
      if (whole.cones[cone].first_row == i) {
        ConeGroup group = whole.cones[cone];
        group.first_row = r;
        q.cones.push_back(group);
      }
      q.cone_of_row[r] = static_cast<int>(q.cones.size()) - 1;
    }
  }

  ConstraintProblem p = island_problem(
      whole, q, n, m, tree, whole.mass_tree.simple ? q.simple.data() : nullptr, parallel);
  p.mass = q.mass.data();
  p.mass_factor = q.mass_factor.data();
  p.mass_inverse_diagonal = q.mass_inverse_diagonal.data();
  p.qacc_smooth = q.qacc_smooth.data();
  p.qfrc_smooth = q.qfrc_smooth.data();
  p.row_nnz = q.row_nnz.data();
  p.row_adr = q.row_adr.data();
  p.col = q.col.data();
  p.J = q.J.data();
  p.type = q.type.data();
  p.R = q.R.data();
  p.D = q.D.data();
  p.aref = q.aref.data();
  p.frictionloss = q.frictionloss.data();
  p.cone_of_row = q.cone_of_row.data();
  p.cones = q.cones.data();
  p.ncone = static_cast<int>(q.cones.size());
  p.joins_previous = q.joined.data();
  p.qacc_start = q.qacc_start.data();
  // The start's J a - aref and M a: the whole problem's, row by row and
  // dof by dof (an island's rows and M's rows lie within it).
  p.jar_start = whole.jar_start ? q.jar_start.data() : nullptr;
  p.ma_start = whole.ma_start ? q.ma_start.data() : nullptr;
  return p;
}

}  // namespace

void solve_by_island(const ConstraintProblem& whole, IslandScratch& s, SolverWorkspace& w,
                     void (*solve)(const ConstraintProblem&, SolverWorkspace&), ThreadPool& pool) {
  const int nv = whole.nv, nefc = whole.nefc;
  const int count = static_cast<int>(s.dof_start.size()) - 1;
  if (count == 1 && s.dof_start[1] == nv && s.row_start[1] == nefc) {
    // One island holding every dof and row (a pile): the whole problem as it
    // is, with the island's scale; gathering would copy it unchanged.
    double trace = 0;
    for (int k = 0; k < nv; ++k) trace += whole.mass[whole.mass_tree.address[k]];
    ConstraintProblem p = whole;
    p.scale = 1 / trace;
    p.qacc_start = whole.qacc_start ? whole.qacc_start : whole.qacc_smooth;
    p.force_start = nullptr;
    solve(p, w);
    return;
  }
  SolverResult& out = s.result;
  out.qacc.assign(whole.qacc_smooth, whole.qacc_smooth + nv);
  out.qfrc_constraint.assign(nv, 0.0);
  out.force.assign(nefc, 0.0);
  s.local_dof.assign(nv, -1);
  if (static_cast<int>(s.island_statistics.value.size()) < count)
    s.island_statistics.value.resize(count);
  // On several threads the largest islands are taken first, so that the
  // last one taken is small. Islands have disjoint dofs and rows: each
  // writes its own entries of local_dof and of the result.
  const int all_threads = whole.parallel ? whole.parallel->threads() : 1;
  grow(s.task_island, count);
  for (int g = 0; g < count; ++g) s.task_island[g] = g;
  auto rows_of = [&s](int g) { return s.row_start[g + 1] - s.row_start[g]; };
  if (all_threads > 1) {
    if (static_cast<int>(s.workers.value.size()) < all_threads - 1) {
      s.workers.value.resize(all_threads - 1);
    }
    std::stable_sort(s.task_island.begin(), s.task_island.begin() + count,
                     [&](int a, int b) { return rows_of(a) > rows_of(b); });
  }
  // Island g in the memory of `role` (0: the caller's), its passes over
  // rows and columns on `parallel`.
  auto solve_island = [&](int g, int role, ParallelLoop* parallel, HelpedLoop* pause_for) {
    IslandProblem& q = role == 0 ? s.problem : s.workers.value[role - 1].problem;
    SolverWorkspace& ws = role == 0 ? w : s.workers.value[role - 1].solver;
    ConstraintProblem p = contiguous_island(whole, s, g) ? view_island(whole, s, g, q, parallel)
                                                         : gather_island(whole, s, g, q, parallel);
    // A helper's island pauses between iterations for the large island's
    // open loop, which holds up every thread when it waits.
    struct Pause {
      HelpedLoop* loop;
      int role;
    } pause{pause_for, role};
    if (pause_for) {
      p.pause = [](void* context) {
        const Pause& it = *static_cast<Pause*>(context);
        it.loop->help(it.role);
      };
      p.pause_context = &pause;
    }
    solve(p, ws);
    const SolverResult& r = ws.result;
    const int* dofs = s.dof_order.data() + s.dof_start[g];
    const int n = s.dof_start[g + 1] - s.dof_start[g];
    for (int j = 0; j < n; ++j) {
      out.qacc[dofs[j]] = r.qacc[j];
      out.qfrc_constraint[dofs[j]] = r.qfrc_constraint[j];
      s.local_dof[dofs[j]] = -1;
    }
    const int* rows = s.row_order.data() + s.row_start[g];
    const int m = s.row_start[g + 1] - s.row_start[g];
    for (int j = 0; j < m; ++j) out.force[rows[j]] = r.force[j];
    s.island_statistics.value[g] = r.statistics;
  };
  if (all_threads > 1 && row_chunks(rows_of(s.task_island[0])) > 1) {
    // The largest island is large enough for its passes to pay on several
    // threads (a pile): role 0 solves it on a loop the others help with
    // whenever they are between two of the other islands, which they take
    // largest first; role 0 joins them when it is done. Each role solves
    // in its own memory, whatever thread runs it.
    HelpedLoop loop(all_threads);
    std::atomic<int> next_island{1};
    pool.run(all_threads, all_threads, [&](int role, int) {
      if (role == 0) {
        struct Finish {
          HelpedLoop& loop;
          ~Finish() { loop.finish(); }
        } finish{loop};
        solve_island(s.task_island[0], 0, &loop, nullptr);
      }
      for (;;) {
        if (role > 0 && loop.help(role)) continue;
        const int k = next_island.fetch_add(1);
        if (k >= count) break;
        solve_island(s.task_island[k], role, nullptr, role > 0 ? &loop : nullptr);
      }
      if (role > 0) loop.help_until_finished(role);
    });
  } else {
    pool.run(std::min(all_threads, count), count, [&](int task, int worker) {
      solve_island(s.task_island[task], worker, nullptr, nullptr);
    });
  }

  SolverStatistics& stats = out.statistics;
  stats.iterations = 0;
  stats.converged = true;
  stats.final_improvement = stats.final_gradient = stats.cost = 0;
  stats.per_iteration.clear();
  for (int g = 0; g < count; ++g) {
    const SolverStatistics& island = s.island_statistics.value[g];
    stats.converged = stats.converged && island.converged;
    stats.cost += island.cost;
    if (g == 0 || island.iterations > stats.iterations) {
      stats.iterations = island.iterations;
      stats.final_improvement = island.final_improvement;
      stats.final_gradient = island.final_gradient;
      stats.per_iteration = island.per_iteration;
    }
  }
  std::swap(w.result, out);
}

}  // namespace pliant
