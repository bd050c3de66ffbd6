// Pairs with a box: sphere-box, capsule-box and box-box.

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/collision/pair.h"

namespace pliant::collision {
namespace {

// Sphere (centre c in world, radius r) against box b, as MuJoCo 2.2.2 reports
// it. Outside the box: along the line from the centre to its nearest box point.
// Centre inside the box: the normal goes through the face nearest the centre
// (ties to the lower axis and the negative side), the position is midway
// between that face and the deepest sphere point, and the distance is -r (the
// depth 2.2.2 reports, whatever the centre's depth).
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
  out->dist = -r;
  out->normal = -outward;
  out->pos = c + outward * (0.5 * (face - r));
  return 1;
}

// Signed distance from a point to the box surface (negative inside).
double box_signed_distance(const Vector3d& local, const Vector3d& size) {
  const Vector3d q = local.cwiseAbs() - size;
  const Vector3d pos = q.cwiseMax(0.0);
  return pos.norm() + std::min(q.maxCoeff(), 0.0);
}

}  // namespace

int sphere_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  return sphere_box_raw(a.pos, a.size[0], b, margin, out);
}

// Capsule and box. The signed distance from the capsule axis to the box is a
// convex function of the axis parameter; its minimiser (golden-section search
// to round-off) gives the first contact, as a sphere-box contact there. The
// axis end farther from that point gives a second contact when it is within
// the margin too, so a capsule lying on a face rests on both ends.
int capsule_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d axis = a.mat.col(2) * a.size[1];
  const double r = a.size[0];
  const Matrix3d rt = b.mat.transpose();
  const Vector3d p0 = rt * (a.pos - b.pos), d0 = rt * axis;
  auto f = [&](double t) { return box_signed_distance(p0 + t * d0, b.size); };
  // Golden-section search on [-1, 1].
  constexpr double kInvPhi = 0.6180339887498949;
  double lo = -1, hi = 1;
  double x1 = hi - kInvPhi * (hi - lo), x2 = lo + kInvPhi * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 80 && hi - lo > 1e-12; ++i) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - kInvPhi * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + kInvPhi * (hi - lo);
      f2 = f(x2);
    }
  }
  double t = 0.5 * (lo + hi);
  // Prefer an exact end when it is as close as the interior minimiser.
  const double ft = f(t), fp = f(1), fm = f(-1);
  if (fp <= ft + 1e-14 && fp <= fm) {
    t = 1;
  } else if (fm <= ft + 1e-14) {
    t = -1;
  }
  int count = sphere_box_raw(a.pos + t * axis, r, b, margin, out);
  if (count == 0) return 0;
  const double other = t > 0 ? -1 : 1;
  if (std::abs(other - t) > 1e-9) {
    count += sphere_box_raw(a.pos + other * axis, r, b, margin, out + count);
  }
  return count;
}

namespace {

// Clips the convex polygon `poly` (n points) by the half-space dot(normal, p) <= offset.
int clip_polygon(const Vector3d* poly, int n, const Vector3d& normal, double offset,
                 Vector3d* result) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    const Vector3d& p = poly[i];
    const Vector3d& q = poly[(i + 1) % n];
    const double dp = normal.dot(p) - offset, dq = normal.dot(q) - offset;
    if (dp <= 0) result[count++] = p;
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
      result[count++] = p + (q - p) * (dp / (dp - dq));
    }
  }
  return count;
}

// Nearest points of the lines p1 + s d1 and p2 + t d2, s and t clipped to the segments
// [-l1, l1] and [-l2, l2].
void segment_points(const Vector3d& p1, const Vector3d& d1, double l1, const Vector3d& p2,
                    const Vector3d& d2, double l2, Vector3d* q1, Vector3d* q2) {
  const Vector3d w = p1 - p2;
  const double b = d1.dot(d2), d = d1.dot(w), e = d2.dot(w);
  const double den = 1 - b * b;
  double s = den > kMinValue ? (b * e - d) / den : 0;
  s = std::clamp(s, -l1, l1);
  double t = std::clamp(b * s + e, -l2, l2);
  s = std::clamp(b * t - d, -l1, l1);
  *q1 = p1 + s * d1;
  *q2 = p2 + t * d2;
}

}  // namespace

