#include "pliant/impedance.h"

#include <algorithm>
#include <cmath>

#include "model/numeric_limits.h"

namespace pliant {
namespace {
constexpr double kMinImpedance = 1e-4, kMaxImpedance = 0.9999;
// v^(p - 1). At the default power 2 that is v itself, which std::pow
// returns exactly (its error is under one ulp), without its cost.
double power_less_one(double v, double p) { return p == 2 ? v : std::pow(v, p - 1); }

}  // namespace

SolImp sanitize(const SolImp& s) {
  SolImp out = s;
  out.dmin = std::clamp(s.dmin, kMinImpedance, kMaxImpedance);
  out.dmax = std::clamp(s.dmax, kMinImpedance, kMaxImpedance);
  out.midpoint = std::clamp(s.midpoint, kMinImpedance, kMaxImpedance);
  out.width = std::max(0.0, s.width);
  out.power = std::max(1.0, s.power);
  return out;
}

SolRef sanitize(const SolRef& s) {
  const bool same_sign =
      (s.timeconst > 0 && s.dampratio > 0) || (s.timeconst <= 0 && s.dampratio <= 0);
  return same_sign ? s : SolRef{};
}

ImpedanceValue impedance(const SolImp& s, double r) {
  if (s.dmin == s.dmax || s.width <= kMinValue) return {0.5 * (s.dmin + s.dmax), 0};
  const double x = std::abs(r) / s.width;
  if (x >= 1) return {s.dmax, 0};
  if (x <= 0) return {s.dmin, 0};
  // y(x) and dy/dx, then the chain rule through x = |r| / width.
  double y, dy;
  const double p = s.power, mid = s.midpoint;
  if (p == 1) {
    y = x;
    dy = 1;
  } else if (x <= mid) {
    const double a = 1 / power_less_one(mid, p);
    y = a * std::pow(x, p);
    dy = p * a * power_less_one(x, p);
  } else {
    const double b = 1 / power_less_one(1 - mid, p);
    y = 1 - b * std::pow(1 - x, p);
    dy = p * b * power_less_one(1 - x, p);
  }
  const double sign = r >= 0 ? 1 : -1;
  return {s.dmin + y * (s.dmax - s.dmin), sign * dy * (s.dmax - s.dmin) / s.width};
}

SpringDamper reference_spring(const SolRef& solref, double dmax, double timestep, bool refsafe) {
  if (solref.timeconst > 0) {
    const double timeconst = refsafe ? std::max(solref.timeconst, 2 * timestep) : solref.timeconst;
    const double dampratio = solref.dampratio;
    return {1 / std::max(kMinValue, dmax * dmax * timeconst * timeconst * dampratio * dampratio),
            2 / (dmax * timeconst)};
  }
  // Direct form: (-stiffness, -damping), per unit impedance.
  return {-solref.timeconst / (dmax * dmax), -solref.dampratio / dmax};
}

}  // namespace pliant
