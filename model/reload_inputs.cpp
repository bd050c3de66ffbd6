#include "model/reload_inputs.h"

#include <cmath>

#include "model/exact_rotation.h"
#include "model/numeric_limits.h"
#include "model/unit_quaternion.h"

namespace pliant {
namespace {

using Eigen::Quaterniond;
using Eigen::Vector3d;
using Eigen::Vector4d;

// x moved by `steps` representable doubles (negative: down).
double step_ulps(double x, int steps) {
  for (; steps > 0; --steps) x = std::nextafter(x, INFINITY);
  for (; steps < 0; ++steps) x = std::nextafter(x, -INFINITY);
  return x;
}

// Multiples of the target tried: a preimage of a normalisation may have any
// length, and scaling by k rounds differently for each k. Measured on random
// unit quaternions normalised three times: the target itself loads back in
// 98% of cases, one of its ulp neighbours in most others, and every one of
// 200000 but two within k <= 200.
constexpr int kMaxMultiple = 1000;

// The loader reads numbers with strtod and refuses subnormal ones (as out
// of range), so no candidate may hold one.
template <int N>
bool readable(const Eigen::Matrix<double, N, 1>& v) {
  for (int c = 0; c < N; ++c) {
    if (std::fpclassify(v[c]) == FP_SUBNORMAL) return false;
  }
  return true;
}

// The first candidate, in order of k and then of ulp offsets (0 first, then
// -1, +1 per component) around k `start`, that `loaded` maps to exactly
// `target`; `start` itself when none does.
template <int N, class Loaded>
Eigen::Matrix<double, N, 1> search(const Eigen::Matrix<double, N, 1>& start,
                                   const Eigen::Matrix<double, N, 1>& target, Loaded loaded) {
  using Vector = Eigen::Matrix<double, N, 1>;
  int combinations = 1;
  for (int c = 0; c < N; ++c) combinations *= 3;
  for (int k = 1; k <= kMaxMultiple; ++k) {
    const Vector base = start * static_cast<double>(k);
    for (int m = 0; m < combinations; ++m) {
      Vector candidate = base;
      int digits = m;
      for (int c = 0; c < N; ++c, digits /= 3) {
        const int offset = digits % 3 == 0 ? 0 : digits % 3 == 1 ? -1 : 1;
        candidate[c] = step_ulps(candidate[c], offset);
      }
      if (readable(candidate) && loaded(candidate) == target) return candidate;
    }
  }
  return start;
}

Quaterniond quat_of(const Vector4d& wxyz) {
  return Quaterniond(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
}
Vector4d wxyz_of(const Quaterniond& q) { return Vector4d(q.w(), q.x(), q.y(), q.z()); }

// What the loader makes of a written body, geom, site, camera or inertial
// quaternion before composing it with anything: read_orientation
// normalises it, Pose::place normalises the product with the identity
// frame (the product itself is exact).
Quaterniond read_and_placed(const Vector4d& written) {
  const Quaterniond read = unit_as_compiler(quat_of(written));
  return unit_as_compiler(quat_mul(Quaterniond::Identity(), read));
}

}  // namespace

Quaterniond frame_quat_to_write(const Quaterniond& compiled) {
  // Adding +0 turns -0 into +0: placing the quaternion in its frame drops
  // the sign of zero anyway, and the text reads more plainly.
  const Vector4d target = wxyz_of(compiled) + Vector4d::Zero();
  const Vector4d found = search<4>(target, target, [](const Vector4d& written) {
    return wxyz_of(unit_as_compiler(read_and_placed(written)));
  });
  return quat_of(found);
}

Quaterniond unit_quat_to_write(const Quaterniond& compiled) {
  const Vector4d target = wxyz_of(compiled);
  const Vector4d found = search<4>(target, target, [](const Vector4d& written) {
    return wxyz_of(quat_of(written).normalized());
  });
  return quat_of(found);
}

Vector3d unit_vector_to_write(const Vector3d& compiled) {
  return search<3>(compiled, compiled,
                   [](const Vector3d& written) { return Vector3d(written.normalized()); });
}

Vector4d key_quat_to_write(const Vector4d& compiled) {
  return search<4>(compiled, compiled, [](const Vector4d& written) {
    // The compiler's normalisation.
    Vector4d q = written;
    normalize_key_quaternion(q.data());
    return q;
  });
}

void mesh_geom_frame_to_write(const Vector3d& pos, const Quaterniond& quat,
                              const Vector3d& mesh_pos, const Quaterniond& mesh_quat,
                              Vector3d& written_pos, Quaterniond& written_quat) {
  // quat = normalise(q' mesh_quat), q' = read_and_placed(q). First the
  // quaternions within three ulps of quat mesh_quat^-1 that loading keeps
  // as they are (q' = q): the composition then only has to round right.
  // mesh_quat is unit only to the compiler's rule (its norm may be 1e-14
  // off), so the start is quat times its inverse, conj / |mesh_quat|^2, then
  // corrected by what its product misses (the product's rounding), which
  // moves tiny components (a frame 1e-19 off an axis) as far as needed.
  const Vector4d target = wxyz_of(quat);
  const Quaterniond inverse =
      quat_of(wxyz_of(mesh_quat.conjugate()) / wxyz_of(mesh_quat).squaredNorm());
  Vector4d start = wxyz_of(quat_mul(quat, inverse));
  for (int step = 0; step < 4; ++step) {
    const Vector4d missed = target - wxyz_of(quat_mul(quat_of(start), mesh_quat));
    if (missed.isZero(0)) break;
    start += wxyz_of(quat_mul(quat_of(missed), inverse));
  }
  const auto composed = [&](const Vector4d& written) {
    return wxyz_of(unit_as_compiler(quat_mul(read_and_placed(written), mesh_quat)));
  };
  written_quat = quat_of(start);
  bool found = false;
  // The start, then the start with components below 1e-15 set to zero
  // (each subset): a frame the user wrote on an axis (a zero component)
  // composes exactly, while a start 1e-17 off zero is no few ulps from it.
  // Each with its other components moved by up to three ulps.
  int tiny = 0;
  for (int c = 0; c < 4; ++c) {
    if (start[c] != 0 && std::abs(start[c]) < 1e-15) tiny |= 1 << c;
  }
  constexpr int kRadius = 3, kWidth = 2 * kRadius + 1;
  for (int zeroed = 0; zeroed < 16 && !found; ++zeroed) {
    if ((zeroed & tiny) != zeroed) continue;
    Vector4d base = start;
    for (int c = 0; c < 4; ++c) {
      if (zeroed & (1 << c)) base[c] = 0;
    }
    for (int m = 0; m < kWidth * kWidth * kWidth * kWidth && !found; ++m) {
      Vector4d candidate = base;
      int digits = m;
      bool moves_zero = false;
      for (int c = 0; c < 4; ++c, digits /= kWidth) {
        const int offset = digits % kWidth - kRadius;
        moves_zero = moves_zero || (offset != 0 && (zeroed & (1 << c)));
        candidate[c] = step_ulps(candidate[c], offset);
      }
      if (!moves_zero && readable(candidate) && wxyz_of(read_and_placed(candidate)) == candidate &&
          composed(candidate) == target) {
        written_quat = quat_of(candidate);
        found = true;
      }
    }
  }
  // Then any quaternion near a multiple of the start.
  if (!found) written_quat = quat_of(search<4>(start, target, composed));
  // pos = p + q' mesh_pos, component by component: p = pos - d, moved by a
  // few ulps until the sum rounds to pos.
  const Vector3d offset = read_and_placed(wxyz_of(written_quat)) * mesh_pos;
  for (int c = 0; c < 3; ++c) {
    const double start_value = pos[c] - offset[c];
    written_pos[c] = start_value;
    for (int steps = 0; steps <= 8; ++steps) {
      const double up = step_ulps(start_value, steps), down = step_ulps(start_value, -steps);
      const auto normal = [](double x) { return std::fpclassify(x) != FP_SUBNORMAL; };
      if (normal(up) && up + offset[c] == pos[c]) {
        written_pos[c] = up;
        break;
      }
      if (normal(down) && down + offset[c] == pos[c]) {
        written_pos[c] = down;
        break;
      }
    }
  }
}

}  // namespace pliant
