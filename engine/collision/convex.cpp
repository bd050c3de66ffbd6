// Support functions of the convex geoms and the general convex pair by
// Minkowski portal refinement (MPR, G. Snethen, "XenoCollide", Game
// Programming Gems 7), the method MuJoCo 2.2.2 uses for every pair without an
// analytic function. Each geom is inflated by margin/2 so that shapes closer
// than the margin overlap; the depth found is then shifted back by the margin.

#include <algorithm>
#include <cmath>

#include "engine/collision/pair.h"

namespace pliant::collision {
namespace {

double sign_of(double x) { return x >= 0 ? 1.0 : -1.0; }

// Hill climbing on the hull graph: from vertex 0, move to any neighbour that
// is farther along `dir` until none is. On a convex hull a local maximum is
// global. Without a graph, scan every vertex.
int hull_support_index(const HullView& hull, const Vector3d& dir) {
  int best = 0;
  double best_dot = hull.vertices[0].dot(dir);
  if (hull.neighbour_count == nullptr || hull.neighbour_count[0] == 0) {
    for (int i = 1; i < hull.vertex_count; ++i) {
      const double d = hull.vertices[i].dot(dir);
      if (d > best_dot) {
        best_dot = d;
        best = i;
      }
    }
    return best;
  }
  for (bool moved = true; moved;) {
    moved = false;
    const int* nbr = hull.neighbours + hull.neighbour_adr[best];
    const int count = hull.neighbour_count[best];
    for (int k = 0; k < count; ++k) {
      const double d = hull.vertices[nbr[k]].dot(dir);
      if (d > best_dot) {
        best_dot = d;
        best = nbr[k];
        moved = true;
      }
    }
  }
  return best;
}

}  // namespace

// Farthest point of each convex shape along a direction, in the geom frame:
//  sphere    r d/|d|
//  capsule   the end of the axis on d's side, plus the sphere term
//  ellipsoid s.^2 d / |s .* d|  (the point whose normal is d)
//  cylinder  rim point r (dx, dy)/|(dx, dy)| on the end disc on d's side
//  box       corner sign(d) .* s
//  mesh      hull vertex with the largest d . v
Vector3d support_point(const GeomShape& g, const Vector3d& dir) {
  const Vector3d local = g.mat.transpose() * dir;
  const Vector3d& s = g.size;
  Vector3d p;
  switch (g.type) {
    case GeomType::kSphere: {
      const double n = local.norm();
      p = n < kMinValue ? Vector3d(s[0], 0, 0) : Vector3d(local * (s[0] / n));
      break;
    }
    case GeomType::kCapsule: {
      const double n = local.norm();
      p = n < kMinValue ? Vector3d(s[0], 0, 0) : Vector3d(local * (s[0] / n));
      p[2] += sign_of(local[2]) * s[1];
      break;
    }
    case GeomType::kEllipsoid: {
      const Vector3d scaled = s.cwiseProduct(local);
      const double n = scaled.norm();
      p = n < kMinValue ? Vector3d(s[0], 0, 0) : Vector3d(s.cwiseProduct(scaled) / n);
      break;
    }
    case GeomType::kCylinder: {
      const double n = std::hypot(local[0], local[1]);
      p = n < kMinValue ? Vector3d(0, 0, 0) : Vector3d(local[0] * s[0] / n, local[1] * s[0] / n, 0);
      p[2] = sign_of(local[2]) * s[1];
      break;
    }
    case GeomType::kBox:
      p = Vector3d(sign_of(local[0]) * s[0], sign_of(local[1]) * s[1], sign_of(local[2]) * s[2]);
      break;
    case GeomType::kMesh:
      p = g.hull.vertex_count > 0 ? g.hull.vertices[hull_support_index(g.hull, local)]
                                  : Vector3d::Zero();
      break;
    default:
      p.setZero();
  }
  return g.pos + g.mat * p;
}

// Plane and mesh: the hull vertex deepest below the plane, then its hull
// neighbours that are within the margin too, up to three contacts, so a mesh
// resting on a face is supported at several corners.
int plane_mesh(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  if (b.hull.vertex_count == 0) return 0;
  const Vector3d n = a.mat.col(2);
  const Vector3d local = b.mat.transpose() * (-n);
  const int best = hull_support_index(b.hull, local);
  auto emit = [&](int v, RawContact* c) {
    const Vector3d point = b.pos + b.mat * b.hull.vertices[v];
    const double dist = n.dot(point - a.pos);
    if (dist > margin) return 0;
    c->dist = dist;
    c->pos = point - n * (0.5 * dist);
    c->normal = n;
    return 1;
  };
  int count = emit(best, out);
  if (count == 0 || b.hull.neighbour_count == nullptr) return count;
  const int* nbr = b.hull.neighbours + b.hull.neighbour_adr[best];
  for (int k = 0; k < b.hull.neighbour_count[best] && count < 3; ++k) {
    count += emit(nbr[k], out + count);
  }
  return count;
}

namespace {

constexpr double kEps = 2.220446049250313e-16;  // double epsilon: "zero" in MPR's tests

bool is_zero(double x) { return std::abs(x) < kEps; }
// x > 0 or numerically zero.
bool non_negative(double x) { return is_zero(x) || x > 0; }

// A point of the Minkowski difference a - b with the two shape points it came from.
struct SupportPoint {
  Vector3d v, pa, pb;
};

struct MinkowskiDifference {
  const GeomShape& a;
  const GeomShape& b;
  double inflate;  // each shape grows by this along the query direction

