// Pairs with a box: sphere-box, capsule-box and box-box.

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/collision/pair.h"

namespace pliant::collision {
namespace {

// Below this length of a_i x b_j (unit axes) two box edges count as parallel.
constexpr double kParallelEdges = 1e-6;

// Sphere (centre c in world, radius r) against box b, as MuJoCo 3.3.8
// reports it. Outside the box: along the line from the centre to its nearest
// box point. Centre inside the box: the normal goes through the face nearest
// the centre (ties to the lower axis and the negative side), the position is
// midway between that face and the deepest sphere point, and the distance is
// -(r + the centre's depth below that face), the true depth (MuJoCo 2.2.2
// reports -r whatever the centre's depth).
int sphere_box_raw(const Vector3d& c, double r, const GeomShape& b, double margin,
                   RawContact* out) {
  const Vector3d local = b.mat.transpose() * (c - b.pos);
  const Vector3d clamped = local.cwiseMax(-b.size).cwiseMin(b.size);
  const Vector3d outside = local - clamped;
  const double len = outside.norm();
  if (len - r > margin) return 0;
  if (len >= kMinValue) {
    const Vector3d n = -(b.mat * outside) / len;
    out->dist = len - r;
    out->normal = n;
    out->pos = c + n * (r + 0.5 * out->dist);
    return 1;
  }
  int axis = 0;
  double face = b.size[0] - std::abs(local[0]);
  for (int k = 1; k < 3; ++k) {
    const double f = b.size[k] - std::abs(local[k]);
    if (f < face) {
      face = f;
      axis = k;
    }
  }
  const Vector3d outward = b.mat.col(axis) * (local[axis] > 0 ? 1.0 : -1.0);
  out->dist = -(r + face);
  out->normal = -outward;
  out->pos = c + outward * (0.5 * (face - r));
  return 1;
}

}  // namespace

int sphere_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  return sphere_box_raw(a.pos, a.size[0], b, margin, out);
}

namespace {

// Nearest points of the capsule segment S(t) = p + t h (t in [-1, 1], box
// frame) and the box edge E(x) = e0 + x s u (x in [-1, 1], u a box axis):
// minimising |E(x) - S(t)|^2 gives
//   [ma mb; mb mc] [x; t] = [g; w],  ma = s^2, mb = -s (h.u), mc = |h|^2,
//   g = -s (e0 - p).u,  w = h.(e0 - p).
// A parameter beyond its range is clamped and the other re-solved once (the
// edge parameter clamped again). Records which end each parameter was clamped
// to: 0 at -1, 2 at +1, 1 inside (an edge parameter that is re-solved into
// its range keeps its earlier mark). False when the lines are parallel.
struct EdgeSegment {
  double x = 0, t = 0;            // edge and segment parameters
  int edge_end = 1, seg_end = 1;  // 0, 1 or 2 as above
  double dist2 = 0;               // squared distance of the two points
};

bool edge_segment(const Vector3d& e0, int axis, double s, const Vector3d& p, const Vector3d& h,
                  double h_len, EdgeSegment* r) {
  const Vector3d dif = e0 - p;
  const double ma = s * s, mb = -s * h[axis], mc = h_len * h_len;
  const double g = -s * dif[axis], w = h.dot(dif);
  const double det = ma * mc - mb * mb;
  if (std::abs(det) < kMinValue) return false;
  const double inv = 1 / det;
  double x = (mc * g - mb * w) * inv, t = (ma * w - mb * g) * inv;
  int ex = 1, et = 1;
  if (x > 1) {
    x = 1;
    ex = 2;
    t = (w - mb) * (1 / mc);
  } else if (x < -1) {
    x = -1;
    ex = 0;
    t = (w + mb) * (1 / mc);
  }
  auto clamp_edge = [&](double value) {
    x = value;
    if (x > 1) {
      x = 1;
      ex = 2;
    } else if (x < -1) {
      x = -1;
      ex = 0;
    }
  };
  if (t > 1) {
    t = 1;
    et = 2;
    clamp_edge((g - mb) * (1 / ma));
  } else if (t < -1) {
    t = -1;
    et = 0;
    clamp_edge((g + mb) * (1 / ma));
  }
  Vector3d d = dif - h * t;
  d[axis] += s * x;
  r->x = x;
  r->t = t;
  r->edge_end = ex;
  r->seg_end = et;
  r->dist2 = d.dot(d);
  return true;
}

}  // namespace

