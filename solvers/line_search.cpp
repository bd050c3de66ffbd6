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
  if (point.d2 <= 0) point.d2 = kMinCurvature;
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

  // One Newton step from alpha = 0 is always tried, and kept when it does
  // not raise the cost; when its slope is within the tolerance it is the
  // answer (alpha = 0, no step, when the step raised the cost).
  const LinePoint start = eval(0);
  result.cost = start.cost;
  LinePoint x = newton(start);
  if (start.cost < x.cost) x = start;
  if (converged(x)) return finish(x);

  // One-sided phase: Newton steps in the direction of descent while the
  // slope keeps its sign; `last` is the point before.
  const double dir = x.d1 < 0 ? 1 : -1;
  LinePoint last;
  bool moved = false;
  while (x.d1 * dir <= -gtol && count < kMaxLineSearchEvaluations) {
    last = x;
    moved = true;
    x = newton(x);
    if (converged(x)) return finish(x);
  }
  if (count >= kMaxLineSearchEvaluations || !moved) return finish(x);

  // Bracketed phase between x and last (slopes of opposite signs). Each
  // round adds the midpoint to the candidates (x's Newton step, and at
  // first x itself for last), returns the cheapest candidate within the
  // tolerance, else moves each end to the candidate of its sign with the
  // smallest |slope| and takes the Newton step from it; when neither end
  // moves, double precision is exhausted and the midpoint is the answer.
  LinePoint x_next = newton(x), last_next = x;
  auto update = [&](LinePoint& end, LinePoint& next, const LinePoint(&candidates)[3]) {
    bool updated = false;
    for (const LinePoint& y : candidates) {
      if ((end.d1 < 0 && y.d1 < 0 && end.d1 < y.d1) || (end.d1 > 0 && y.d1 > 0 && end.d1 > y.d1)) {
        end = y;
        updated = true;
      }
    }
    if (updated) next = newton(end);
    return updated;
  };
  while (count < kMaxLineSearchEvaluations) {
    const LinePoint mid = eval(0.5 * (x.alpha + last.alpha));
    const LinePoint candidates[3] = {x_next, last_next, mid};
    const LinePoint* best = nullptr;
    for (const LinePoint& y : candidates) {
      if (converged(y) && (best == nullptr || y.cost < best->cost)) best = &y;
    }
    if (best != nullptr) return finish(*best);
    const bool moved_x = update(x, x_next, candidates);
    const bool moved_last = update(last, last_next, candidates);
    if (!moved_x && !moved_last) return finish(mid);
  }
  // Out of evaluations: the cheaper end if it beats alpha = 0.
  if (x.cost <= last.cost && x.cost < start.cost) return finish(x);
  if (last.cost <= x.cost && last.cost < start.cost) return finish(last);
  return result;
}

}  // namespace pliant
