#include "solvers/primal_solver.h"

#include <algorithm>
#include <cmath>

#include "solvers/line_search.h"
#include "solvers/newton_hessian.h"
#include "solvers/row_length.h"
#include "solvers/workspace.h"

namespace pliant {

void SolverWorkspace::prepare(const ConstraintProblem& p) {
  const int nv = p.nv, nefc = p.nefc;
  const int threads = p.parallel ? p.parallel->threads() : 1;
  if (nv > grown_nv_ || nefc > grown_nefc_ || p.ncone > grown_ncone_ || threads > grown_threads_) {
    grow_arrays(p);
  }
  scratch_nv.resize(nv);
  result.qacc.resize(nv);
  result.force.resize(nefc);
  result.qfrc_constraint.resize(nv);
  SolverStatistics& s = result.statistics;
  s.iterations = 0;
  s.converged = false;
  s.final_improvement = 0;
  s.final_gradient = 0;
  s.cost = 0;
  s.per_iteration.clear();
  if (static_cast<int>(s.per_iteration.capacity()) < p.iterations) {
    s.per_iteration.reserve(p.iterations);
  }
}

void SolverWorkspace::grow_arrays(const ConstraintProblem& p) {
  const int nv = std::max(p.nv, grown_nv_), nefc = std::max(p.nefc, grown_nefc_);
  const int ncone = std::max(p.ncone, grown_ncone_);
  const int threads = std::max(p.parallel ? p.parallel->threads() : 1, grown_threads_);
  grown_nv_ = nv;
  grown_nefc_ = nefc;
  grown_ncone_ = ncone;
  grown_threads_ = threads;
  for (auto* v : {&ma, &grad, &mgrad, &search, &msearch, &grad_old, &mgrad_old, &gathered}) {
    grow(*v, nv);
  }
  std::vector<std::vector<double>>& gathered_by = worker_gathered.value;
  if (static_cast<int>(gathered_by.size()) < threads - 1) gathered_by.resize(threads - 1);
  for (int k = 0; k < threads - 1; ++k) grow(gathered_by[k], nv);
  for (auto* v : {&jar, &jv}) grow(*v, nefc);
  grow(live_rows, nefc);
  grow(changed_rows, nefc);
  grow(state, nefc);
  grow(old_state, nefc);
  grow(cone_hessian, static_cast<size_t>(ncone) * kMaxConeDim * kMaxConeDim);
  // Zero between updates (each rank-1 update leaves it zero).
  grow(rank_vector, nv);
}

namespace {

// Whether each row lists row i - 1's columns (a contact's pyramid rows, a
// weld's six): the problem's joins_previous, or else worked out here into
// w.joined; and run_end[i], the end of the run of rows from i that list row
// i's columns.
const unsigned char* find_row_runs(const ConstraintProblem& p, SolverWorkspace& w) {
  const unsigned char* joined = p.joins_previous;
  if (joined == nullptr) {
    w.joined.resize(p.nefc);
    for_row_chunks(p, [&](int, int begin, int end, int) {
      for (int i = begin; i < end; ++i) w.joined[i] = same_columns_as_previous(p, i);
    });
    joined = w.joined.data();
  }
  std::vector<int>& run_end = w.row_run_end;
  run_end.resize(p.nefc);
  for (int i = p.nefc - 1; i >= 0; --i) {
    run_end[i] = i + 1 < p.nefc && joined[i + 1] ? run_end[i + 1] : i + 1;
  }
  return joined;
}

int parallel_threads(const ConstraintProblem& p) { return p.parallel ? p.parallel->threads() : 1; }

// On several threads, J^T f is summed by column ranges, one a thread: the
// runs each range's columns appear in, listed once a solve (J is fixed).
void find_column_ranges(const ConstraintProblem& p, SolverWorkspace& w) {
  const int ranges = parallel_threads(p);
  w.range_column.resize(ranges + 1);
  for (int t = 0; t <= ranges; ++t) {
    w.range_column[t] = slice_begin(p.nv, t, ranges);
  }
  std::vector<std::vector<int>>& runs = w.range_runs.value;
  if (static_cast<int>(runs.size()) < ranges) runs.resize(ranges);
  for (int t = 0; t < ranges; ++t) runs[t].clear();
  auto range_of = [&](int column) {
    int t = static_cast<int>(static_cast<long long>(column) * ranges / std::max(p.nv, 1));
    while (t + 1 < ranges && w.range_column[t + 1] <= column) ++t;
    while (t > 0 && w.range_column[t] > column) --t;
    return t;
  };
  for (int i = 0; i < p.nefc; i = w.row_run_end[i]) {
    const int n = p.row_nnz[i];
    if (n == 0) continue;
    const int* cols = p.col + p.row_adr[i];
    const int last = range_of(cols[n - 1]);
    for (int t = range_of(cols[0]); t <= last; ++t) runs[t].push_back(i);
  }
}

// Whether J^T f goes by column ranges.
bool by_column_ranges(const ConstraintProblem& p) {
  return parallel_threads(p) > 1 && row_chunks(p.nefc) > 1;
}

double* worker_gathered(SolverWorkspace& w, int worker) {
  return worker == 0 ? w.gathered.data() : w.worker_gathered.value[worker - 1].data();
}

// y = J x over rows [begin, end), run by run (multiply_run: the same sums
// as problem_jacobian_multiply).
void multiply_rows(const ConstraintProblem& p, const int* run_end, double* gathered,
                   const double* x, double* y, int begin, int end) {
  for (int i = begin; i < end;) {
    const int stop = std::min(run_end[i], end);
    multiply_run(p, i, stop, x, gathered, y);
    i = stop;
  }
}

// y = J x, by row chunks.
void jacobian_multiply(const ConstraintProblem& p, SolverWorkspace& w, const double* x, double* y) {
  const int* run_end = w.row_run_end.data();
  if (row_chunks(p.nefc) == 1) {
    multiply_rows(p, run_end, w.gathered.data(), x, y, 0, p.nefc);
    return;
  }
  for_row_chunks(p, [&](int, int begin, int end, int worker) {
    multiply_rows(p, run_end, worker_gathered(w, worker), x, y, begin, end);
  });
}

// y = J^T f over one column range: the range's entries of each run, rows
// in order (each entry's sum in the same order as on one thread).
void jacobian_transpose_range(const ConstraintProblem& p, SolverWorkspace& w, int t,
                              const double* f, double* y) {
  const int first = w.range_column[t], past = w.range_column[t + 1];
  std::fill(y + first, y + past, 0.0);
  for (const int start : w.range_runs.value[t]) {
    const int end = w.row_run_end[start], n = p.row_nnz[start];
    const int* cols = p.col + p.row_adr[start];
    int k0 = 0;
    while (k0 < n && cols[k0] < first) ++k0;
    int k1 = k0;
    while (k1 < n && cols[k1] < past) ++k1;
    for (int i = start; i < end; ++i) {
      const double fi = f[i];
      if (fi == 0) continue;
      const double* jac = p.J + p.row_adr[i];
      for (int k = k0; k < k1; ++k) y[cols[k]] += jac[k] * fi;
    }
  }
}

// y = J^T f on this thread, a run's entries of y read and written once
// (each entry's sum in the same order as
// problem_jacobian_transpose_multiply).
void jacobian_transpose_rows(const ConstraintProblem& p, SolverWorkspace& w, const double* f,
                             double* y) {
  std::fill(y, y + p.nv, 0.0);
  double* gathered = w.gathered.data();
  for (int i = 0; i < p.nefc;) {
    const int end = w.row_run_end[i], n = p.row_nnz[i];
    const int* cols = p.col + p.row_adr[i];
    bool any = false;
    for (int r = i; r < end && !any; ++r) any = f[r] != 0;
    if (!any) {
      i = end;
      continue;
    }
    with_row_length(n, [&](auto length) {
      const int count = row_length<length>(n);
#pragma GCC unroll 12
      for (int k = 0; k < count; ++k) gathered[k] = y[cols[k]];
      for (; i < end; ++i) {
        const double fi = f[i];
        if (fi == 0) continue;
        const double* jac = p.J + p.row_adr[i];
#pragma GCC unroll 12
        for (int k = 0; k < count; ++k) gathered[k] += jac[k] * fi;
      }
#pragma GCC unroll 12
      for (int k = 0; k < count; ++k) y[cols[k]] = gathered[k];
    });
  }
}

// y = J^T f, by column ranges on several threads (the same sums).
void jacobian_transpose_multiply(const ConstraintProblem& p, SolverWorkspace& w, const double* f,
                                 double* y) {
  if (by_column_ranges(p)) {
    parallel_for(p.parallel, parallel_threads(p),
                 [&](int t, int) { jacobian_transpose_range(p, w, t, f, y); });
    return;
  }
  jacobian_transpose_rows(p, w, f, y);
}

double dot(const std::vector<double>& a, const std::vector<double>& b, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// States, forces and the total cost at the current a (Ma, jar given).
double evaluate_rows(const ConstraintProblem& p, SolverWorkspace& w, bool cone_hessians) {
  SolverResult& r = w.result;
  return gauss_cost(p, r.qacc.data(), w.ma.data()) +
         evaluate_constraints(p, w.jar.data(), w.state.data(), r.force.data(),
                              cone_hessians ? w.cone_hessian.data() : nullptr);
}

// grad = Ma - qfrc_smooth - qfrc_constraint (qfrc_constraint = J^T f given).
void finish_gradient(const ConstraintProblem& p, SolverWorkspace& w) {
  const SolverResult& r = w.result;
  for (int k = 0; k < p.nv; ++k) w.grad[k] = w.ma[k] - p.qfrc_smooth[k] - r.qfrc_constraint[k];
}

// evaluate_rows, then qfrc_constraint = J^T f and the gradient.
double update_constraints(const ConstraintProblem& p, SolverWorkspace& w, bool cone_hessians) {
  const double cost = evaluate_rows(p, w, cone_hessians);
  jacobian_transpose_multiply(p, w, w.result.force.data(), w.result.qfrc_constraint.data());
  finish_gradient(p, w);
  return cost;
}

// Newton's update_constraints. On several threads, when the new states
// call for rank-1 updates, they run beside J^T f, which then runs on one
// thread (the same sums in the same order: the same bits). The updates are
// then made before the iteration is known not to be the last, where
// update_hessian would wait for that; a last iteration's updates are
// thrown away with the factor (every solve builds its own), so the
// results are those of one thread. The serial updates were the largest
// part of a pile's step that left the other threads idle.
struct NewtonUpdate {
  double cost = 0;
  bool hessian_pending = true;  // update_hessian still to run
  bool rebuild = false;         // the factor must be rebuilt instead
};

NewtonUpdate update_constraints_and_hessian(const ConstraintProblem& p, SolverWorkspace& w) {
  NewtonUpdate u;
  if (!by_column_ranges(p)) {
    u.cost = update_constraints(p, w, true);
    return u;
  }
  u.cost = evaluate_rows(p, w, true);
  const HessianChange change = plan_hessian_update(p, w);
  if (change != HessianChange::kRankOne) {
    jacobian_transpose_multiply(p, w, w.result.force.data(), w.result.qfrc_constraint.data());
    finish_gradient(p, w);
    u.hessian_pending = false;
    u.rebuild = change == HessianChange::kRebuild;
    return u;
  }
  struct Beside {
    const ConstraintProblem& p;
    SolverWorkspace& w;
  } beside{p, w};
  const bool updated = rank_one_updates_beside(
      p, w,
      [](void* context) {
        const Beside& b = *static_cast<Beside*>(context);
        jacobian_transpose_rows(b.p, b.w, b.w.result.force.data(),
                                b.w.result.qfrc_constraint.data());
      },
      &beside);
  finish_gradient(p, w);
  u.hessian_pending = false;
  u.rebuild = !updated;
  return u;
}

// Mgrad = P^-1 grad.
void precondition(const ConstraintProblem& p, SolverWorkspace& w, PrimalMethod method) {
  std::copy_n(w.grad.begin(), p.nv, w.mgrad.begin());
  if (method == PrimalMethod::kNewton) {
    solve_hessian(p, w, w.mgrad.data());
  } else {
    problem_mass_solve(p, w.mgrad.data());
  }
}

}  // namespace

void solve_primal(const ConstraintProblem& given, SolverWorkspace& w, PrimalMethod method) {
  w.prepare(given);
  // Every later pass asks the rows' runs of these flags (worked out once).
  ConstraintProblem p = given;
  p.joins_previous = find_row_runs(given, w);
  if (by_column_ranges(p)) find_column_ranges(p, w);
  SolverResult& r = w.result;
  SolverStatistics& stats = r.statistics;
  const int nv = p.nv, nefc = p.nefc;
  const bool newton = method == PrimalMethod::kNewton;
  const double* start = p.qacc_start ? p.qacc_start : p.qacc_smooth;
  std::copy(start, start + nv, r.qacc.begin());

  // Initial point: Ma, jar = J a - aref, states, forces, gradient.
  if (p.ma_start && p.jar_start) {
    std::copy(p.ma_start, p.ma_start + nv, w.ma.begin());
    std::copy(p.jar_start, p.jar_start + nefc, w.jar.begin());
  } else {
    problem_mass_multiply(p, r.qacc.data(), w.ma.data());
    jacobian_multiply(p, w, r.qacc.data(), w.jar.data());
    for (int i = 0; i < nefc; ++i) w.jar[i] -= p.aref[i];
  }
  double cost = update_constraints(p, w, newton);
  if (newton) build_hessian(p, w);
  precondition(p, w, method);
  for (int k = 0; k < nv; ++k) w.search[k] = -w.mgrad[k];

  LineSearchInput line;
  line.problem = &p;
  line.jar = w.jar.data();
  line.jv = w.jv.data();
  line.live = w.live_rows.data();
  for (int iter = 0; iter < p.iterations; ++iter) {
    if (p.pause) p.pause(p.pause_context);
    // The 1-D problem along s: J s, M s and the Gauss coefficients
    // [0.5 (Ma - qfrc_smooth)^T (a - a0), s^T (Ma - qfrc_smooth), 0.5 s^T M s].
    problem_mass_multiply(p, w.search.data(), w.msearch.data());
    jacobian_multiply(p, w, w.search.data(), w.jv.data());
    double g1 = 0, g2 = 0;
    for (int k = 0; k < nv; ++k) {
      g1 += w.search[k] * (w.ma[k] - p.qfrc_smooth[k]);
      g2 += w.search[k] * w.msearch[k];
    }
    line.gauss[0] = gauss_cost(p, r.qacc.data(), w.ma.data());
    line.gauss[1] = g1;
    line.gauss[2] = 0.5 * g2;
    line.search_norm = std::sqrt(dot(w.search, w.search, nv));
    const LineSearchResult step = exact_line_search(line);
    if (step.alpha == 0) {
      stats.converged = true;  // no descent left along s
      break;
    }

    // a += alpha s, Ma += alpha M s, jar += alpha J s.
    const double alpha = step.alpha;
    for (int k = 0; k < nv; ++k) {
      r.qacc[k] += alpha * w.search[k];
      w.ma[k] += alpha * w.msearch[k];
    }
    // Ma and jar stay incremental on every iteration, as MuJoCo keeps them:
    // recomputing them from a on long PCG runs moved the round-off, and with
    // it the iteration where PCG stops, away from MuJoCo's.
    for_row_chunks(p, [&](int, int begin, int end, int) {
      for (int i = begin; i < end; ++i) w.jar[i] += alpha * w.jv[i];
    });
    if (!newton) {
      std::copy_n(w.grad.begin(), nv, w.grad_old.begin());
      std::copy_n(w.mgrad.begin(), nv, w.mgrad_old.begin());
    }
    std::swap(w.state, w.old_state);  // update_constraints writes every state
    const double old_cost = cost;
    NewtonUpdate update;
    if (newton) {
      update = update_constraints_and_hessian(p, w);
      cost = update.cost;
    } else {
      cost = update_constraints(p, w, false);
    }

    IterationStatistics it;
    it.improvement = p.scale * (old_cost - cost);
    it.gradient = p.scale * std::sqrt(dot(w.grad, w.grad, nv));
    it.line_search_evaluations = step.evaluations;
    for (int i = 0; i < nefc; ++i) {
      it.active += w.state[i] != RowState::kSatisfied;
      it.state_changes += w.state[i] != w.old_state[i];
    }
    stats.per_iteration.push_back(it);
    stats.iterations = iter + 1;
    stats.final_improvement = it.improvement;
    stats.final_gradient = it.gradient;
    if (it.improvement < p.tolerance || it.gradient < p.tolerance) {
      stats.converged = true;
      break;
    }
    if (iter + 1 == p.iterations) break;

    // H (kept current by rank-1 updates from the old states) and the
    // preconditioned gradient are needed only for a next direction, so
    // they wait until the iteration is known not to be the last (unless
    // the updates ran beside J^T f, above).
    if (newton && update.hessian_pending) update_hessian(p, w);
    if (newton && update.rebuild) rebuild_hessian(p, w);
    precondition(p, w, method);

    // Next direction: Newton -H^-1 grad; PCG -M^-1 grad + beta s with
    // beta = max(0, grad^T (Mgrad - Mgrad_old) / (grad_old^T Mgrad_old)).
    double beta = 0;
    if (!newton) {
      double num = 0, den = 0;
      for (int k = 0; k < nv; ++k) {
        num += w.grad[k] * (w.mgrad[k] - w.mgrad_old[k]);
        den += w.grad_old[k] * w.mgrad_old[k];
      }
      beta = den > 0 ? std::max(0.0, num / den) : 0;
    }
    for (int k = 0; k < nv; ++k) w.search[k] = -w.mgrad[k] + beta * w.search[k];
  }
  stats.cost = cost;
}

}  // namespace pliant