// Capsule (a) and box (b), in the box frame. The capsule's segment is
// p + t h, t in [-1, 1] (h = half axis).
//  1. Nearest feature. Each segment end that lies beyond at most one face
//     pair (inside the box's face slab) is measured to its clamped point (a
//     face, or the inside); then each of the 12 edges by the edge-segment
//     problem above. The smallest squared distance wins (an edge must beat
//     the best by more than kMinValue); it fixes t1, the segment parameter of
//     the first contact.
//  2. Second contact, for a capsule that lies along the box rather than
//     pointing at it. The corner bits of the capsule direction (bit k set
//     when h_k > 0) are compared with those of the nearest box corner:
//     - nearest point a box corner: when the direction leaves the corner
//       along one axis only (or all but one) the capsule runs along an edge
//       (|h_ax|^2 > 0.5 of the length) or across a face; the second point
//       is as far along the segment as the capsule stays over that edge or
//       face: t2 - t1 = min(remaining length, 2 s_k / |h_k| per crossed axis).
//     - nearest point inside a box edge: when the capsule crosses the edge
//       like an X, it continues over the face it is flattest against, until
//       it leaves that face or passes the edge's end.
//     - nearest point a segment end over a face: the other end is followed
//       until the segment leaves the face's slab sideways (at most to the
//       other end).
//  3. Contacts: the box against a sphere of the capsule radius at t1 and, if
//     step 2 found one, at t2 (sphere_box_raw), in that order.
int capsule_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d& sb = b.size;
  const double radius = a.size[0], half = a.size[1];
  const Vector3d p = b.mat.transpose() * (a.pos - b.pos);
  const Vector3d axis = b.mat.transpose() * a.mat.col(2);
  const Vector3d h = axis * half;
  const int axis_bits = (h[0] > 0 ? 1 : 0) | (h[1] > 0 ? 2 : 0) | (h[2] > 0 ? 4 : 0);

  // 1. Nearest feature. kind: -3 / -1 the -1 / +1 end over a face (face =
  // the clamped axis, -1 inside), 0..8 an edge (3 edge_end + seg_end).
  double best = margin + 2 * (radius + half + sb[0] + sb[1] + sb[2]);
  double t1 = 0, edge_x = 0;
  int kind = -4, face = -1, corner = 0, edge_axis = 0;
  for (const int end : {-1, 1}) {
    const Vector3d q = p + end * h;
    Vector3d c = q;
    int clamped = 0, last = -1;
    for (int k = 0; k < 3; ++k) {
      if (q[k] < -sb[k] || q[k] > sb[k]) {
        c[k] = std::clamp(q[k], -sb[k], sb[k]);
        ++clamped;
        last = k;
      }
    }
    if (clamped > 1) continue;
    const double d2 = (c - q).squaredNorm();
    if (d2 < best) {
      best = d2;
      t1 = end;
      kind = end - 2;
      face = last;
    }
  }
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 8; ++i) {
      if (i & (1 << j)) continue;
      // Edge along axis j through the corners i and i + 2^j; e0 its middle.
      Vector3d e0((i & 1) ? sb[0] : -sb[0], (i & 2) ? sb[1] : -sb[1], (i & 4) ? sb[2] : -sb[2]);
      e0[j] = 0;
      EdgeSegment r;
      if (!edge_segment(e0, j, sb[j], p, h, half, &r)) continue;
      if (r.dist2 < best - kMinValue) {
        best = r.dist2;
        t1 = r.t;
        edge_x = r.x;
        const int code = 3 * r.edge_end + r.seg_end;
        corner = i + (1 << j) * (code / 6);  // the edge's upper corner when clamped there
        edge_axis = j;
        kind = code;
      }
    }
  }
  if (kind == -4) return 0;

  // 2. Second contact parameter (t2 = t1 + step; none while step < -3).
  double step = -4;
  if (kind >= 0 && kind / 3 != 1) {
    // Box corner nearest. bits: the axes along which the capsule direction
    // differs from the corner's outward diagonal.
    int bits = axis_bits ^ corner;
    if (bits != 0 && bits != 7) {
      double sign, toward_end, away_end;
      if (bits == 1 || bits == 2 || bits == 4) {
        sign = 1;
        toward_end = 1 - t1;
        away_end = 1 + t1;
      } else {
        sign = -1;
        bits = 7 - bits;
        away_end = 1 - t1;
        toward_end = 1 + t1;
      }
      const int ax = bits == 1 ? 0 : (bits == 2 ? 1 : 2);
      const int ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
      if (axis[ax] * axis[ax] > 0.5) {
        // Along the edge of axis ax, at most to the edge's other corner.
        step = std::min(toward_end, 2 * sb[ax] / std::abs(h[ax]));
        step *= sign;
      } else {
        // Across the face normal to ax, at most to its far side.
        step = away_end;
        step = std::min(step, 2 * sb[ax1] / std::abs(h[ax1]));
        step = std::min(step, 2 * sb[ax2] / std::abs(h[ax2]));
        step *= -sign;
      }
    }
  } else if (kind >= 0) {
    // Inside an edge: only a capsule crossing it (one differing bit off the edge axis).
    const int bits = (axis_bits ^ corner) & (7 - (1 << edge_axis));
    if (bits == 1 || bits == 2 || bits == 4) {
      const int ax = edge_axis;
      int ax1 = (ax + 1) % 3, ax2 = (ax + 2) % 3;
      // ax1: the face the capsule is flattest against; ax2 the other.
      if (std::abs(axis[ax1]) > std::abs(axis[ax2])) ax1 = ax2;
      ax2 = 3 - ax - ax1;
      double sign;
      if (bits & (1 << ax2)) {
        sign = 1;
        step = 1 - t1;
      } else {
        sign = -1;
        step = 1 + t1;
      }
      step = std::min(step, 2 * sb[ax2] / std::abs(h[ax2]));
      const bool same = ((axis_bits & (1 << ax)) != 0) == ((bits & (1 << ax2)) != 0);
      const double edge_left = same ? 1 - edge_x : 1 + edge_x;
      step = std::min(step, sb[ax] * edge_left / std::abs(h[ax]));
      step *= sign;
    }
  } else if (face != -1) {
    // A segment end over a face: walk towards the other end until the
    // segment leaves the slab of another axis.
    const double sign = kind == -3 ? 1 : -1;
    const Vector3d q = p - sign * h;
    step = 2;
    for (int k = 0; k < 3; ++k) {
      if (k == face) continue;
      for (const double side : {sb[k], -sb[k]}) {
        const double e = (side - q[k]) / h[k] * sign;
        if (e > 0 && e < step) step = e;
      }
    }
    step *= sign;
  }

  // 3. Spheres at t1 and t2.
  const Vector3d world_h = a.mat.col(2) * half;
  int count = sphere_box_raw(a.pos + t1 * world_h, radius, b, margin, out);
  if (step > -3) {
    count += sphere_box_raw(a.pos + (t1 + step) * world_h, radius, b, margin, out + count);
  }
  return count;
}

