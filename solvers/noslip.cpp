#include "solvers/noslip.h"

#include <algorithm>
#include <cmath>

#include "solvers/pgs_solver.h"
#include "solvers/workspace.h"

namespace pliant {
namespace {

constexpr double kMinValue = 1e-15;  // MuJoCo's mjMINVAL

// In-place Cholesky of an n x n row-major matrix (lower triangle); false
// when a pivot is not above `min_pivot`.
bool cholesky(double* a, int n, double min_pivot) {
  for (int j = 0; j < n; ++j) {
    double pivot = a[j * n + j];
    for (int k = 0; k < j; ++k) pivot -= a[j * n + k] * a[j * n + k];
    if (pivot <= min_pivot) return false;
    const double l = std::sqrt(pivot);
    a[j * n + j] = l;
    for (int i = j + 1; i < n; ++i) {
      double sum = a[i * n + j];
      for (int k = 0; k < j; ++k) sum -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = sum / l;
    }
  }
  return true;
}

// x = (L L^T)^-1 y.
void cholesky_solve(const double* l, int n, const double* y, double* x) {
  for (int i = 0; i < n; ++i) {
    double sum = y[i];
    for (int k = 0; k < i; ++k) sum -= l[i * n + k] * x[k];
    x[i] = sum / l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    double sum = x[i];
    for (int k = i + 1; k < n; ++k) sum -= l[k * n + i] * x[k];
    x[i] = sum / l[i * n + i];
  }
}

// The change of 0.5 f^T A f + f^T g (g the residual at `old`) when the
// block moves from `old` to `f`; a rise above 1e-10 (round-off of an exact
// block solve) puts the block back and counts nothing.
double block_change(const double* a, double* f, const double* old, const double* residual, int n) {
  double delta[kMaxConeDim];
  for (int j = 0; j < n; ++j) delta[j] = f[j] - old[j];
  double change = 0;
  for (int j = 0; j < n; ++j) {
    double row = 0;
    for (int k = 0; k < n; ++k) row += a[j * n + k] * delta[k];
    change += delta[j] * (0.5 * row + residual[j]);
  }
  if (change > 1e-10) {
    std::copy_n(old, n, f);
    return 0;
  }
  return change;
}

}  // namespace

bool solve_ellipse_qp(int n, const double* a, const double* b, const double* d, double r,
                      double* x) {
  // Scaled so that the constraint is |y| <= r: y_j = x_j / d_j.
  double as[kMaxConeDim * kMaxConeDim], bs[kMaxConeDim];
  for (int i = 0; i < n; ++i) {
    bs[i] = b[i] * d[i];
    for (int j = 0; j < n; ++j) as[i * n + j] = a[i * n + j] * d[i] * d[j];
  }
  double lambda = 0;
  double y[kMaxConeDim] = {}, py[kMaxConeDim], factor[kMaxConeDim * kMaxConeDim];
  for (int iter = 0; iter < 20; ++iter) {
    std::copy_n(as, n * n, factor);
    for (int i = 0; i < n; ++i) factor[i * n + i] += lambda;
    if (!cholesky(factor, n, 1e-10)) {
      std::fill_n(x, n, 0.0);
      return false;
    }
    // y = -(A + lambda)^-1 b; phi = |y|^2 - r^2, phi' = -2 y^T (A + lambda)^-1 y.
    cholesky_solve(factor, n, bs, y);
    double norm2 = 0;
    for (int i = 0; i < n; ++i) {
      y[i] = -y[i];
      norm2 += y[i] * y[i];
    }
    const double phi = norm2 - r * r;
    if (phi < 1e-10) break;
    cholesky_solve(factor, n, y, py);
    double slope = 0;
    for (int i = 0; i < n; ++i) slope -= 2 * y[i] * py[i];
    const double step = -phi / slope;
    if (step < 1e-10) break;
    lambda += step;
  }
  for (int i = 0; i < n; ++i) x[i] = y[i] * d[i];
  return lambda != 0;
}

void apply_noslip(const ConstraintProblem& p, SolverWorkspace& w, int iterations,
                  double tolerance) {
  const int n = p.nefc;
  if (n == 0 || iterations <= 0) return;
  build_dual(p, w, false);
  SolverResult& r = w.result;
  std::vector<double>& f = r.force;
  const double* a_all = w.ar.data();
  auto a_at = [&](int i, int j) { return a_all[static_cast<size_t>(i) * n + j]; };
  // The R-free residual (A f + b)_i.
  auto residual = [&](int i) {
    const double* row = a_all + static_cast<size_t>(i) * n;
    double sum = w.b[i];
    for (int k = 0; k < n; ++k) sum += row[k] * f[k];
    return sum;
  };
  // A's block over rows first .. first + size - 1, diagonal kept above 1e-10.
  auto block = [&](int first, int size, double* out) {
    for (int j = 0; j < size; ++j) {
      for (int k = 0; k < size; ++k) out[j * size + k] = a_at(first + j, first + k);
      out[j * size + j] = std::max(1e-10, out[j * size + j]);
    }
  };

  SolverStatistics& stats = r.statistics;
  int iter = 0;
  while (iter < iterations) {
    double improvement = 0;
    // The first sweep also counts the regulariser's cost that noslip drops.
    if (iter == 0) {
      for (int i = 0; i < n; ++i) improvement += 0.5 * f[i] * f[i] * p.R[i];
    }
    // Friction loss.
    for (int i = 0; i < n; ++i) {
      if (p.type[i] != RowType::kFrictionDof && p.type[i] != RowType::kFrictionTendon) continue;
      const double g = residual(i);
      const double diagonal = std::max(kMinValue, a_at(i, i));
      const double old = f[i];
      f[i] = std::clamp(f[i] - g / diagonal, -p.frictionloss[i], p.frictionloss[i]);
      const double delta = f[i] - old;
      improvement -= 0.5 * delta * delta * diagonal + delta * g;
    }
    // Contact friction.
    for (int i = 0; i < n;) {
      if (p.type[i] == RowType::kContactPyramidal) {
        // A pair of opposite edges: f0 = mid + y, f1 = mid - y, y in [-mid, mid].
        double ac[4], g[2], old[2] = {f[i], f[i + 1]};
        g[0] = residual(i);
        g[1] = residual(i + 1);
        block(i, 2, ac);
        // The block's own part of the residual taken out.
        const double b0 = g[0] - ac[0] * old[0] - ac[1] * old[1];
        const double b1 = g[1] - ac[2] * old[0] - ac[3] * old[1];
        const double mid = 0.5 * (f[i] + f[i + 1]);
        const double curvature = ac[0] + ac[3] - ac[1] - ac[2];
        if (curvature < kMinValue) {
          f[i] = f[i + 1] = mid;
        } else {
          const double y = -(mid * (ac[0] - ac[3]) + b0 - b1) / curvature;
          if (y < -mid) {
            f[i] = 0;
            f[i + 1] = 2 * mid;
          } else if (y > mid) {
            f[i] = 2 * mid;
            f[i + 1] = 0;
          } else {
            f[i] = mid + y;
            f[i + 1] = mid - y;
          }
        }
        improvement -= block_change(ac, f.data() + i, old, g, 2);
        i += 2;
      } else if (p.type[i] == RowType::kContactElliptic) {
        const ConeGroup& cone = p.cones[p.cone_of_row[i]];
        const int m = cone.dim - 1;
        double ac[kMaxConeDim * kMaxConeDim], g[kMaxConeDim], rest[kMaxConeDim];
        double old[kMaxConeDim];
        for (int j = 0; j < m; ++j) {
          g[j] = residual(i + 1 + j);
          old[j] = f[i + 1 + j];
        }
        block(i + 1, m, ac);
        for (int j = 0; j < m; ++j) {
          rest[j] = g[j];
          for (int k = 0; k < m; ++k) rest[j] -= ac[j * m + k] * old[k];
        }
        double* friction = f.data() + i + 1;
        if (f[i] < kMinValue) {
          std::fill_n(friction, m, 0.0);
        } else {
          double x[kMaxConeDim];
          if (solve_ellipse_qp(m, ac, rest, cone.friction, f[i], x)) {
            // On the ellipse: put x exactly on it.
            double s = 0;
            for (int j = 0; j < m; ++j) s += x[j] * x[j] / (cone.friction[j] * cone.friction[j]);
            s = std::sqrt(f[i] * f[i] / std::max(kMinValue, s));
            for (int j = 0; j < m; ++j) x[j] *= s;
          }
          std::copy_n(x, m, friction);
        }
        improvement -= block_change(ac, friction, old, g, m);
        i += cone.dim;
      } else {
        ++i;
      }
    }
    improvement *= p.scale;
    IterationStatistics it;
    it.improvement = improvement;
    for (int i = 0; i < n; ++i) it.active += f[i] != 0;
    stats.per_iteration.push_back(it);
    ++iter;
    if (improvement < tolerance) break;
  }
  stats.iterations += iter;
  finish_dual(p, w);
}

}  // namespace pliant
