#include "solvers/primal_solver.h"

#include <algorithm>
#include <cmath>

#include "solvers/line_search.h"
#include "solvers/newton_hessian.h"
#include "solvers/workspace.h"

namespace pliant {

void SolverWorkspace::prepare(const ConstraintProblem& p) {
  const int nv = p.nv, nefc = p.nefc;
  for (auto* v : {&ma, &grad, &mgrad, &search, &msearch, &grad_old, &mgrad_old, &gathered}) {
    grow(*v, nv);
  }
  scratch_nv.resize(nv);
  for (auto* v : {&jar, &jv}) grow(*v, nefc);
  grow(live_rows, nefc);
  grow(changed_rows, nefc);
  grow(state, nefc);
  grow(old_state, nefc);
  grow(cone_hessian, static_cast<size_t>(p.ncone) * kMaxConeDim * kMaxConeDim);
  // Zero between updates (each rank-1 update leaves it zero).
  grow(rank_vector, nv);
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

namespace {

constexpr int kRefresh = 50;

// run_end[i]: the end of the run of rows from i that list row i's columns
// (a contact's pyramid rows, a weld's six).
void find_row_runs(const ConstraintProblem& p, std::vector<int>& run_end) {
  run_end.resize(p.nefc);
  for (int i = p.nefc - 1; i >= 0; --i) {
    const bool joined = i + 1 < p.nefc && same_columns_as_previous(p, i + 1);
    run_end[i] = joined ? run_end[i + 1] : i + 1;
  }
}

// y = J x, a run's entries of x gathered once (each row's sum in the same
// order as problem_jacobian_multiply).
void jacobian_multiply(const ConstraintProblem& p, SolverWorkspace& w, const double* x, double* y) {
  double* gathered = w.gathered.data();
  for (int i = 0; i < p.nefc;) {
    const int end = w.row_run_end[i], n = p.row_nnz[i];
    const int* cols = p.col + p.row_adr[i];
    for (int k = 0; k < n; ++k) gathered[k] = x[cols[k]];
    for (; i < end; ++i) {
      const double* jac = p.J + p.row_adr[i];
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += jac[k] * gathered[k];
      y[i] = sum;
    }
  }
}

// y = J^T f, a run's entries of y read and written once (each entry's sum
// in the same order as problem_jacobian_transpose_multiply).
void jacobian_transpose_multiply(const ConstraintProblem& p, SolverWorkspace& w, const double* f,
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
    for (int k = 0; k < n; ++k) gathered[k] = y[cols[k]];
    for (; i < end; ++i) {
      const double fi = f[i];
      if (fi == 0) continue;
      const double* jac = p.J + p.row_adr[i];
      for (int k = 0; k < n; ++k) gathered[k] += jac[k] * fi;
    }
    for (int k = 0; k < n; ++k) y[cols[k]] = gathered[k];
  }
}

double dot(const std::vector<double>& a, const std::vector<double>& b, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

// States, forces and the total cost at the current a (Ma, jar given);
// qfrc_constraint = J^T f and grad = Ma - qfrc_smooth - qfrc_constraint.
double update_constraints(const ConstraintProblem& p, SolverWorkspace& w, bool cone_hessians) {
  SolverResult& r = w.result;
  const double cost = gauss_cost(p, r.qacc.data(), w.ma.data()) +
                      evaluate_constraints(p, w.jar.data(), w.state.data(), r.force.data(),
                                           cone_hessians ? w.cone_hessian.data() : nullptr);
  jacobian_transpose_multiply(p, w, r.force.data(), r.qfrc_constraint.data());
  for (int k = 0; k < p.nv; ++k) w.grad[k] = w.ma[k] - p.qfrc_smooth[k] - r.qfrc_constraint[k];
  return cost;
}

// Mgrad = P^-1 grad.
void precondition(const ConstraintProblem& p, SolverWorkspace& w, PrimalMethod method) {
  std::copy_n(w.grad.begin(), p.nv, w.mgrad.begin());
  if (method == PrimalMethod::kNewton) {
    solve_hessian(w, w.mgrad.data());
  } else {
    problem_mass_solve(p, w.mgrad.data());
  }
}

}  // namespace

void solve_primal(const ConstraintProblem& p, SolverWorkspace& w, PrimalMethod method) {
  w.prepare(p);
  find_row_runs(p, w.row_run_end);
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
    for (int i = 0; i < nefc; ++i) w.jar[i] += alpha * w.jv[i];
    // Round-off accumulates in the incremental Ma and jar; on long runs
    // (ill-conditioned PCG) they are recomputed from a every kRefresh
    // iterations so the gradient stays the cost's.
    if ((iter + 1) % kRefresh == 0) {
      problem_mass_multiply(p, r.qacc.data(), w.ma.data());
      jacobian_multiply(p, w, r.qacc.data(), w.jar.data());
      for (int i = 0; i < nefc; ++i) w.jar[i] -= p.aref[i];
    }
    if (!newton) {
      std::copy_n(w.grad.begin(), nv, w.grad_old.begin());
      std::copy_n(w.mgrad.begin(), nv, w.mgrad_old.begin());
    }
    std::swap(w.state, w.old_state);  // update_constraints writes every state
    const double old_cost = cost;
    cost = update_constraints(p, w, newton);
    if (newton) update_hessian(p, w);
    precondition(p, w, method);

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
