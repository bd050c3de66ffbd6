#include "pliant/impact.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "pliant/impedance.h"

namespace pliant {
namespace {

constexpr double kTouchDepth = 1e-9;  // m: phase 0 starts this deep
constexpr int kPhases = 8;
constexpr double kPenetrationMargin = 0.95;  // designs aim under 95 % of the bound
constexpr double kMaxOmegaStep = 1.5;        // deep stiffness: w h at most this

std::string format(const char* fmt, double a, double b) {
  char text[200];
  std::snprintf(text, sizeof(text), fmt, a, b);
  return text;
}

// The sigmoid y(x) of the impedance curve (impedance.h), x = depth / width.
double sigmoid(const SolImp& s, double x) {
  if (x >= 1) return 1;
  if (s.power == 1) return x;
  if (x <= s.midpoint) return std::pow(x, s.power) / std::pow(s.midpoint, s.power - 1);
  return 1 - std::pow(1 - x, s.power) / std::pow(1 - s.midpoint, s.power - 1);
}

// Van der Corput radical inverse: the Halton sequence's coordinate in `base`.
double halton(int index, int base) {
  double result = 0, f = 1;
  for (int i = index; i > 0; i /= base) {
    f /= base;
    result += f * (i % base);
  }
  return result;
}

struct Candidate {
  SolRef solref;
  SolImp solimp;
  ImpactPrediction at_speed;
  double restitution_error = std::numeric_limits<double>::infinity();
  double violation = std::numeric_limits<double>::infinity();  // penetration over the aim, m
  // Worst over the other phases of max(|e - e*| / (5 % of e*, at least
  // 0.005), penetration / bound): at most 1 where every phase holds.
  double spread = std::numeric_limits<double>::infinity();
};

// (timeconst, dampratio) with deep stiffness w^2 and damping b = bh / h:
// K = w^2 / dmax^2 and B = b / dmax (impedance.h), i.e. timeconst 2 / b and
// dampratio b / (2 w).
SolRef solref_for(double omega, double bh, double timestep) {
  const double b = bh / timestep;
  return {2 / b, b / (2 * omega)};
}

}  // namespace

double effective_impedance(double d, const ContactCone& cone) {
  if (!cone.pyramidal) return d;
  const double f2 = cone.friction * cone.friction;
  const double c = f2 * (1 + f2) / (2 * cone.impratio);
  return 1 / (1 + c * (1 - d) / d);
}

ImpactPrediction simulate_impact(const SolRef& solref_in, const SolImp& solimp_in, double timestep,
                                 double gravity, double speed, double phase,
                                 const ContactCone& cone) {
  const SolImp solimp = sanitize(solimp_in);
  const SpringDamper kb = reference_spring(sanitize(solref_in), solimp.dmax, timestep, true);
  ImpactPrediction p;
  double x = -std::max(phase * speed * timestep, kTouchDepth), v = -speed;
  bool reversed = false;
  const int max_steps = static_cast<int>(std::ceil(10.0 / timestep));
  for (int n = 0; n < max_steps; ++n) {
    p.max_penetration = std::max(p.max_penetration, -x);
    if (x >= 0) {
      if (reversed) {
        p.rebounded = true;
        p.restitution = v / speed;
      }
      return p;
    }
    // In contact: the solver's answer along the normal.
    const double d = impedance(solimp, x).d;
    const double aref = -kb.B * v - kb.K * d * x;
    double a = -gravity;
    if (aref > a) {
      const double de = effective_impedance(d, cone);
      a = (1 - de) * a + de * aref;
    }
    v += timestep * a;
    x += timestep * v;
    p.contact_time += timestep;
    if (v > 0) reversed = true;
    // Back down again inside the contact, or slowing below 1 % of the
    // impact speed on the way up (creeping to rest): no rebound.
    if (reversed && (v <= 0 || (a < 0 && v < 0.01 * speed))) return p;
  }
  return p;
}

double resting_depth(const SolRef& solref_in, const SolImp& solimp_in, double timestep,
                     double gravity, const ContactCone& cone, bool refsafe) {
  const SolImp solimp = sanitize(solimp_in);
  const SpringDamper kb = reference_spring(sanitize(solref_in), solimp.dmax, timestep, refsafe);
  // Balance d' d K x = (1 - d') g; the left side minus the right grows with x.
  auto excess = [&](double x) {
    const double d = impedance(solimp, x).d, de = effective_impedance(d, cone);
    return de * d * kb.K * x - (1 - de) * gravity;
  };
  double lo = 0, hi = 1e-3;
  while (excess(hi) < 0 && hi < 1e6) hi *= 2;
  if (excess(hi) < 0) return std::numeric_limits<double>::infinity();  // no stiffness
  for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (excess(mid) < 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

ImpactDesign design_impact(const ImpactTarget& t) {
  if (!(t.restitution >= 0 && t.restitution <= 1)) {
    throw std::invalid_argument("restitution must be in [0, 1]");
  }
  if (!(t.depth > 0)) throw std::invalid_argument("the resting depth must be positive (m)");
  if (!(t.speed > 0)) throw std::invalid_argument("the impact speed must be positive (m/s)");
  if (!(t.timestep > 0) || !(t.gravity > 0)) {
    throw std::invalid_argument("the timestep and gravity must be positive");
  }
  const bool bounded = t.max_penetration > 0;
  if (t.max_penetration < 0 || (bounded && t.max_penetration <= t.depth)) {
    throw std::invalid_argument(
        format("the maximum penetration (%g m) must be above the resting depth (%g m)",
               t.max_penetration, t.depth));
  }
  if (bounded && t.speed * t.timestep > t.max_penetration * (1 + 1e-9)) {
    throw std::invalid_argument(
        format("the timestep is too coarse for this impact: at %g m/s a body moves %g m in one "
               "step, more than the maximum penetration",
               t.speed, t.speed * t.timestep) +
        format("; use a timestep of at most %g s or allow %g m", t.max_penetration / t.speed,
               t.speed * t.timestep));
  }
  const double h = t.timestep, g = t.gravity, r0 = t.depth;
  const double aim = bounded ? kPenetrationMargin * t.max_penetration : 0;
  const double omega_hi = kMaxOmegaStep / h, omega_lo = std::min(2.0, 0.1 * omega_hi);
  const double width_lo = 1.02 * r0,
               width_hi = 5 * std::max(bounded ? t.max_penetration : 0.0, 5 * r0);

  // dmin that puts the resting depth at r0 for this stiffness and curve:
  // first the impedance d0 that balances gravity there, then the dmin whose
  // curve passes through d0 at r0. NaN when none does.
  auto dmin_for_rest = [&](const SolImp& s, double K) {
    auto excess = [&](double d) {
      const double de = effective_impedance(d, t.cone);
      return de * d * K * r0 - (1 - de) * g;
    };
    if (excess(s.dmax) < 0) return std::numeric_limits<double>::quiet_NaN();
    double lo = 1e-6, hi = s.dmax;
    for (int i = 0; i < 100; ++i) {
      const double mid = 0.5 * (lo + hi);
      (excess(mid) < 0 ? lo : hi) = mid;
    }
    const double d0 = 0.5 * (lo + hi), y = sigmoid(s, r0 / s.width);
    if (y > 1 - 1e-9) return std::numeric_limits<double>::quiet_NaN();
    const double dmin = (d0 - y * s.dmax) / (1 - y);
    return dmin >= 1e-4 && dmin <= s.dmax ? dmin : std::numeric_limits<double>::quiet_NaN();
  };

  auto evaluate = [&](Candidate& c, double omega, double bh) {
    c.solref = solref_for(omega, bh, h);
    c.at_speed = simulate_impact(c.solref, c.solimp, h, g, t.speed, 0, t.cone);
    c.restitution_error = std::abs(c.at_speed.restitution - t.restitution);
    c.violation = bounded ? std::max(0.0, c.at_speed.max_penetration - aim) : 0;
  };

  Candidate best;
  auto better = [&](const Candidate& a, const Candidate& b) {
    const bool a_meets = a.violation == 0 && a.restitution_error < 1e-3;
    const bool b_meets = b.violation == 0 && b.restitution_error < 1e-3;
    if (a_meets != b_meets) return a_meets;
    if (a_meets) return a.spread < b.spread;
    return a.violation / std::max(aim, r0) + a.restitution_error <
           b.violation / std::max(aim, r0) + b.restitution_error;
  };

  constexpr int kCandidates = 4096;
  for (int i = 1; i <= kCandidates; ++i) {
    Candidate c;
    const double omega = omega_lo * std::pow(omega_hi / omega_lo, halton(i, 2));
    c.solimp.dmax = 1 - std::pow(10.0, -1 - 2 * halton(i, 3));
    c.solimp.width = width_lo * std::pow(width_hi / width_lo, halton(i, 5));
    c.solimp.midpoint = 0.05 + 0.9 * halton(i, 7);
    c.solimp.power = 1 + 5 * halton(i, 11);
    const double K = omega * omega / (c.solimp.dmax * c.solimp.dmax);
    c.solimp.dmin = dmin_for_rest(c.solimp, K);
    if (std::isnan(c.solimp.dmin)) continue;
    // The damping b = bh / h, bh in (0, 1] (timeconst >= 2 h), that gives the
    // restitution: less damping bounces more.
    // The most damping penetrates least: past the bound there, skip.
    double lo = 1e-3, hi = 1;
    evaluate(c, omega, hi);
    if (c.violation > 0 && better(best, c)) continue;
    double f_hi = c.at_speed.restitution - t.restitution;
    if (t.restitution == 0 && f_hi == 0) {
      // The least damping that still does not bounce (plus 10 %): more would
      // only slow the sinking to the resting depth.
      for (int k = 0; k < 30; ++k) {
        const double mid = 0.5 * (lo + hi);
        evaluate(c, omega, mid);
        (c.at_speed.restitution > 0 ? lo : hi) = mid;
      }
      evaluate(c, omega, std::min(1.0, 1.1 * hi));
    } else if (t.restitution > 0 && f_hi < 0) {
      evaluate(c, omega, lo);
      double f_lo = c.at_speed.restitution - t.restitution;
      if (f_lo > 0) {
        // Regula falsi (Illinois) on f(bh) = e(bh) - e*, f(lo) > 0 > f(hi).
        int side = 0;
        for (int k = 0; k < 40 && c.restitution_error > 1e-5; ++k) {
          const double mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
          evaluate(c, omega, mid);
          const double f = c.at_speed.restitution - t.restitution;
          if (f > 0) {
            lo = mid, f_lo = f;
            if (side == 1) f_hi *= 0.5;
            side = 1;
          } else {
            hi = mid, f_hi = f;
            if (side == -1) f_lo *= 0.5;
            side = -1;
          }
        }
      }
    }
    if (c.violation == 0 && c.restitution_error < 1e-3) {
      c.spread = 0;
      const double tol = 0.05 * std::max(t.restitution, 0.1);
      for (int k = 1; k < kPhases; ++k) {
        const ImpactPrediction p =
            simulate_impact(c.solref, c.solimp, h, g, t.speed, double(k) / kPhases, t.cone);
        double score = std::abs(p.restitution - t.restitution) / tol;
        if (bounded) score = std::max(score, p.max_penetration / t.max_penetration);
        c.spread = std::max(c.spread, score);
      }
    }
    if (better(c, best)) best = c;
  }
  if (!std::isfinite(best.restitution_error)) {
    throw std::invalid_argument(format(
        "no contact rests at %g m under %g m/s^2 within the timestep's stiffness limit", r0, g));
  }

  ImpactDesign design;
  design.solref = best.solref;
  design.solimp = best.solimp;
  design.at_speed = best.at_speed;
  design.resting_depth = resting_depth(best.solref, best.solimp, h, g, t.cone);
  design.restitution_low = design.restitution_high = best.at_speed.restitution;
  design.penetration_worst = best.at_speed.max_penetration;
  for (int k = 1; k < kPhases; ++k) {
    const ImpactPrediction p =
        simulate_impact(best.solref, best.solimp, h, g, t.speed, double(k) / kPhases, t.cone);
    design.restitution_low = std::min(design.restitution_low, p.restitution);
    design.restitution_high = std::max(design.restitution_high, p.restitution);
    design.penetration_worst = std::max(design.penetration_worst, p.max_penetration);
  }
  if (best.restitution_error >= 1e-3) {
    design.gave_way.push_back(format("restitution: %.4g at the impact speed against %.4g asked",
                                     best.at_speed.restitution, t.restitution));
  }
  if (bounded && best.at_speed.max_penetration > t.max_penetration) {
    design.gave_way.push_back(format("maximum penetration: %.4g m against %.4g m asked",
                                     best.at_speed.max_penetration, t.max_penetration));
  }
  return design;
}

}  // namespace pliant
