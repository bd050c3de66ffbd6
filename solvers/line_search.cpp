#include "solvers/line_search.h"

#include <algorithm>
#include <cmath>

namespace pliant {
namespace {

constexpr double kMinCurvature = 1e-15;

// Adds the quadratic piece c0 + c1 alpha + c2 alpha^2 to the point.
void add_quadratic(const double* c, double alpha, LinePoint& point) {
  point.cost += c[0] + alpha * (c[1] + alpha * c[2]);
  point.d1 += c[1] + 2 * alpha * c[2];
  point.d2 += 2 * c[2];
}

// One elliptic cone along the line. With N(alpha) = mu (jar0 + alpha jv0)
// and T(alpha)^2 = ta + 2 tb alpha + tc alpha^2 (weighted tangential part),
// the middle zone's cost 0.5 Dm (N - mu T)^2 has derivative
// Dm (N - mu T)(N' - mu T') and second derivative
// Dm ((N' - mu T')^2 - (N - mu T) mu T''), T' = (tb + tc alpha)/T,
// T'' = (tc - T'^2)/T.
void add_cone(const LineSearchInput& in, const ConeGroup& cone, double alpha, LinePoint& point) {
  const ConstraintProblem& p = *in.problem;
  const int first = cone.first_row, dim = cone.dim;
  const double mu = cone.mu;
  const double* jar = in.jar + first;
  const double* jv = in.jv + first;
  const double n = mu * (jar[0] + alpha * jv[0]);
  const double n1 = mu * jv[0];
  double tb = 0, tc = 0, t2 = 0;
  for (int j = 1; j < dim; ++j) {
    const double w2 = cone.friction[j - 1] * cone.friction[j - 1];
    const double u = jar[j] + alpha * jv[j];
    t2 += w2 * u * u;
    tb += w2 * u * jv[j];  // derivative of T^2/2 at alpha
    tc += w2 * jv[j] * jv[j];
  }
  const double t = std::sqrt(t2);
  if (n >= mu * t || (t <= 0 && n >= 0)) return;  // top zone: no cost
  if (mu * n + t <= 0 || (t <= 0 && n < 0)) {     // bottom zone: quadratic rows
    for (int j = 0; j < dim; ++j) add_quadratic(in.quadratic + 3 * (first + j), alpha, point);
    return;
  }
  const double dm = p.D[first] / (mu * mu * (1 + mu * mu));
  const double t1 = tb / t;
  const double tt = (tc - t1 * t1) / t;
  const double nmt = n - mu * t;
  const double slope = n1 - mu * t1;
  point.cost += 0.5 * dm * nmt * nmt;
  point.d1 += dm * nmt * slope;
  point.d2 += dm * (slope * slope - nmt * mu * tt);
}

}  // namespace

void prepare_line_search(const LineSearchInput& in) {
  const ConstraintProblem& p = *in.problem;
  for (int i = 0; i < p.nefc; ++i) {
    const double d = p.D[i], jar = in.jar[i], jv = in.jv[i];
    double* q = in.quadratic + 3 * i;
    q[0] = 0.5 * d * jar * jar;
    q[1] = d * jv * jar;
    q[2] = 0.5 * d * jv * jv;
  }
}

LinePoint evaluate_line(const LineSearchInput& in, double alpha) {
  const ConstraintProblem& p = *in.problem;
  LinePoint point;
  point.alpha = alpha;
  add_quadratic(in.gauss, alpha, point);
  for (int i = 0; i < p.nefc;) {
    const double* q = in.quadratic + 3 * i;
    const double jar = in.jar[i] + alpha * in.jv[i];
    switch (p.type[i]) {
      case RowType::kEquality:
        add_quadratic(q, alpha, point);
        break;
      case RowType::kFrictionDof:
      case RowType::kFrictionTendon: {
        // Huber: linear pieces -0.5 R fl^2 -+ fl jar beyond |jar| = R fl.
        const double fl = p.frictionloss[i], bound = p.R[i] * fl;
        if (jar <= -bound) {
          point.cost += -0.5 * bound * fl - fl * jar;
          point.d1 += -fl * in.jv[i];
        } else if (jar >= bound) {
          point.cost += -0.5 * bound * fl + fl * jar;
          point.d1 += fl * in.jv[i];
        } else {
          add_quadratic(q, alpha, point);
        }
        break;
      }
      case RowType::kContactElliptic: {
        const ConeGroup& cone = p.cones[p.cone_of_row[i]];
        add_cone(in, cone, alpha, point);
        i += cone.dim;
        continue;
      }
      default:
        if (jar < 0) add_quadratic(q, alpha, point);
    }
    ++i;
  }
  point.d2 = std::max(point.d2, kMinCurvature);
  return point;
}

LineSearchResult exact_line_search(const LineSearchInput& in) {
  const ConstraintProblem& p = *in.problem;
  LineSearchResult result;
  if (in.search_norm < 1e-15) return result;
  prepare_line_search(in);
  const double gtol = p.tolerance * 0.01 * in.search_norm / p.scale;
  int& count = result.evaluations;
  auto eval = [&](double alpha) {
    ++count;
    return evaluate_line(in, alpha);
  };
  auto newton = [](const LinePoint& x) { return x.alpha - x.d1 / x.d2; };
  auto finish = [&](const LinePoint& x) {
    result.alpha = x.alpha;
    result.cost = x.cost;
    return result;
  };

  // At alpha = 0 the slope must be clearly negative.
  const LinePoint start = eval(0);
  result.cost = start.cost;
  if (start.d1 > -gtol) return result;

  // One-sided phase: Newton steps while the slope stays negative.
  LinePoint lo = start;
  LinePoint x = eval(newton(start));
  while (x.d1 <= -gtol && count < kMaxLineSearchEvaluations) {
    lo = x;
    const double next = newton(x);
    if (!(next > x.alpha)) break;
    x = eval(next);
  }
  if (std::abs(x.d1) < gtol || x.d1 < 0) return finish(x);

  // Bracketed phase: lo has a negative slope, hi a positive one. Try the
  // Newton steps from both ends and the midpoint, keeping the bracket.
  LinePoint hi = x;
  while (count < kMaxLineSearchEvaluations) {
    const double width = hi.alpha - lo.alpha;
    for (int k = 0; k < 3 && count < kMaxLineSearchEvaluations; ++k) {
      const double candidate = k == 0   ? newton(lo)
                               : k == 1 ? newton(hi)
                                        : 0.5 * (lo.alpha + hi.alpha);
      if (!(candidate > lo.alpha && candidate < hi.alpha)) continue;
      const LinePoint y = eval(candidate);
      if (std::abs(y.d1) < gtol) return finish(y);
      if (y.d1 < 0) {
        lo = y;
      } else {
        hi = y;
      }
    }
    if (!(hi.alpha - lo.alpha < width)) break;  // no progress left in double precision
  }
  return finish(lo.alpha > 0 && lo.cost <= hi.cost ? lo : hi);
}

}  // namespace pliant
