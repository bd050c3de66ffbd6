// Support functions of the convex geoms and the general convex pair by
// Minkowski portal refinement (MPR, G. Snethen, "XenoCollide", Game
// Programming Gems 7), the method MuJoCo 2.2.2 uses for every pair without an
// analytic function. Each geom is inflated by margin/2 so that shapes closer
// than the margin overlap; the depth found is then shifted back by the margin.
// convex_convex, the pair function, picks GJK and EPA (gjk_epa.cpp) or MPR by
// the nativeccd flag and, with multiccd, adds contacts (multi_contact.cpp,
// turned_contacts below).

#include <algorithm>
#include <cmath>

#include "engine/collision/pair.h"
#include "engine/rotation.h"

namespace pliant::collision {
namespace {

double sign_of(double x) { return x >= 0 ? 1.0 : -1.0; }

}  // namespace

// Hill climbing on the hull graph: from vertex `start`, move to any
// neighbour that is farther along `dir` until none is. On a convex hull a
// local maximum is global. Without a graph, scan every vertex from 0.
int hull_support_index(const HullView& hull, const Vector3d& dir, int start) {
  if (hull.neighbour_count == nullptr || hull.neighbour_count[0] == 0) {
    int best = 0;
    double best_dot = hull.vertices[0].dot(dir);
    for (int i = 1; i < hull.vertex_count; ++i) {
      const double d = hull.vertices[i].dot(dir);
      if (d > best_dot) {
        best_dot = d;
        best = i;
      }
    }
    return best;
  }
  int best = start;
  double best_dot = hull.vertices[start].dot(dir);
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

// Farthest point of each convex shape along a direction, in the geom frame:
//  sphere    r d/|d|, rounded as the ellipsoid with three equal semi-axes
//            (r d renormalised, times r), which MPR's rounding path follows
//  capsule   the end of the axis on d's side, plus the sphere term
//  ellipsoid s.^2 d / |s .* d|  (the point whose normal is d)
//  cylinder  rim point r (dx, dy)/|(dx, dy)| on the end disc on d's side
//  box       corner sign(d) .* s
//  mesh      hull vertex with the largest d . v
//  hfield    (a prism of the field) the vertex with the largest d . v among
//            the base's three when d points down, else the top's
Vector3d support_point(const GeomShape& g, const Vector3d& dir) {
  const Vector3d local = g.mat.transpose() * dir;
  const Vector3d& s = g.size;
  Vector3d p;
  switch (g.type) {
    case GeomType::kSphere: {
      const Vector3d scaled = local * s[0];
      const double n = scaled.norm();
      p = n < kMinValue ? Vector3d(s[0], 0, 0) : Vector3d(scaled * (s[0] / n));
      break;
    }
    case GeomType::kCapsule:
      p = local * s[0];
      p[2] += sign_of(local[2]) * s[1];
      break;
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
    case GeomType::kHfield: {
      // A prism of a height field: the base (0-2) for a downward direction,
      // else the top (3-5); the first of equal vertices.
      if (g.prism == nullptr) {
        p.setZero();
        break;
      }
      const int start = local[2] < 0 ? 0 : 3;
      int best = start;
      double best_dot = g.prism[start].dot(local);
      for (int i = start + 1; i < start + 3; ++i) {
        const double d = g.prism[i].dot(local);
        if (d > best_dot) {
          best_dot = d;
          best = i;
        }
      }
      p = g.prism[best];
      break;
    }
    default:
      p.setZero();
  }
  return g.pos + g.mat * p;
}

// Plane and mesh. The first contact is the hull vertex deepest below the
// plane (hill climbing). Then the neighbours of that vertex along hull edges,
// in hull order, that are closer to the plane than the margin and at least
// 0.3 bounding radii from the first contact's position, up to three contacts
// in all, so a mesh resting on a face is supported at several corners.
int plane_mesh(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  if (b.hull.vertex_count == 0) return 0;
  const Vector3d n = a.mat.col(2);
  const Vector3d local = b.mat.transpose() * (-n);
  const int best = hull_support_index(b.hull, local);
  const Vector3d deepest = b.pos + b.mat * b.hull.vertices[best];
  const double dist = n.dot(deepest - a.pos);
  if (dist > margin) return 0;
  out[0].dist = dist;
  out[0].pos = deepest - n * (0.5 * dist);
  out[0].normal = n;
  int count = 1;
  if (b.hull.neighbour_count == nullptr) return count;
  // A vertex v is within the margin when its height n.(pos + R v - plane) is
  // below it, i.e. (-n in the geom frame).v > n.(pos - plane) - margin.
  const double threshold = n.dot(b.pos - a.pos) - margin;
  const int* nbr = b.hull.neighbours + b.hull.neighbour_adr[best];
  for (int k = 0; k < b.hull.neighbour_count[best] && count < 3; ++k) {
    const Vector3d& v = b.hull.vertices[nbr[k]];
    if (!(local.dot(v) > threshold)) continue;
    const Vector3d point = b.pos + b.mat * v;
    if ((point - out[0].pos).norm() < 0.3 * b.rbound) continue;
    RawContact& c = out[count++];
    c.dist = n.dot(point - a.pos);
    c.pos = point - n * (0.5 * c.dist);
    c.normal = n;
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
  double inflate_a, inflate_b;  // each shape grows by this along the query direction

  // dir is unit.
  SupportPoint operator()(const Vector3d& dir) const {
    SupportPoint s;
    s.pa = support_point(a, dir) + inflate_a * dir;
    s.pb = support_point(b, -dir) - inflate_b * dir;
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

// Ellipsoid (semi-axes s) surface normal for a local point p inside it: march
// along the current normal n from p to the surface, take the surface normal
// there, and repeat until it changes by less than 1e-6 (at most 30 rounds).
// The fixed point is the surface point whose normal line passes through p.
// False when the first round already finds no surface ahead.
bool ellipsoid_normal_inside(const Vector3d& p, const Vector3d& s, Vector3d* n) {
  const Vector3d inv_s2 = s.cwiseProduct(s).cwiseInverse();
  const double c = p.cwiseProduct(p).dot(inv_s2) - 1;
  if (c > 0) return false;
  Vector3d dir = *n;
  normalize_or_x(dir);
  for (int iteration = 0; iteration < 30; ++iteration) {
    // |p + x dir|_ellipsoid = 1: A x^2 + 2 B x + c = 0, the root ahead of p.
    const double qa = dir.cwiseProduct(dir).dot(inv_s2);
    const double qb = p.cwiseProduct(dir).dot(inv_s2);
    const double det = qb * qb - qa * c;
    if (det < kMinValue || qa < kMinValue) return iteration > 0;
    const double x = (-qb + std::sqrt(det)) / qa;
    if (x < 0) return iteration > 0;
    Vector3d next = (p + x * dir).cwiseProduct(inv_s2);
    normalize_or_x(next);
    const double change = (next - dir).norm();
    dir = next;
    *n = dir;
    if (change < 1e-6) break;
  }
  *n = dir;
  return true;
}

// Ellipsoid normal for a local point p outside it: the nearest surface point
// is p / (1 + lambda / s^2) with lambda > 0 solving
// sum p_i^2 s_i^2 / (s_i^2 + lambda)^2 = 1 (Newton from lambda = 0, steps
// below 1e-6 or residual below 1e-6 stop it, at most 30); its normal is
// proportional to p / (s^2 + lambda).
void ellipsoid_normal_outside(const Vector3d& p, const Vector3d& s, Vector3d* n) {
  const Vector3d s2 = s.cwiseProduct(s);
  const Vector3d ps2 = p.cwiseProduct(p).cwiseProduct(s2);
  double lambda = 0;
  for (int iteration = 0; iteration < 30; ++iteration) {
    const Vector3d r = (s2.array() + lambda).inverse();
    const Vector3d r2 = r.cwiseProduct(r);
    const double value = ps2.dot(r2) - 1;
    if (value < 1e-6) break;
    const double slope = -2 * ps2.dot(r2.cwiseProduct(r));
    if (slope > -kMinValue) break;
    const double step = -value / slope;
    if (step < 1e-6) break;
    lambda += step;
  }
  *n = p.cwiseQuotient((s2.array() + lambda).matrix());
}

}  // namespace

// Outward surface normal of a smooth geom g at the world point x, replacing
// the normal guess *n (world, outward from g). Spheres: radial. Capsules:
// from the nearest axis point. Ellipsoids: from the nearest surface point
// (above). Cylinders: radial, only when x is on the curved side (|z| within
// 95% of the half-length and the flat end not 4x closer than the curved
// wall). Other shapes keep the guess; returns whether it was replaced.
bool smooth_surface_normal(const GeomShape& g, const Vector3d& x, Vector3d* n) {
  const Vector3d p = g.mat.transpose() * (x - g.pos);
  Vector3d local = g.mat.transpose() * *n;
  const Vector3d& s = g.size;
  switch (g.type) {
    case GeomType::kSphere:
      local = p;
      break;
    case GeomType::kCapsule:
      local = p;
      local[2] = p[2] < -s[1] ? p[2] + s[1] : (p[2] > s[1] ? p[2] - s[1] : 0.0);
      break;
    case GeomType::kEllipsoid: {
      if (s[0] < kMinValue || s[1] < kMinValue || s[2] < kMinValue) return false;
      const double e = p.cwiseQuotient(s).squaredNorm();
      if (e <= 1) {
        if (!ellipsoid_normal_inside(p, s, &local)) return false;
      } else {
        ellipsoid_normal_outside(p, s, &local);
      }
      break;
    }
    case GeomType::kCylinder: {
      if (std::abs(p[2]) > 0.95 * s[1]) return false;
      const double to_flat = std::abs(s[1] - std::abs(p[2]));
      const double to_round = std::abs(s[0] - std::hypot(p[0], p[1]));
      if (to_flat < 0.25 * to_round) return false;
      local = Vector3d(p[0], p[1], 0);
      break;
    }
    default:
      return false;
  }
  normalize_or_x(local);
  *n = g.mat * local;
  return true;
}

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
// mpr_penetration reports dist = -depth; convex_convex inflates both shapes by
// margin/2 and reports dist = margin - depth.
int mpr_penetration(const GeomShape& a, const Vector3d& centre_a, double inflate_a,
                    const GeomShape& b, const Vector3d& centre_b, double inflate_b,
                    RawContact* out) {
  const MinkowskiDifference support{a, b, inflate_a, inflate_b};
  const double tolerance = a.mpr_tolerance;
  const int max_iterations = a.mpr_iterations;
  SupportPoint p[4];
  p[0].pa = centre_a;
  p[0].pb = centre_b;
  p[0].v = centre_a - centre_b;
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
    out->dist = -depth;
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
  out->dist = -depth;
  out->pos = (pa + pb) * (0.5 / sum);
  if (!out->pos.allFinite()) {
    // Degenerate tetrahedron (extreme aspect ratios): weight the portal
    // vertices by the barycentric coordinates of the nearest point w instead.
    const Vector3d u = barycentric_of(w, p[1].v, p[2].v, p[3].v);
    out->pos = 0.5 * (u[0] * (p[1].pa + p[1].pb) + u[1] * (p[2].pa + p[2].pb) +
                      u[2] * (p[3].pa + p[3].pb));
  }
  // Normal: towards the nearest point w of the final portal, then replaced by
  // the outward surface normal of each smooth geom at the contact point; with
  // two smooth geoms the normal is (n_a - n_b) normalised.
  Vector3d na = w / depth, nb = -na;
  const bool fixed_a = smooth_surface_normal(a, out->pos, &na);
  const bool fixed_b = smooth_surface_normal(b, out->pos, &nb);
  if (fixed_a && fixed_b) {
    out->normal = na - nb;
    normalize_or_x(out->normal);
  } else if (fixed_b) {
    out->normal = -nb;
  } else {
    out->normal = na;
  }
  if (!out->pos.allFinite() || !out->normal.allFinite() || !std::isfinite(out->dist)) return 0;
  return 1;
}

namespace {

bool is_box_or_mesh(const GeomShape& g) {
  return g.type == GeomType::kBox || g.type == GeomType::kMesh;
}

// One contact (several for two polytopes when max_contacts > 1) by the
// pair's method, the margin added back. `climb` carries a mesh's last
// support vertex from call to call, as 3.3.8 keeps it in its collision
// objects for the whole pair.
int contacts_by_method(const GeomShape& a, const GeomShape& b, double margin, RawContact* out,
                       int max_contacts, int* climb) {
  const int n = a.native_ccd ? ccd_penetration(a, a.pos, 0.5 * margin, b, b.pos, 0.5 * margin, out,
                                               max_contacts, climb)
                             : mpr_penetration(a, a.pos, 0.5 * margin, b, b.pos, 0.5 * margin, out);
  for (int k = 0; k < n; ++k) out[k].dist = margin + out[k].dist;
  return n;
}

// The frame turned by rot about `origin`: mat <- rot mat, pos moved so that
// origin stays put; every sum in 3.3.8's order.
void turn_about(const Vector3d& origin, const Matrix3d& rot, Matrix3d& mat, Vector3d& pos) {
  Matrix3d turned;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      turned(i, j) = rot(i, 0) * mat(0, j) + rot(i, 1) * mat(1, j) + rot(i, 2) * mat(2, j);
    }
  }
  mat = turned;
  const Vector3d rel(origin[0] - pos[0], origin[1] - pos[1], origin[2] - pos[2]);
  Vector3d moved;
  for (int i = 0; i < 3; ++i) {
    moved[i] = rot(i, 0) * rel[0] + rot(i, 1) * rel[1] + rot(i, 2) * rel[2];
    moved[i] -= rel[i];
    pos[i] -= moved[i];
  }
}

// MuJoCo 3.3.8's multiccd for the pairs the polygon clipping does not
// cover: a turns by +-1e-3 rad about each tangent of the first contact at
// its position, b by the opposite, and each contact found so that lies
// farther than 1e-3 of the smaller bounding radius from all kept is kept,
// at the first contact's distance.
int turned_contacts(const GeomShape& a, const GeomShape& b, double margin, int* climb,
                    RawContact* out) {
  const Matrix3d frame = contact_frame(out[0].normal, Vector3d::Zero());
  const Vector3d t1 = frame.row(1), t2 = frame.row(2);
  const double tolerance = 1e-3 * std::min(a.rbound, b.rbound);
  const Vector3d origin = out[0].pos;
  int count = 1;
  const Vector3d* axes[2] = {&t1, &t2};
  for (const Vector3d* axis : axes) {
    for (const double angle : {-1e-3, 1e-3}) {
      const Matrix3d rot = quat_matrix(axis_angle_quat(*axis, angle));
      GeomShape ta = a, tb = b;
      turn_about(origin, rot, ta.mat, ta.pos);
      turn_about(origin, rot.transpose(), tb.mat, tb.pos);
      RawContact found;
      if (contacts_by_method(ta, tb, margin, &found, 1, climb) != 1) continue;
      bool distinct = true;
      for (int k = 0; k < count && distinct; ++k) {
        const Vector3d d(out[k].pos[0] - found.pos[0], out[k].pos[1] - found.pos[1],
                         out[k].pos[2] - found.pos[2]);
        distinct = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) > tolerance;
      }
      if (!distinct) continue;
      found.dist = out[0].dist;
      out[count++] = found;
    }
  }
  return count;
}

}  // namespace

int convex_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  // Two boxes or meshes without margin may give several contacts at once
  // (GJK and EPA with multiccd); other pairs one, which multiccd then turns
  // the geoms to add to.
  const bool polytopes = !(margin > 0) && is_box_or_mesh(a) && is_box_or_mesh(b);
  const int max_contacts = polytopes && a.multiccd ? 4 : 1;
  int climb[2] = {0, 0};
  const int n = contacts_by_method(a, b, margin, out, max_contacts, climb);
  if (!a.multiccd || n != 1 || (a.native_ccd && max_contacts > 1)) return n;
  const auto smooth = [](const GeomShape& g) {
    return g.type == GeomType::kSphere || g.type == GeomType::kEllipsoid;
  };
  if (smooth(a) || smooth(b)) return n;
  return turned_contacts(a, b, margin, climb, out);
}

}  // namespace pliant::collision
