#include "model/exact_rotation.h"

// The arithmetic below is written to round exactly where MuJoCo 3.3.8 rounds;
// contracting a*b+c into one fused operation would change the bits.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <cmath>
#include <utility>

#include "model/numeric_limits.h"

namespace pliant {
namespace {

// Normalisation as 3.3.8's engine does it: components multiplied by
// 1 / norm, unless the norm is within 1e-15 of 1; a vanishing quaternion
// becomes the identity.
Eigen::Quaterniond quat_normalized(const Eigen::Quaterniond& q) {
  const double norm = std::sqrt(q.w() * q.w() + q.x() * q.x() + q.y() * q.y() + q.z() * q.z());
  if (norm < kMinValue) return Eigen::Quaterniond(1, 0, 0, 0);
  if (std::abs(norm - 1) <= kMinValue) return q;
  const double inv = 1 / norm;
  return Eigen::Quaterniond(q.w() * inv, q.x() * inv, q.y() * inv, q.z() * inv);
}

// 3x3 products with each entry summed left to right over the inner index.
Eigen::Matrix3d mul_transposed_left(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  Eigen::Matrix3d r;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) r(i, k) = a(0, i) * b(0, k) + a(1, i) * b(1, k) + a(2, i) * b(2, k);
  }
  return r;
}

Eigen::Matrix3d mul(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  Eigen::Matrix3d r;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) r(i, k) = a(i, 0) * b(0, k) + a(i, 1) * b(1, k) + a(i, 2) * b(2, k);
  }
  return r;
}

}  // namespace

// Jacobi eigen-decomposition, R' A R = D, R kept as a quaternion q; written
// to round exactly like MuJoCo 3.3.8's mju_eig3 (measured: 60 of 60 random
// full inertias give 3.3.8's moments and frames to the bit), because for
// meshes with (nearly) equal principal moments the last bits decide the
// frame, and the frames of bodies and meshes feed every later step.
// Each iteration forms D = (R' A) R from the current q and picks the pivot
// (i, j) with the largest |D(i,j)| (ties go to the later pair). It stops when
// that is below kEps. Otherwise, with tau = (D(j,j) - D(i,i)) / (2 D(i,j)),
// t = sign(tau) / (|tau| + sqrt(1 + tau^2)) is the tangent of the smaller
// angle that zeroes D(i,j), and c = 1 / sqrt(1 + t^2) its cosine; it stops
// when c > 1 - kEps. The rotation is about axis k (not i or j) by that angle;
// its quaternion has vector part +-sqrt(1/2 - c/2) on axis k (minus for
// tau >= 0, and the opposite on axis 1, where (i, j, k) is left-handed) and
// scalar part sqrt(1 - v^2). q <- normalise(q * rotation).
// Finally the eigenvalues are sorted decreasingly by a bubble pass over the
// pairs (0,1), (1,2), (0,1); a swap is a +90 degree turn about the remaining
// axis (columns (u, v) become (v, -u)), applied when the later value is
// larger by more than kEps (MuJoCo 3.x; 2.2.2 swapped on any difference, so
// equal moments could turn the frame on round-off), and not normalised
// after (as 3.3.8: two turns leave the quaternion 2e-15 longer than 1).
int eigen_decompose_symmetric3(const Eigen::Matrix3d& mat, Eigen::Vector3d* values,
                               Eigen::Quaterniond* frame) {
  constexpr double kEps = 1e-12;
  constexpr int kMaxIterations = 500;
  // cos(pi/4) = sin(pi/4) to 15 digits, as 3.3.8 writes it.
  constexpr double kHalfTurn = 0.707106781186548;
  Eigen::Quaterniond q(1, 0, 0, 0);
  Eigen::Vector3d v;
  int iterations = 0;
  for (; iterations < kMaxIterations; ++iterations) {
    const Eigen::Matrix3d r = quat_matrix(q);
    const Eigen::Matrix3d d = mul(mul_transposed_left(r, mat), r);
    v = d.diagonal();
    const double a01 = std::abs(d(0, 1)), a02 = std::abs(d(0, 2)), a12 = std::abs(d(1, 2));
    int i, j, k;
    if (a01 > a02 && a01 > a12) {
      i = 0, j = 1, k = 2;
    } else if (a02 > a12) {
      i = 0, j = 2, k = 1;
    } else {
      i = 1, j = 2, k = 0;
    }
    if (std::abs(d(i, j)) < kEps) break;
    const double tau = (d(j, j) - d(i, i)) / (2 * d(i, j));
    const double t = tau >= 0 ? 1.0 / (tau + std::sqrt(1 + tau * tau))
                              : -1.0 / (-tau + std::sqrt(1 + tau * tau));
    const double c = 1.0 / std::sqrt(1 + t * t);
    if (c > 1.0 - kEps) break;
    double s = std::sqrt(0.5 - 0.5 * c);
    if (tau >= 0) s = -s;
    if (k == 1) s = -s;
    Eigen::Quaterniond rot(std::sqrt(1.0 - s * s), 0, 0, 0);
    rot.coeffs()[k] = s;  // coeffs() is (x, y, z, w)
    q = quat_normalized(quat_mul(q, quat_normalized(rot)));
  }
  for (int pass = 0; pass < 3; ++pass) {
    const int a = pass % 2;
    if (v[a] + kEps < v[a + 1]) {
      std::swap(v[a], v[a + 1]);
      Eigen::Quaterniond turn(kHalfTurn, 0, 0, 0);
      turn.coeffs()[(a + 2) % 3] = kHalfTurn;
      q = quat_mul(q, turn);
    }
  }
  *values = v;
  *frame = q;
  return iterations;
}

}  // namespace pliant
