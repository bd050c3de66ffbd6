#include "solvers/pgs_solver.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "solvers/cost.h"
#include "solvers/workspace.h"

namespace pliant {
namespace {

// Small blocks without heap allocation.
using SmallMatrix =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxConeDim, kMaxConeDim>;
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxConeDim, 1>;

// min 0.5 y^T A y + y^T b over |y| <= t (a trust-region problem). Returns
// the multiplier lambda >= 0 of 0.5 lambda (|y|^2 - t^2); writes y. On the
// boundary, lambda solves |y(lambda)| = t with (A + lambda I) y = -b, found
// by Newton's method on phi(lambda) = 1/t - 1/|y(lambda)| (nearly linear,
// so few steps are needed; steps may go either way, lambda stays >= 0), with
// phi' = -y^T (A + lambda I)^-1 y / |y|^3.
double trust_region(const SmallMatrix& a, const SmallVector& b, double t, SmallVector& y) {
  const int n = static_cast<int>(b.size());
  if (t <= 0) {
    y.setZero(n);
    return 0;
  }
  Eigen::LLT<SmallMatrix> llt(a);
  y = -llt.solve(b);
  if (y.norm() <= t) return 0;
  double lambda = 0;
  for (int k = 0; k < 60; ++k) {
    const double ny = y.norm();
    if (std::abs(ny - t) <= 1e-15 * t) break;
    const SmallVector z = llt.solve(y);
    const double step = (1 / t - 1 / ny) * ny * ny * ny / y.dot(z);
    if (!std::isfinite(step)) break;
    lambda = std::max(0.0, lambda + step);
    SmallMatrix shifted = a;
    shifted.diagonal().array() += lambda;
    llt.compute(shifted);
    y = -llt.solve(b);
  }
  const double ny = y.norm();
  if (ny > 0) y *= t / ny;  // on the boundary
  return lambda;
}

}  // namespace

// With the normal force t = f0 fixed, the friction part x solves the
// trust-region problem in y = x / friction: min 0.5 y^T (W A_TT W) y +
// y^T W (g_T + A_T0 t) over |y| <= t. The reduced cost h(t) is convex with
// h'(t) = A_00 t + g_0 + A_0T x(t) - lambda(t) t; t* >= 0 is its root,
// bracketed by doubling and refined by regula falsi (Illinois) with
// bisection safeguards. The unconstrained minimiser is taken when it lies
// inside the cone.
void solve_cone_block(int dim, const double* friction, const double* a, const double* g,
                      double* f) {
  Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> am(
      a, dim, dim);
  SmallMatrix full = am;
  SmallVector gv = Eigen::Map<const Eigen::VectorXd>(g, dim);
  SmallVector free = -Eigen::LLT<SmallMatrix>(full).solve(gv);
  double tangential = 0;
  for (int j = 1; j < dim; ++j) tangential += std::pow(free[j] / friction[j - 1], 2);
  if (free[0] >= 0 && tangential <= free[0] * free[0]) {
    for (int j = 0; j < dim; ++j) f[j] = free[j];
    return;
  }
  const int m = dim - 1;
  SmallMatrix att(m, m);
  SmallVector w(m), at0(m), gt(m);
  for (int i = 0; i < m; ++i) {
    w[i] = friction[i];
    at0[i] = a[(i + 1) * dim];
    gt[i] = g[i + 1];
  }
  for (int i = 0; i < m; ++i) {
    for (int k = 0; k < m; ++k) att(i, k) = w[i] * a[(i + 1) * dim + k + 1] * w[k];
  }
  const double a00 = a[0], g0 = g[0];
  SmallVector y(m);
  // h'(t) and the friction forces x(t).
  auto slope = [&](double t, SmallVector& x) {
    const SmallVector b = (w.array() * (gt + at0 * t).array()).matrix();
    const double lambda = trust_region(att, b, t, y);
    x = (w.array() * y.array()).matrix();
    return a00 * t + g0 + at0.dot(x) - lambda * t;
  };
  SmallVector x(m);
  // Near t = 0 the friction part contributes -t |W g_T|, so
  // h'(0+) = g0 - |W g_T|: no force when that is >= 0.
  const double slope0 = g0 - (w.array() * gt.array()).matrix().norm();
  if (slope0 >= 0) {
    for (int j = 0; j < dim; ++j) f[j] = 0;
    return;
  }
  double lo = 0, slope_lo = slope0;
  double hi = std::max(-slope0 / a00, 1e-300), slope_hi = slope(hi, x);
  for (int k = 0; k < 200 && slope_hi < 0; ++k) {
    lo = hi;
    slope_lo = slope_hi;
    hi *= 2;
    slope_hi = slope(hi, x);
  }
  int side = 0;
  for (int k = 0; k < 200 && hi - lo > 1e-15 * hi; ++k) {
    double t = (lo * slope_hi - hi * slope_lo) / (slope_hi - slope_lo);
    if (!(t > lo && t < hi) || k % 8 == 7) t = 0.5 * (lo + hi);
    const double s = slope(t, x);
    if (s == 0) {
      lo = hi = t;
      break;
    }
    if (s < 0) {
      lo = t;
      slope_lo = s;
      if (side == -1) slope_hi *= 0.5;
      side = -1;
    } else {
      hi = t;
      slope_hi = s;
      if (side == 1) slope_lo *= 0.5;
      side = 1;
    }
  }
  const double t = 0.5 * (lo + hi);
  slope(t, x);
  f[0] = t;
  for (int j = 1; j < dim; ++j) f[j] = x[j - 1];
}

void build_dual(const ConstraintProblem& p, SolverWorkspace& w, bool regularised) {
  const int n = p.nefc;
  // A = J M^-1 J^T, column by column: M^-1 J_i^T, then J of it.
  w.ar.resize(static_cast<size_t>(n) * n);
  std::vector<double>& column = w.scratch_nv;
  for (int i = 0; i < n; ++i) {
    std::fill(column.begin(), column.end(), 0.0);
    const int adr = p.row_adr[i];
    for (int k = 0; k < p.row_nnz[i]; ++k) column[p.col[adr + k]] = p.J[adr + k];
    problem_mass_solve(p, column.data());
    for (int j = i; j < n; ++j) {
      double sum = 0;
      const int adr_j = p.row_adr[j];
      for (int k = 0; k < p.row_nnz[j]; ++k) sum += p.J[adr_j + k] * column[p.col[adr_j + k]];
      w.ar[static_cast<size_t>(j) * n + i] = sum;
      w.ar[static_cast<size_t>(i) * n + j] = sum;
    }
    if (regularised) w.ar[static_cast<size_t>(i) * n + i] += p.R[i];
  }
  // b = J a0 - aref.
  w.b.resize(n);
  problem_jacobian_multiply(p, p.qacc_smooth, w.b.data());
  for (int i = 0; i < n; ++i) w.b[i] -= p.aref[i];
}

void finish_dual(const ConstraintProblem& p, SolverWorkspace& w) {
  SolverResult& r = w.result;
  problem_jacobian_transpose_multiply(p, r.force.data(), r.qfrc_constraint.data());
  for (int k = 0; k < p.nv; ++k) r.qacc[k] = r.qfrc_constraint[k];
  problem_mass_solve(p, r.qacc.data());
  for (int k = 0; k < p.nv; ++k) r.qacc[k] += p.qacc_smooth[k];
}

void solve_pgs(const ConstraintProblem& p, SolverWorkspace& w) {
  w.prepare(p);
  SolverResult& r = w.result;
  SolverStatistics& stats = r.statistics;
  const int n = p.nefc;

  build_dual(p, w, true);

  std::vector<double>& f = r.force;
  if (p.force_start) {
    for (int i = 0; i < n; ++i) f[i] = p.force_start[i];
  } else {
    std::fill(f.begin(), f.end(), 0.0);
  }
  auto row_ar = [&](int i) { return w.ar.data() + static_cast<size_t>(i) * n; };
  auto residual = [&](int i) {
    const double* a = row_ar(i);
    double sum = w.b[i];
    for (int k = 0; k < n; ++k) sum += a[k] * f[k];
    return sum;
  };
  // Dual cost 0.5 f^T AR f + f^T b.
  auto dual_cost = [&] {
    double cost = 0;
    for (int i = 0; i < n; ++i) {
      if (f[i] == 0) continue;
      cost += f[i] * (0.5 * (residual(i) - w.b[i]) + w.b[i]);
    }
    return cost;
  };
  // Keep a start point feasible: clamp each row into its set.
  auto project_row = [&](int i) {
    switch (p.type[i]) {
      case RowType::kEquality:
        break;
      case RowType::kFrictionDof:
      case RowType::kFrictionTendon:
        f[i] = std::clamp(f[i], -p.frictionloss[i], p.frictionloss[i]);
        break;
      default:
        f[i] = std::max(0.0, f[i]);
    }
  };
  for (int i = 0; i < n;) {
    if (p.type[i] == RowType::kContactElliptic) {
      const ConeGroup& cone = p.cones[p.cone_of_row[i]];
      double t2 = 0;
      for (int j = 1; j < cone.dim; ++j) t2 += std::pow(f[i + j] / cone.friction[j - 1], 2);
      f[i] = std::max(0.0, f[i]);
      const double t = std::sqrt(t2);
      if (t > f[i]) {
        for (int j = 1; j < cone.dim; ++j) f[i + j] *= t > 0 ? f[i] / t : 0;
      }
      i += cone.dim;
    } else {
      project_row(i++);
    }
  }

  grow(w.old_state, n);
  double cost = dual_cost();
  for (int iter = 0; iter < p.iterations; ++iter) {
    int changes = 0;
    for (int i = 0; i < n;) {
      if (p.type[i] == RowType::kContactElliptic) {
        // One cone block: A = AR block, g = the residual without the
        // block's own forces.
        const ConeGroup& cone = p.cones[p.cone_of_row[i]];
        const int dim = cone.dim;
        double a[kMaxConeDim * kMaxConeDim], g[kMaxConeDim], block[kMaxConeDim];
        for (int j = 0; j < dim; ++j) {
          g[j] = residual(i + j);
          for (int k = 0; k < dim; ++k) {
            a[j * dim + k] = row_ar(i + j)[i + k];
            g[j] -= a[j * dim + k] * f[i + k];
          }
        }
        solve_cone_block(dim, cone.friction, a, g, block);
        for (int j = 0; j < dim; ++j) {
          changes += (block[j] != 0) != (f[i + j] != 0);
          f[i + j] = block[j];
        }
        i += dim;
        continue;
      }
      // f_i <- project(f_i - (AR f + b)_i / AR_ii).
      const double old = f[i];
      f[i] -= residual(i) / row_ar(i)[i];
      project_row(i);
      changes += (old != 0) != (f[i] != 0);
      ++i;
    }
    const double old_cost = cost;
    cost = dual_cost();
    IterationStatistics it;
    it.improvement = p.scale * (old_cost - cost);
    it.state_changes = changes;
    for (int i = 0; i < n; ++i) it.active += f[i] != 0;
    stats.per_iteration.push_back(it);
    stats.iterations = iter + 1;
    stats.final_improvement = it.improvement;
    if (it.improvement < p.tolerance) {
      stats.converged = true;
      break;
    }
  }
  stats.cost = cost;
  finish_dual(p, w);
}

}  // namespace pliant
