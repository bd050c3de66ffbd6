#include "solvers/line_search.h"

#include <algorithm>
#include <cmath>

namespace pliant {
namespace {

constexpr double kMinCurvature = 1e-15;

// One elliptic cone along the line. With N(alpha) = mu (jar0 + alpha jv0)
// and T(alpha)^2 = ta + 2 tb alpha + tc alpha^2 (weighted tangential part),
// the middle zone's cost 0.5 Dm (N - mu T)^2 has derivative
// Dm (N - mu T)(N' - mu T') and second derivative
// Dm ((N' - mu T')^2 - (N - mu T) mu T''), T' = (tb + tc alpha)/T,
// T'' = (tc - T'^2)/T. In the bottom zone the rows' quadratic
// coefficients are added to q; the middle zone goes into point directly.
void add_cone(const LineSearchInput& in, const ConeGroup& cone, double alpha, double* q,
              LinePoint& point) {
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
    for (int j = 0; j < dim; ++j) {
      const double* c = in.quadratic + 3 * (first + j);
      q[0] += c[0];
      q[1] += c[1];
      q[2] += c[2];
    }
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
  // The quadratic pieces are summed into one quadratic first and evaluated
  // once, so at the minimum of a quadratic piece the derivative cancels to
  // round-off of the coefficients (not of every row's own derivative).
  double q[3] = {in.gauss[0], in.gauss[1], in.gauss[2]};
  auto add = [&q](const double* c) {
    q[0] += c[0];
    q[1] += c[1];
    q[2] += c[2];
  };
  for (int i = 0; i < p.nefc;) {
    const double* c = in.quadratic + 3 * i;
    const double jar = in.jar[i] + alpha * in.jv[i];
    switch (p.type[i]) {
      case RowType::kEquality:
        add(c);
        break;
      case RowType::kFrictionDof:
      case RowType::kFrictionTendon: {
        // Huber: linear pieces -0.5 R fl^2 -+ fl jar beyond |jar| = R fl.
        const double fl = p.frictionloss[i], bound = p.R[i] * fl;
        if (jar <= -bound) {
          q[0] += -0.5 * bound * fl - fl * in.jar[i];
          q[1] += -fl * in.jv[i];
        } else if (jar >= bound) {
          q[0] += -0.5 * bound * fl + fl * in.jar[i];
          q[1] += fl * in.jv[i];
        } else {
          add(c);
        }
        break;
      }
      case RowType::kContactElliptic: {
        const ConeGroup& cone = p.cones[p.cone_of_row[i]];
        add_cone(in, cone, alpha, q, point);
        i += cone.dim;
        continue;
      }
      default:
        if (jar < 0) add(c);
    }
    ++i;
  }
  point.cost += q[0] + alpha * (q[1] + alpha * q[2]);
  point.d1 += q[1] + 2 * alpha * q[2];
  point.d2 += 2 * q[2];
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
  auto newton = [&](const LinePoint& x) { return eval(x.alpha - x.d1 / x.d2); };
  auto converged = [gtol](const LinePoint& x) { return std::abs(x.d1) < gtol; };
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
  LinePoint x = newton(start);
  if (converged(x)) return finish(x);
  // The bracket: lo (negative slope) and hi (positive slope), each with
  // the Newton step taken from it.
  LinePoint lo = start, lo_step = x;
  if (x.d1 < 0) {
    while (x.d1 < 0 && count < kMaxLineSearchEvaluations) {
      lo = x;
      x = newton(x);
      if (converged(x)) return finish(x);
    }
    if (x.d1 < 0) return finish(x);  // out of evaluations
    lo_step = x;
  }
  LinePoint hi = x;
  LinePoint hi_step = newton(hi);
  if (converged(hi_step)) return finish(hi_step);
  // When the first step overshot, the bracket starts at 0 and the Newton
  // step from 0 is evaluated again (MuJoCo 2.2.2 does; the evaluation counts
  // then agree with its statistics).
  if (lo.alpha == 0) lo_step = newton(start);

  // Bracketed phase: each round adds the midpoint to the two ends' Newton
  // steps, returns the first of the three inside the tolerance, else moves
  // each end to the candidate of its sign with the smallest |slope| and
  // takes the Newton step from it.
  while (count < kMaxLineSearchEvaluations) {
    const LinePoint mid = eval(0.5 * (lo.alpha + hi.alpha));
    const LinePoint candidates[3] = {lo_step, hi_step, mid};
    for (const LinePoint& y : candidates) {
      if (converged(y)) return finish(y);
    }
    bool moved_lo = false, moved_hi = false;
    for (const LinePoint& y : candidates) {
      if (y.d1 < 0 && y.d1 > lo.d1) {
        lo = y;
        moved_lo = true;
      } else if (y.d1 > 0 && y.d1 < hi.d1) {
        hi = y;
        moved_hi = true;
      }
    }
    if (!moved_lo && !moved_hi) break;  // no progress left in double precision
    if (moved_lo && count < kMaxLineSearchEvaluations) lo_step = newton(lo);
    if (moved_hi && count < kMaxLineSearchEvaluations) hi_step = newton(hi);
  }
  return finish(lo.alpha > 0 && lo.cost <= hi.cost ? lo : hi);
}

}  // namespace pliant