namespace {

// Frame of a box face, as a signed permutation F with F n = +z for the face's
// outward normal n (faces 0-2: +x, +y, +z; 3-5: -x, -y, -z). The face's
// in-plane axes become x and y.
Matrix3d face_frame(int face) {
  Matrix3d f = Matrix3d::Zero();
  switch (face) {
    case 0:  // +x -> z, z -> -x
      f(0, 2) = -1, f(1, 1) = 1, f(2, 0) = 1;
      break;
    case 1:  // +y -> z, z -> -y
      f(0, 0) = 1, f(1, 2) = -1, f(2, 1) = 1;
      break;
    case 2:
      f.setIdentity();
      break;
    case 3:  // -x -> z, z -> x
      f(0, 2) = 1, f(1, 1) = 1, f(2, 0) = -1;
      break;
    case 4:  // -y -> z, z -> y
      f(0, 0) = 1, f(1, 2) = 1, f(2, 1) = -1;
      break;
    default:  // -z -> z, x -> -x
      f(0, 0) = -1, f(1, 1) = 1, f(2, 2) = -1;
  }
  return f;
}

double sgn(bool positive) { return positive ? 1.0 : -1.0; }

// Where the segment o + u d (u in [0, 1], xy only) crosses the lines
// x = +-half[0] and y = +-half[1] within the rectangle |x| <= half[0],
// |y| <= half[1]: calls f(u, q, side, other) with q the crossed coordinate,
// side its value and other the remaining coordinate there.
template <typename F>
void cross_rectangle(const Vector3d& o, const Vector3d& d, const double half[2], F&& f) {
  for (int q = 0; q < 2; ++q) {
    if (std::abs(d[q]) <= kMinValue) continue;
    for (const double side : {-half[q], half[q]}) {
      const double u = (side - o[q]) * (1 / d[q]);
      if (u < 0 || u > 1) continue;
      const double other = o[1 - q] + d[1 - q] * u;
      if (std::abs(other) > half[1 - q]) continue;
      f(u, q, side, other);
    }
  }
}

}  // namespace

