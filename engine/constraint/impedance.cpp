#include "pliant/impedance.h"

#include <algorithm>
#include <cmath>

#include "model/numeric_limits.h"

namespace pliant {
namespace {
constexpr double kMinImpedance = 1e-4, kMaxImpedance = 0.9999;
// v^p, with MuJoCo 3.3.8's shortcuts for the powers 1 and 2 (v, v v), so
// that the default power rounds as its product does.
double power(double v, double p) {
  if (p == 1) return v;
  if (p == 2) return v * v;
  return std::pow(v, p);
}

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
    const double a = 1 / power(mid, p - 1);
    y = a * power(x, p);
    dy = p * a * power(x, p - 1);
  } else {
    const double b = 1 / power(1 - mid, p - 1);
    y = 1 - b * power(1 - x, p);
    dy = p * b * power(1 - x, p - 1);
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