  // dir is unit.
  SupportPoint operator()(const Vector3d& dir) const {
    SupportPoint s;
    s.pa = support_point(a, dir) + inflate * dir;
    s.pb = support_point(b, -dir) - inflate * dir;
    s.v = s.pa - s.pb;
    return s;
  }
};

Vector3d unit(Vector3d v) {
  const double n = v.norm();
  return n > 0 ? Vector3d(v / n) : v;
}

// Nearest point of triangle (a, b, c) to the origin.
Vector3d nearest_on_triangle(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  const Vector3d ab = b - a, ac = c - a, ap = -a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vector3d bp = -b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const Vector3d cp = -c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  const double denom = 1 / (va + vb + vc);
  return a + ab * (vb * denom) + ac * (vc * denom);
}

// Barycentric coordinates of point x (in the plane of the triangle a, b, c).
Vector3d barycentric_of(const Vector3d& x, const Vector3d& a, const Vector3d& b,
                        const Vector3d& c) {
  const Vector3d n = (b - a).cross(c - a);
  const double area = n.squaredNorm();
  if (!(area > 0)) return Vector3d(1.0 / 3, 1.0 / 3, 1.0 / 3);
  const double wa = (b - x).cross(c - x).dot(n) / area;
  const double wb = (c - x).cross(a - x).dot(n) / area;
  return Vector3d(wa, wb, 1 - wa - wb);
}

}  // namespace

// MPR on the Minkowski difference M = a - b (each shape inflated by margin/2),
// following the steps of libccd's MPR that MuJoCo 2.2.2 calls, so that the
// approximate answers agree:
//  1. Portal discovery: v0 = centre difference (nudged off the origin), v1 the
//     support towards the origin, v2 the support normal to (v0, v1), v3 found
//     by swapping portal vertices until the ray from v0 through the origin
//     passes through the portal (v1, v2, v3). A support short of the origin
//     means no contact.
//  2. Refinement: replace portal vertices by the support along the portal
//     normal until the portal is beyond the origin (contact) or the support
//     gains less than the tolerance (no contact).
//  3. Penetration: keep refining until the smallest gain is within tolerance;
//     the nearest point w of the portal triangle to the origin gives the depth
//     |w|, the portal's outward normal is the contact normal (from a to b:
//     M's outward normal near the origin); the position is the midpoint of
//     the shape points weighted by the origin's barycentric coordinates in the
//     tetrahedron (v0, v1, v2, v3).
// dist = margin - depth.
int convex_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const MinkowskiDifference support{a, b, 0.5 * margin};
  const double tolerance = a.mpr_tolerance;
  const int max_iterations = a.mpr_iterations;
  SupportPoint p[4];
  p[0].pa = a.pos;
  p[0].pb = b.pos;
  p[0].v = a.pos - b.pos;
  if (p[0].v.isZero(0)) p[0].v[0] += 10 * kEps;