namespace {

// Box (a) and box (b) by separating axes, then contact points on the axis of
// least overlap.
//  1. Overlaps: along the 3 face normals of each box, |centre distance| minus
//     both projected half extents; along the 9 edge-edge axes a_i x b_j
//     (skipped when parallel) likewise. Any axis separating by more than the
//     margin: no contact. The least overlap wins; faces in the order a_0,
//     b_0, a_1, b_1, a_2, b_2, then edges, an edge only when it is below the
//     best by a relative 1e-12.
//  2. Face axis: the winning face is the reference (moved to z = 0 with
//     outward normal +z and half sizes lx, ly), the other box the incident
//     one. Its lowest corner and its edges from there that are not steep
//     (|z component| < 0.5) span a corner, an edge or a face below the
//     reference face. Contacts: crossings of those incident edges with the
//     lines x = +-lx, y = +-ly inside the rectangle; rectangle corners inside
//     the incident parallelogram (at its height there); the incident
//     vertices strictly inside the rectangle (the lowest corner always).
//     Points higher than the margin are dropped. The distance is half the
//     height z, as MuJoCo 2.2.2 and 3.3.8 report it (later MuJoCo reports
//     z itself, the true depth), the position the point halfway down to the
//     face, the normal the reference face's (from a to b).
//  3. Edge axis: the reference face of a is the one, of the two faces along
//     the edge of a, facing b and most orthogonal to b's edge; the incident
//     face of b is spanned by b's nearest edge and the parallel edge across
//     the face of b flattest against a's edge direction. Its four corners
//     are projected along the edge-edge normal onto the reference plane.
//     Contacts: crossings of the projected face's edges with the rectangle
//     (distance along the normal to the plane, position halfway); then
//     rectangle corners within the projected face (clamped into it while no
//     edge crossing exists), at the Euclidean distance to the face point;
//     then projected corners inside the rectangle (or, without crossings,
//     outside it in at most one coordinate), at their distance to the
//     rectangle. Points above the plane farther than the margin are
//     dropped; at most kMaxPairContacts.
int box_box_raw(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d& s1 = a.size;
  const Vector3d& s2 = b.size;
  // Relative placement: b's centre in a's frame and a's in b's; rot(i, j) = a_i . b_j.
  const Vector3d p21 = a.mat.transpose() * (b.pos - a.pos);
  const Vector3d p12 = b.mat.transpose() * (a.pos - b.pos);
  const Matrix3d rot = a.mat.transpose() * b.mat;
  const Matrix3d rot_abs = rot.cwiseAbs();
  const Vector3d extent2 = rot_abs * s2;              // b's half extents along a's axes
  const Vector3d extent1 = rot_abs.transpose() * s1;  // a's along b's

  // 1. Face axes. code: 0-5 face of a (axis, +3 when b is on the negative
  // side), 6-11 face of b (likewise for a), 12 + 3 i + j edges a_i x b_j.
  double overlap = margin + 3 * (s1.sum() + s2.sum());
  int code = -1;
  for (int i = 0; i < 3; ++i) {
    const double c1 = -std::abs(p21[i]) + s1[i] + extent2[i];
    const double c2 = -std::abs(p12[i]) + s2[i] + extent1[i];
    if (c1 < -margin || c2 < -margin) return 0;
    if (c1 < overlap) {
      overlap = c1;
      code = i + 3 * (p21[i] < 0);
    }
    if (c2 < overlap) {
      overlap = c2;
      code = i + 3 * (p12[i] < 0) + 6;
    }
  }
  // Edge axes, in a's frame: n = a_i x b_j (normalised).
  Vector3d edge_normal(0, 0, 0);
  int corner1 = 0, corner2 = 0;  // bits: the + side of each axis towards the other box
  bool flipped = false;          // b lies on the -n side
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Vector3d bj = rot.col(j);
      Vector3d n = Vector3d::UnitX();
      if (i == 0) n = Vector3d(0, -bj[2], bj[1]);
      if (i == 1) n = Vector3d(bj[2], 0, -bj[0]);
      if (i == 2) n = Vector3d(-bj[1], bj[0], 0);
      // Nearly parallel edges (their cross product shorter than the sine of
      // 1e-6 rad) are left to the face axes, which then bound the overlap
      // within 1e-6 of the boxes' size: the edge-edge contacts built from
      // such an axis are ill-conditioned (a pad turned 2.5e-7 rad on a cube
      // gave contacts 22.6 mm deep for a 17 um overlap). MuJoCo skips only
      // exactly parallel ones.
      const double len = n.norm();
      if (len < kParallelEdges) continue;
      n /= len;
      const double centre = p21.dot(n);
      // b's extent along n: |b_k . (a_i x b_j)| = |a_i . b_m| / len, m the third axis.
      double reach = 0;
      for (int k = 0; k < 3; ++k) {
        if (k != i) reach += s1[k] * std::abs(n[k]);
      }
      for (int k = 0; k < 3; ++k) {
        if (k != j) reach += s2[k] * rot_abs(i, 3 - k - j) / len;
      }
      const double c3 = reach - std::abs(centre);
      if (c3 < -margin) return 0;
      if (c3 < overlap * (1 - 1e-12)) {
        overlap = c3;
        corner1 = corner2 = 0;
        for (int k = 0; k < 3; ++k) {
          if (k != i && ((n[k] > 0) != (centre < 0))) corner1 |= 1 << k;
        }
        for (int k = 0; k < 3; ++k) {
          // Sign of b_k . n, flipped when b is on the -n side.
          const bool cyclic = (k - j + 3) % 3 == 1;
          if (k != j && ((rot(i, 3 - k - j) > 0) != (centre < 0)) != cyclic) corner2 |= 1 << k;
        }
        code = 12 + 3 * i + j;
        edge_normal = n;
        flipped = centre < 0;
      }
    }
  }
  if (code < 0) return 0;

  if (code < 12) {
    // 2. Face contact. ref: the reference box; frame: its face frame F.
    const int face = code % 6;
    const bool ref_is_b = code >= 6;
    const Matrix3d frame = face_frame(face);
    // Incident box's axes (columns) and centre in the reference face frame.
    const Matrix3d r = ref_is_b ? Matrix3d(frame * rot.transpose()) : Matrix3d(frame * rot);
    Vector3d centre = frame * (ref_is_b ? p12 : p21);
    const Vector3d ref_half = (frame * (ref_is_b ? s2 : s1)).cwiseAbs();
    const Vector3d& inc_size = ref_is_b ? s1 : s2;
    const double half[2] = {ref_half[0], ref_half[1]};
    centre[2] -= ref_half[2];  // reference face at z = 0
    // Lowest incident corner: + along each axis pointing down.
    int low = 0;
    for (int k = 0; k < 3; ++k) {
      if (r(2, k) < 0) low |= 1 << k;
    }
    Vector3d pts[6];
    pts[0] = centre;
    for (int k = 0; k < 3; ++k) pts[0] += r.col(k) * (inc_size[k] * sgn(low & (1 << k)));
    int m = 1;
    for (int k = 0; k < 3; ++k) {
      if (std::abs(r(2, k)) < 0.5)
        pts[m++] = r.col(k) * (inc_size[k] * ((low & (1 << k)) ? -2 : 2));
    }
    // Far corners of the spanned parallelogram (pts[1], pts[2] are edge vectors).
    if (m > 1) pts[3] = pts[0] + pts[1];
    if (m > 2) {
      pts[4] = pts[0] + pts[2];
      pts[5] = pts[3] + pts[2];
    }
    Vector3d points[kMaxPairContacts + 8];
    int n = 0;
    auto add = [&](const Vector3d& v) {
      if (n < kMaxPairContacts) points[n++] = v;
    };
    // Incident edges (origin, direction) crossing the rectangle's sides.
    const Vector3d* lines[4][2] = {
        {&pts[0], &pts[1]}, {&pts[0], &pts[2]}, {&pts[3], &pts[2]}, {&pts[4], &pts[1]}};
    const int line_count = m > 2 ? 4 : (m > 1 ? 1 : 0);
    for (int l = 0; l < line_count; ++l) {
      const Vector3d& o = *lines[l][0];
      const Vector3d& d = *lines[l][1];
      cross_rectangle(o, d, half, [&](double u, int, double, double) { add(o + d * u); });
    }
    if (m > 2) {
      // Rectangle corners strictly inside the parallelogram pts[0] + u e1 + v e2.
      const double e1x = pts[1][0], e2x = pts[2][0], e1y = pts[1][1], e2y = pts[2][1];
      const double det = e1x * e2y - e2x * e1y;
      for (int c = 0; c < 4; ++c) {
        const double cx = c / 2 ? half[0] : -half[0], cy = c % 2 ? half[1] : -half[1];
        const double x = cx - pts[0][0], y = cy - pts[0][1];
        const double u = (x * e2y - y * e2x) * (1 / det);
        const double v = (y * e1x - x * e1y) * (1 / det);
        if (u <= 0 || v <= 0 || u >= 1 || v >= 1) continue;
        add(Vector3d(cx, cy, pts[0][2] + u * pts[1][2] + v * pts[2][2]));
      }
    }
    // Incident vertices: the lowest always, the others strictly inside.
    for (int c = 0; c < (1 << (m - 1)); ++c) {
      const Vector3d& v = pts[c == 0 ? 0 : c + 2];
      if (c > 0 && (v[0] <= -half[0] || v[0] >= half[0] || v[1] <= -half[1] || v[1] >= half[1])) {
        continue;
      }
      add(v);
    }
    // World frame of the reference face; normal from a to b.
    const Matrix3d world = (ref_is_b ? b.mat : a.mat) * frame.transpose();
    const Vector3d& origin = ref_is_b ? b.pos : a.pos;
    const Vector3d normal = world.col(2) * (ref_is_b ? -1.0 : 1.0);
    int count = 0;
    for (int k = 0; k < n; ++k) {
      const double z = points[k][2];
      if (z > margin) continue;
      RawContact& c = out[count++];
      c.dist = 0.5 * z;
      c.normal = normal;
      c.pos = world * Vector3d(points[k][0], points[k][1], 0.5 * z + ref_half[2]) + origin;
    }
    return count;
  }

  // 3. Edge-edge contact.
  const int ia = (code - 12) / 3, jb = (code - 12) % 3;
  // b's axes other than jb, ax1 the one most aligned with a's edge axis.
  int ax1 = jb == 1 ? 0 : 1, ax2 = jb == 0 ? 2 : (jb == 1 ? 2 : 0);
  if (rot_abs(ia, ax1) < rot_abs(ia, ax2)) {
    ax1 = ax2;
    ax2 = 3 - jb - ax1;
  }
  // a's axes other than ia, pax1 the one most aligned with b's edge axis.
  int pax1 = ia == 1 ? 0 : 1, pax2 = ia == 0 ? 2 : (ia == 1 ? 2 : 0);
  if (rot_abs(pax1, jb) < rot_abs(pax2, jb)) {
    pax1 = pax2;
    pax2 = 3 - ia - pax1;
  }
  const int face = (corner1 & (1 << pax2)) ? pax2 : pax2 + 3;
  const Matrix3d frame = face_frame(face);
  Vector3d centre = frame * p21;
  const Vector3d rnorm = frame * edge_normal;
  const Matrix3d r = frame * rot;  // b's axes (columns) in a's face frame
  const Vector3d ref_half = (frame.transpose() * s1).cwiseAbs();
  const double half[2] = {ref_half[0], ref_half[1]};
  centre[2] -= ref_half[2];
  // Incident face of b: corners 0, 1 on b's nearest edge (+-jb), 2, 3 on the
  // parallel edge across ax1.
  Vector3d pu[4];
  for (int side = 0; side < 2; ++side) {
    const double f1 = sgn(corner2 & (1 << ax1)) * (side == 0 ? 1.0 : -1.0);
    const Vector3d base =
        centre + r.col(ax1) * (s2[ax1] * f1) + r.col(ax2) * (s2[ax2] * sgn(corner2 & (1 << ax2)));
    pu[2 * side] = base + r.col(jb) * s2[jb];
    pu[2 * side + 1] = base - r.col(jb) * s2[jb];
  }
  if (std::abs(rnorm[2]) < kMinValue) return 0;
  const double inv_nz = (1 / rnorm[2]) * (flipped ? -1.0 : 1.0);
  // Projections along the normal onto z = 0.
  Vector3d proj[4];
  for (int k = 0; k < 4; ++k) proj[k] = pu[k] + rnorm * (-pu[k][2] * (1 / rnorm[2]));
  const Vector3d e1 = proj[1] - proj[0], e2 = proj[2] - proj[0];
  const Vector3d u1 = pu[1] - pu[0], u2 = pu[2] - pu[0];
  // Face edges: (origin, direction) projected and unprojected.
  const Vector3d lo[4] = {proj[0], proj[0], proj[0] + e1, proj[0] + e2};
  const Vector3d ld[4] = {e1, e2, e2, e1};
  const Vector3d uo[4] = {pu[0], pu[0], pu[0] + u1, pu[0] + u2};
  const Vector3d ud[4] = {u1, u2, u2, u1};
  Vector3d points[kMaxPairContacts];
  double depth[kMaxPairContacts];
  int n = 0;
  const double margin2 = margin * margin;
  for (int l = 0; l < 4; ++l) {
    cross_rectangle(lo[l], ld[l], half, [&](double u, int q, double side, double other) {
      if (n >= kMaxPairContacts) return;
      const Vector3d on_b = uo[l] + ud[l] * u;
      if (on_b[2] * inv_nz > margin) return;
      Vector3d mid = 0.5 * on_b;
      mid[q] += 0.5 * side;
      mid[1 - q] += 0.5 * other;
      points[n] = mid;
      depth[n] = on_b[2] * inv_nz;
      ++n;
    });
  }
  const int crossings = n;
  {
    // The divisor starts as the determinant of (e1, e2) and, as in MuJoCo
    // 2.2.2, is replaced by each measured corner's squared distance d2 for
    // the corners after it.
    const double e1x = e1[0], e2x = e2[0], e1y = e1[1], e2y = e2[1];
    double det = e1x * e2y - e2x * e1y;
    for (int c = 0; c < 4 && n < kMaxPairContacts; ++c) {
      const double cx = c / 2 ? half[0] : -half[0], cy = c % 2 ? half[1] : -half[1];
      const double x = cx - proj[0][0], y = cy - proj[0][1];
      double u = (x * e2y - y * e2x) * (1 / det);
      double v = (y * e1x - x * e1y) * (1 / det);
      const bool u_out = u < 0 || u > 1, v_out = v < 0 || v > 1;
      if (crossings == 0 ? (u_out && v_out) : (u_out || v_out)) continue;
      u = std::clamp(u, 0.0, 1.0);
      v = std::clamp(v, 0.0, 1.0);
      const Vector3d on_b = pu[0] * (1 - u - v) + pu[1] * u + pu[2] * v;
      const Vector3d corner(cx, cy, 0);
      const double d2 = (corner - on_b).squaredNorm();
      det = d2;
      if (on_b[2] > 0 && d2 > margin2) continue;
      points[n] = 0.5 * (corner + on_b);
      depth[n] = std::sqrt(d2) * (on_b[2] < 0 ? -1.0 : 1.0);
      ++n;
    }
  }
  const int with_corners = n;
  for (int k = 0; k < 4 && n < kMaxPairContacts; ++k) {
    const double x = proj[k][0], y = proj[k][1];
    const bool x_out = x < -half[0] || x > half[0], y_out = y < -half[1] || y > half[1];
    if (crossings == 0) {
      if (with_corners != 0 && x_out && y_out) continue;
    } else if (x_out || y_out) {
      continue;
    }
    // Squared distance to the rectangle (in the plane) plus the height along the normal.
    double d2 = 0;
    Vector3d on_rect(0.5 * x, 0.5 * y, 0);
    for (int q = 0; q < 2; ++q) {
      if (proj[k][q] < -half[q]) {
        d2 += (proj[k][q] + half[q]) * (proj[k][q] + half[q]);
        on_rect[q] = -0.5 * half[q];
      } else if (proj[k][q] > half[q]) {
        d2 += (proj[k][q] - half[q]) * (proj[k][q] - half[q]);
        on_rect[q] = 0.5 * half[q];
      }
    }
    const double height = pu[k][2] * inv_nz;
    d2 += height * height;
    if (pu[k][2] > 0 && d2 > margin2) continue;
    points[n] = on_rect + 0.5 * pu[k];
    depth[n] = std::sqrt(d2) * (pu[k][2] < 0 ? -1.0 : 1.0);
    ++n;
  }
  const Matrix3d world = a.mat * frame.transpose();
  const Vector3d normal = world * rnorm * (flipped ? -1.0 : 1.0);
  for (int k = 0; k < n; ++k) {
    out[k].dist = depth[k];
    out[k].normal = normal;
    out[k].pos = world * Vector3d(points[k][0], points[k][1], points[k][2] + ref_half[2]) + a.pos;
  }
  return n;
}