// Box and box by the separating axis theorem: the three face normals of each
// box and the nine edge-edge cross products. The axis of least penetration
// (largest separation) decides. A face axis gives the incident face of the
// other box clipped against the side planes of the reference face: up to 8
// contacts, each at its own depth (the true one). An edge-edge axis gives one
// contact midway between the nearest points of the two edges. Face axes are
// preferred unless an edge axis separates clearly more, which keeps resting
// boxes on their faces.
int box_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Matrix3d& ra = a.mat;
  const Matrix3d& rb = b.mat;
  const Vector3d& sa = a.size;
  const Vector3d& sb = b.size;
  const Vector3d t = b.pos - a.pos;
  const Matrix3d c = ra.transpose() * rb;  // c(i, j) = ai . bj
  Matrix3d ac;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) ac(i, j) = std::abs(c(i, j)) + 1e-12;
  }
  const Vector3d ta = ra.transpose() * t;

  double best = -INFINITY;
  int best_axis = -1;  // 0-2 faces of a, 3-5 faces of b, 6-14 edges
  Vector3d best_normal(1, 0, 0);
  auto consider = [&](double separation, int axis, const Vector3d& n) {
    if (separation > best) {
      best = separation;
      best_axis = axis;
      best_normal = n;
    }
  };
  for (int i = 0; i < 3; ++i) {
    const double rbox = sb[0] * ac(i, 0) + sb[1] * ac(i, 1) + sb[2] * ac(i, 2);
    consider(std::abs(ta[i]) - sa[i] - rbox, i, ra.col(i) * (ta[i] < 0 ? -1.0 : 1.0));
  }
  for (int j = 0; j < 3; ++j) {
    const double rbox = sa[0] * ac(0, j) + sa[1] * ac(1, j) + sa[2] * ac(2, j);
    const double proj = t.dot(rb.col(j));
    consider(std::abs(proj) - sb[j] - rbox, 3 + j, rb.col(j) * (proj < 0 ? -1.0 : 1.0));
  }
  if (best > margin) return 0;
  const double face_best = best;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      Vector3d n = ra.col(i).cross(rb.col(j));
      const double len = n.norm();
      if (len < 1e-6) continue;  // parallel edges: a face axis covers them
      n /= len;
      const double ra_r = sa[0] * std::abs(n.dot(ra.col(0))) + sa[1] * std::abs(n.dot(ra.col(1))) +
                          sa[2] * std::abs(n.dot(ra.col(2)));
      const double rb_r = sb[0] * std::abs(n.dot(rb.col(0))) + sb[1] * std::abs(n.dot(rb.col(1))) +
                          sb[2] * std::abs(n.dot(rb.col(2)));
      const double proj = t.dot(n);
      const double separation = std::abs(proj) - ra_r - rb_r;
      if (separation > margin) return 0;
      // Edge axes must beat the faces by a relative and absolute slack.
      if (separation > 0.95 * face_best + 1e-9 * (sa.maxCoeff() + sb.maxCoeff()) &&
          separation > best) {
        best = separation;
        best_axis = 6 + 3 * i + j;
        best_normal = n * (proj < 0 ? -1.0 : 1.0);
      }
    }
  }

  const Vector3d n = best_normal;  // from a to b
  if (best_axis >= 6) {
    // Edge-edge: the edge of a farthest along n and the edge of b farthest along -n.
    const int i = (best_axis - 6) / 3, j = (best_axis - 6) % 3;
    Vector3d pa = a.pos, pb = b.pos;
    for (int k = 0; k < 3; ++k) {
      if (k != i) pa += ra.col(k) * (sa[k] * (n.dot(ra.col(k)) > 0 ? 1.0 : -1.0));
      if (k != j) pb += rb.col(k) * (sb[k] * (n.dot(rb.col(k)) > 0 ? -1.0 : 1.0));
    }
    Vector3d qa, qb;
    segment_points(pa, ra.col(i), sa[i], pb, rb.col(j), sb[j], &qa, &qb);
    out->dist = best;
    out->normal = n;
    out->pos = 0.5 * (qa + qb);
    return 1;
  }

  // Face contact: reference box r (its face with outward normal rn), incident box s.
  const bool ref_is_a = best_axis < 3;
  const GeomShape& ref = ref_is_a ? a : b;
  const GeomShape& inc = ref_is_a ? b : a;
  const int ref_axis = ref_is_a ? best_axis : best_axis - 3;
  const Vector3d rn = ref_is_a ? n : Vector3d(-n);  // outward normal of the reference face
  // Incident face: the face of inc whose outward normal is most against rn.
  int inc_axis = 0;
  double most = -1;
  for (int k = 0; k < 3; ++k) {
    const double d = std::abs(inc.mat.col(k).dot(rn));
    if (d > most) {
      most = d;
      inc_axis = k;
    }
  }
  const double inc_sign = inc.mat.col(inc_axis).dot(rn) > 0 ? -1.0 : 1.0;
  const Vector3d inc_centre = inc.pos + inc.mat.col(inc_axis) * (inc_sign * inc.size[inc_axis]);
  const int u = (inc_axis + 1) % 3, v = (inc_axis + 2) % 3;
  const Vector3d eu = inc.mat.col(u) * inc.size[u], ev = inc.mat.col(v) * inc.size[v];
  std::array<Vector3d, 16> poly, next;
  poly[0] = inc_centre + eu + ev;
  poly[1] = inc_centre - eu + ev;
  poly[2] = inc_centre - eu - ev;
  poly[3] = inc_centre + eu - ev;
  int count = 4;
  // Side planes of the reference face.
  for (int k = 0; k < 3 && count > 0; ++k) {
    if (k == ref_axis) continue;
    const Vector3d side = ref.mat.col(k);
    const double centre = side.dot(ref.pos);
    count = clip_polygon(poly.data(), count, side, centre + ref.size[k], next.data());
    count = clip_polygon(next.data(), count, -side, -centre + ref.size[k], poly.data());
  }
  const double face_offset = rn.dot(ref.pos) + ref.size[ref_axis];
  int result = 0;
  for (int k = 0; k < count && result < 8; ++k) {
    const double dist = rn.dot(poly[k]) - face_offset;
    if (dist > margin) continue;
    out[result].dist = dist;
    out[result].normal = n;
    out[result].pos = poly[k] - rn * (0.5 * dist);
    ++result;
  }
  return result;
}

}  // namespace pliant::collision