  // 1. Portal discovery.
  Vector3d dir = unit(-p[0].v);
  p[1] = support(dir);
  if (!(p[1].v.dot(dir) > 0) || is_zero(p[1].v.dot(dir))) return 0;
  dir = p[0].v.cross(p[1].v);
  if (is_zero(dir.squaredNorm())) {
    if (p[1].v.isZero(0)) return 0;  // touching at one point: no normal
    // Origin on the segment v0-v1: depth and normal along v1.
    Vector3d n = p[1].v;
    const double depth = n.norm();
    n /= depth;
    out->dist = margin - depth;
    out->normal = n;
    out->pos = 0.5 * (p[1].pa + p[1].pb);
    return 1;
  }
  dir = unit(dir);
  p[2] = support(dir);
  if (!(p[2].v.dot(dir) > 0) || is_zero(p[2].v.dot(dir))) return 0;
  dir = unit((p[1].v - p[0].v).cross(p[2].v - p[0].v));
  if (dir.dot(p[0].v) > 0) {
    std::swap(p[1], p[2]);
    dir = -dir;
  }
  for (int guard = 0;; ++guard) {
    if (guard > 1000) return 0;
    p[3] = support(dir);
    const double reach = p[3].v.dot(dir);
    if (!(reach > 0) || is_zero(reach)) return 0;
    bool moved = false;
    double t = p[1].v.cross(p[3].v).dot(p[0].v);
    if (t < 0 && !is_zero(t)) {
      p[2] = p[3];
      moved = true;
    } else {
      t = p[3].v.cross(p[2].v).dot(p[0].v);
      if (t < 0 && !is_zero(t)) {
        p[1] = p[3];
        moved = true;
      }
    }
    if (!moved) break;
    dir = unit((p[1].v - p[0].v).cross(p[2].v - p[0].v));
  }

  auto portal_dir = [&]() { return unit((p[2].v - p[1].v).cross(p[3].v - p[1].v)); };
  auto reached = [&](const SupportPoint& p4, const Vector3d& n) {
    const double d4 = p4.v.dot(n);
    const double gain = std::min({d4 - p[1].v.dot(n), d4 - p[2].v.dot(n), d4 - p[3].v.dot(n)});
    return std::abs(gain - tolerance) < kEps || gain < tolerance;
  };
  // Replace a portal vertex by p4, keeping the ray from v0 through the origin inside.
  auto expand = [&](const SupportPoint& p4) {
    const Vector3d c = p4.v.cross(p[0].v);
    if (p[1].v.dot(c) > 0) {
      if (p[2].v.dot(c) > 0) {
        p[1] = p4;
      } else {
        p[3] = p4;
      }
    } else if (p[3].v.dot(c) > 0) {
      p[2] = p4;
    } else {
      p[1] = p4;
    }
  };

  // 2. Refinement until the portal is beyond the origin.
  for (int guard = 0;; ++guard) {
    if (guard > 1000) return 0;
    dir = portal_dir();
    if (non_negative(dir.dot(p[1].v))) break;
    const SupportPoint p4 = support(dir);
    if (!non_negative(p4.v.dot(dir)) || reached(p4, dir)) return 0;
    expand(p4);
  }

  // 3. Penetration.
  for (int iteration = 0;; ++iteration) {
    dir = portal_dir();
    const SupportPoint p4 = support(dir);
    if (reached(p4, dir) || iteration > max_iterations) break;
    expand(p4);
  }
  const Vector3d w = nearest_on_triangle(p[1].v, p[2].v, p[3].v);
  const double depth = w.norm();
  if (is_zero(depth)) return 0;
  // Barycentric coordinates of the origin in the tetrahedron (v0, v1, v2, v3).
  double weight[4] = {p[1].v.cross(p[2].v).dot(p[3].v), p[3].v.cross(p[2].v).dot(p[0].v),
                      p[0].v.cross(p[1].v).dot(p[3].v), p[2].v.cross(p[1].v).dot(p[0].v)};
  double sum = weight[0] + weight[1] + weight[2] + weight[3];
  if (is_zero(sum) || sum < 0) {
    dir = portal_dir();
    weight[0] = 0;
    weight[1] = p[2].v.cross(p[3].v).dot(dir);
    weight[2] = p[3].v.cross(p[1].v).dot(dir);
    weight[3] = p[1].v.cross(p[2].v).dot(dir);
    sum = weight[1] + weight[2] + weight[3];
  }
  Vector3d pa(0, 0, 0), pb(0, 0, 0);
  for (int k = 0; k < 4; ++k) {
    pa += weight[k] * p[k].pa;
    pb += weight[k] * p[k].pb;
  }
  out->dist = margin - depth;
  out->normal = portal_dir();
  out->pos = (pa + pb) * (0.5 / sum);
  if (!out->pos.allFinite()) {
    // Degenerate tetrahedron (extreme aspect ratios): weight the portal
    // vertices by the barycentric coordinates of the nearest point w instead.
    const Vector3d u = barycentric_of(w, p[1].v, p[2].v, p[3].v);
    out->pos = 0.5 * (u[0] * (p[1].pa + p[1].pb) + u[1] * (p[2].pa + p[2].pb) +
                      u[2] * (p[3].pa + p[3].pb));
  }
  if (!out->pos.allFinite() || !out->normal.allFinite() || !std::isfinite(out->dist)) return 0;
  return 1;
}

}  // namespace pliant::collision