// Where point lies against the box grown by margin on every side: 1 outside
// it grown by a further factor kBoxSlack, -1 inside it shrunk by that
// factor, 0 in between.
constexpr double kBoxSlack = 1.01;

int outside_box(const Vector3d& point, const GeomShape& box, double margin) {
  const Vector3d local = box.mat.transpose() * (point - box.pos);
  const Vector3d size = box.size + Vector3d::Constant(margin);
  const Vector3d big = size * kBoxSlack;
  for (int k = 0; k < 3; ++k) {
    if (local[k] > big[k] || local[k] < -big[k]) return 1;
  }
  const Vector3d small = size / kBoxSlack;
  for (int k = 0; k < 3; ++k) {
    if (!(local[k] < small[k] && local[k] > -small[k])) return 0;
  }
  return -1;
}

}  // namespace

// The points of box_box_raw, kept as MuJoCo 3.3.8 keeps them: a point
// outside one box (beyond the slack) and not inside the other is dropped
// (clipping against a far edge can put one off both boxes); of points at
// exactly the same position (aligned faces give shared corners twice) the
// last is kept; the rest stay in order. Degenerate boxes (a zero size makes
// a face parallelogram singular) can give non-finite points; those are
// dropped too.
int box_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  return keep_box_box_contacts(a, b, margin, out, box_box_raw(a, b, margin, out));
}

int keep_box_box_contacts(const GeomShape& a, const GeomShape& b, double margin, RawContact* out,
                          int n) {
  bool keep[kMaxPairContacts];
  for (int k = 0; k < n; ++k) {
    const RawContact& c = out[k];
    keep[k] = std::isfinite(c.dist) && c.pos.allFinite() && c.normal.allFinite();
    if (!keep[k]) continue;
    const int out_a = outside_box(c.pos, a, margin), out_b = outside_box(c.pos, b, margin);
    keep[k] = !((out_a == 1 && out_b != -1) || (out_b == 1 && out_a != -1));
  }
  for (int k = 0; k < n; ++k) {
    for (int j = k + 1; j < n && keep[k]; ++j) keep[k] = !(keep[j] && out[j].pos == out[k].pos);
  }
  int count = 0;
  for (int k = 0; k < n; ++k) {
    if (keep[k]) out[count++] = out[k];
  }
  return count;
}

}  // namespace pliant::collision
