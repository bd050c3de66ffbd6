// General convex collision by GJK and EPA: MuJoCo 3.3.8's default method for
// the pairs without an analytic function (its `nativeccd` flag; with the
// flag off it uses MPR, convex.cpp). docs/physics.md §7 states the rules.
//
// GJK (Gilbert, Johnson, Keerthi) walks a simplex of the Minkowski difference
// a - b towards the origin: the point of the simplex nearest the origin gives
// the next search direction, until the support plane separates the origin
// (no contact), the simplex encloses the origin (contact), or the duality gap
// x.(x - s) falls below tolerance^2 / 2 (x is the nearest point). EPA
// (expanding polytope) then grows a polytope inside a - b from the enclosing
// simplex, always at the face nearest the origin, until the support along
// that face's normal lies within the tolerance of the face (1e-15 for two
// polytopes without margin, whose answer is then exact): that face gives the
// depth, the normal and, by the barycentric coordinates of the origin's
// projection, a witness point on each shape.
//
// Spheres and capsules first meet as their cores (the centre, the axis
// segment): when the cores are farther apart than the tolerance, the radii
// are added to the cores' distance and no polytope is needed.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "engine/collision/pair.h"

namespace pliant::collision {
namespace {

constexpr double kTiny = 1e-15;  // degeneracy threshold for lengths and products

// Plain members, set by whoever makes one: a polytope holds hundreds.
struct Vertex {
  Vector3d v, pa, pb;  // v = pa - pb
  int ia, ib;          // the box corner or hull vertex each came from (-1: none kept)
};

// R^T d and R p + x, each entry's sum in the order 3.3.8 takes it.
Vector3d to_local(const Matrix3d& r, const Vector3d& d) {
  return {r(0, 0) * d[0] + r(1, 0) * d[1] + r(2, 0) * d[2],
          r(0, 1) * d[0] + r(1, 1) * d[1] + r(2, 1) * d[2],
          r(0, 2) * d[0] + r(1, 2) * d[1] + r(2, 2) * d[2]};
}
Vector3d to_world(const Matrix3d& r, const Vector3d& p, const Vector3d& x) {
  Vector3d w(r(0, 0) * p[0] + r(0, 1) * p[1] + r(0, 2) * p[2],
             r(1, 0) * p[0] + r(1, 1) * p[1] + r(1, 2) * p[2],
             r(2, 0) * p[0] + r(2, 1) * p[1] + r(2, 2) * p[2]);
  return w + x;
}

// The vertex farthest along local `dir`, each dot product summed x, y, z in
// turn: vertex `start` (the previous search's answer) if it is among the
// farthest, else the first of them.
int scan_vertices(const Vector3d* vertices, int count, const Vector3d& dir, int start) {
  int best = start;
  double best_dot = dot3(dir, vertices[start]);
  for (int i = 0; i < count; ++i) {
    const double d = dot3(dir, vertices[i]);
    if (d > best_dot) {
      best_dot = d;
      best = i;
    }
  }
  return best;
}

// The hull vertex farthest along local `dir` by 3.3.8's climb for GJK and
// EPA: each pass scans the neighbours of the pass's vertex (not the vertex
// itself), keeping the first of equal maxima, from `start`, until a pass
// ends where it began; each dot product summed x, y, z in turn. (MPR and the
// plane-mesh pair climb as 3.3.8's older support does, which compares the
// start itself first: hull_support_index in convex.cpp.)
int climb_hull(const HullView& hull, const Vector3d& dir, int start) {
  const auto along = [&](int i) { return dot3(dir, hull.vertices[i]); };
  if (hull.neighbour_count == nullptr || hull.neighbour_count[0] == 0) {
    return scan_vertices(hull.vertices, hull.vertex_count, dir, 0);
  }
  double best_dot = -std::numeric_limits<float>::max();
  int best = start;
  const auto pass = [&](int from) {
    const int* nbr = hull.neighbours + hull.neighbour_adr[from];
    for (int k = 0; k < hull.neighbour_count[from]; ++k) {
      const double d = along(nbr[k]);
      if (d > best_dot) {
        best_dot = d;
        best = nbr[k];
      }
    }
  };
  pass(start);
  // A start above all its neighbours is the hull's only highest vertex: the
  // walk would come back to it in two more passes.
  if (along(start) > best_dot) return start;
  for (int from = start; best != from;) {
    from = best;
    pass(from);
  }
  return best;
}

// Which vertex of a box (corner bits x, y, z positive) or mesh the support
// along world `dir` is; -1 for other shapes. A small mesh's index is into
// its vertices (HullView::scan_vertices), scanned with vertex `climb` kept
// in a tie, a larger one's into its hull, climbed from vertex `climb`.
int vertex_index(const GeomShape& g, const Vector3d& dir, int climb) {
  const Vector3d local = to_local(g.mat, dir);
  if (g.type == GeomType::kBox) {
    return (local[0] >= 0 ? 1 : 0) | (local[1] >= 0 ? 2 : 0) | (local[2] >= 0 ? 4 : 0);
  }
  if (g.type == GeomType::kMesh && g.hull.scan_vertices != nullptr) {
    return scan_vertices(g.hull.scan_vertices, g.hull.scan_count, local, climb);
  }
  if (g.type == GeomType::kMesh && g.hull.vertex_count > 0) {
    return climb_hull(g.hull, local, climb);
  }
  return -1;
}

bool is_round(const GeomShape& g) {
  return g.type == GeomType::kSphere || g.type == GeomType::kCapsule;
}

// Polytopes (a support is a vertex of a finite set): boxes, meshes, prisms.
bool is_polytope(const GeomShape& g) {
  return g.type == GeomType::kBox || g.type == GeomType::kMesh || g.type == GeomType::kHfield;
}

// The core of a sphere (its centre) or capsule (its axis segment).
Vector3d core_support(const GeomShape& g, const Vector3d& dir) {
  if (g.type == GeomType::kSphere) return g.pos;
  const Vector3d axis = g.mat.col(2);
  return g.pos + (axis.dot(dir) >= 0 ? g.size[1] : -g.size[1]) * axis;
}

// The support of a smooth shape or a box along unit `dir`, rounded as
// 3.3.8's GJK and EPA round it (a sphere needs no frame; a direction's
// length is a reciprocal times; the frame's sums in its order): on a curved
// shape GJK's and EPA's choices turn on the last bit of each support.
// Meshes and height-field prisms: support_point's vertex.
Vector3d ccd_support(const GeomShape& g, const Vector3d& dir) {
  const Vector3d& s = g.size;
  switch (g.type) {
    case GeomType::kSphere:
      return {s[0] * dir[0] + g.pos[0], s[0] * dir[1] + g.pos[1], s[0] * dir[2] + g.pos[2]};
    case GeomType::kCapsule: {
      const Vector3d local = to_local(g.mat, dir);
      Vector3d p = local * s[0];
      p[2] += local[2] >= 0 ? s[1] : -s[1];
      return to_world(g.mat, p, g.pos);
    }
    case GeomType::kEllipsoid: {
      Vector3d p = to_local(g.mat, dir).cwiseProduct(s);
      const double n2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
      if (n2 < kTiny * kTiny) {
        return {g.mat(0, 0) * s[0] + g.pos[0], g.mat(1, 0) * s[0] + g.pos[1],
                g.mat(2, 0) * s[0] + g.pos[2]};
      }
      const double inverse = 1 / std::sqrt(n2);
      for (int k = 0; k < 3; ++k) p[k] *= inverse * s[k];
      return to_world(g.mat, p, g.pos);
    }
    case GeomType::kCylinder: {
      const Vector3d local = to_local(g.mat, dir);
      const double n2 = local[0] * local[0] + local[1] * local[1];
      const double scale = n2 >= kTiny * kTiny ? s[0] / std::sqrt(n2) : 0;
      const Vector3d p(scale * local[0], scale * local[1], local[2] >= 0 ? s[1] : -s[1]);
      return to_world(g.mat, p, g.pos);
    }
    case GeomType::kBox: {
      const Vector3d local = to_local(g.mat, dir);
      const Vector3d p(local[0] >= 0 ? s[0] : -s[0], local[1] >= 0 ? s[1] : -s[1],
                       local[2] >= 0 ? s[2] : -s[2]);
      return to_world(g.mat, p, g.pos);
    }
    default:
      return support_point(g, dir);
  }
}

// ccd_support, from the hull vertex vertex_index found when there is one:
// the climb over the hull is most of a mesh's support, done once.
Vector3d support_at(const GeomShape& g, const Vector3d& dir, int index) {
  if (g.type == GeomType::kMesh && index >= 0) {
    const Vector3d* vertices = g.hull.scan_vertices ? g.hull.scan_vertices : g.hull.vertices;
    return to_world(g.mat, vertices[index], g.pos);
  }
  return ccd_support(g, dir);
}

// Supports of a - b; each shape grows by its inflation along the direction,
// and a round shape may stand for its core.
struct Minkowski {
  const GeomShape& a;
  const GeomShape& b;
  double inflate_a = 0, inflate_b = 0;
  bool core_a = false, core_b = false;
  bool track_vertices = false;  // record vertex_index of each support
  // A mesh's next hull climb starts at its last support vertex, as MuJoCo
  // 3.3.8 does within one query: successive directions are close, so the
  // climb is short.
  mutable int climb_a = 0, climb_b = 0;

  // dir is unit.
  Vertex operator()(const Vector3d& dir) const {
    Vertex s;
    const int va = track_vertices || is_mesh(a) ? vertex_index(a, dir, climb_a) : -1;
    const int vb = track_vertices || is_mesh(b) ? vertex_index(b, -dir, climb_b) : -1;
    if (is_mesh(a) && va >= 0) climb_a = va;
    if (is_mesh(b) && vb >= 0) climb_b = vb;
    s.ia = track_vertices ? va : -1;
    s.ib = track_vertices ? vb : -1;
    s.pa = (core_a ? core_support(a, dir) : support_at(a, dir, va)) + inflate_a * dir;
    s.pb = (core_b ? core_support(b, -dir) : support_at(b, -dir, vb)) - inflate_b * dir;
    s.v = s.pa - s.pb;
    return s;
  }

  static bool is_mesh(const GeomShape& g) { return g.type == GeomType::kMesh; }
};

// ---- the simplex's nearest point to the origin ----
//
// By signed volumes (Montanari, Petrinic and Barbieri, 2017), as 3.3.8's
// GJK computes it, with its choices where the origin's projection leaves
// the simplex: a segment then keeps its second point; a triangle or a
// tetrahedron the nearest of the sub-simplices opposite the corners whose
// signed volume disagrees in sign. GJK's path on a curved shape follows
// these choices.

// Whether a and b are both positive or both negative.
bool same_sign(double a, double b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

// Norms summed x, y, z (dot3), as 3.3.8 sums them.
double norm3(const Vector3d& a) { return std::sqrt(dot3(a, a)); }

double det3(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
         a[2] * (b[0] * c[1] - b[1] * c[0]);
}

// sum_k w[k] v[k] over n points, component by component in order.
Vector3d combine(const double* w, int n, const Vector3d* const* v) {
  Vector3d x;
  for (int i = 0; i < 3; ++i) {
    double sum = w[0] * (*v[0])[i];
    for (int k = 1; k < n; ++k) sum += w[k] * (*v[k])[i];
    x[i] = sum;
  }
  return x;
}

// Weights of segment (a, b).
void segment_weights(const Vector3d& a, const Vector3d& b, double w[2]) {
  const Vector3d d = b - a;
  const double t = -(dot3(b, d) / dot3(d, d));
  const Vector3d p = b + t * d;  // the origin's projection on the line
  int axis = 0;
  double widest = 0;
  for (int i = 0; i < 3; ++i) {
    const double span = a[i] - b[i];
    if (std::abs(span) >= std::abs(widest)) {
      widest = span;
      axis = i;
    }
  }
  const double ca = p[axis] - b[axis], cb = a[axis] - p[axis];
  if (same_sign(widest, ca) && same_sign(widest, cb)) {
    w[0] = ca / widest;
    w[1] = cb / widest;
  } else {
    w[0] = 0;
    w[1] = 1;
  }
}

// The origin's projection on the plane of (a, b, c); false when the
// triangle has no normal. The normal is taken at b, then at a, each kept
// when the plane misses the origin and the normal is not tiny; else at c.
bool project_on_plane(const Vector3d& a, const Vector3d& b, const Vector3d& c, Vector3d& p) {
  const Vector3d ba = b - a, ca = c - a, cb = c - b;
  const Vector3d normals[2] = {cb.cross(ba), ba.cross(ca)};
  const Vector3d* corners[2] = {&b, &a};
  for (int t = 0; t < 2; ++t) {
    const double nv = dot3(normals[t], *corners[t]), nn = dot3(normals[t], normals[t]);
    if (nn == 0) return false;
    if (nv != 0 && nn > kTiny) {
      p = normals[t] * (nv / nn);
      return true;
    }
  }
  const Vector3d n = ca.cross(cb);
  p = n * (dot3(n, c) / dot3(n, n));
  return true;
}

// The weights of p in the triangle (a, b, c) by signed areas in the
// coordinate plane where the triangle's shadow is largest (area: that
// shadow's signed area; c_a, c_b, c_c: the sub-triangles' opposite a, b, c).
struct AffineAreas {
  double area, ca, cb, cc;
};
AffineAreas affine_areas(const Vector3d& a, const Vector3d& b, const Vector3d& c,
                         const Vector3d& p) {
  const double m1 =
      b[1] * c[2] - b[2] * c[1] - a[1] * c[2] + a[2] * c[1] + a[1] * b[2] - a[2] * b[1];
  const double m2 =
      b[0] * c[2] - b[2] * c[0] - a[0] * c[2] + a[2] * c[0] + a[0] * b[2] - a[2] * b[0];
  const double m3 =
      b[0] * c[1] - b[1] * c[0] - a[0] * c[1] + a[1] * c[0] + a[0] * b[1] - a[1] * b[0];
  int x = 0, y = 1;
  double area = m3;
  if (std::abs(m1) >= std::abs(m2) && std::abs(m1) >= std::abs(m3)) {
    x = 1, y = 2, area = m1;
  } else if (std::abs(m2) >= std::abs(m3)) {
    x = 0, y = 2, area = m2;
  }
  const auto signed_area = [&](const Vector3d& u, const Vector3d& v) {
    return p[x] * u[y] + p[y] * v[x] + u[x] * v[y] - p[x] * v[y] - p[y] * u[x] - v[x] * u[y];
  };
  return {area, signed_area(b, c), signed_area(c, a), signed_area(a, b)};
}

// The weights of p (on the plane of a, b, c) in that triangle.
void affine_weights(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& p,
                    double w[3]) {
  const AffineAreas s = affine_areas(a, b, c, p);
  w[0] = s.ca / s.area;
  w[1] = s.cb / s.area;
  w[2] = s.cc / s.area;
}

// Weights of triangle (a, b, c).
void triangle_weights(const Vector3d& a, const Vector3d& b, const Vector3d& c, double w[3]) {
  Vector3d p;
  if (!project_on_plane(a, b, c, p)) {
    segment_weights(a, b, w);
    w[2] = 0;
    return;
  }
  const AffineAreas s = affine_areas(a, b, c, p);
  const double area = s.area, ca = s.ca, cb = s.cb, cc = s.cc;
  const bool in_a = same_sign(area, ca), in_b = same_sign(area, cb), in_c = same_sign(area, cc);
  if (in_a && in_b && in_c) {
    w[0] = ca / area;
    w[1] = cb / area;
    w[2] = cc / area;
    return;
  }
  double best = INFINITY;
  const Vector3d* corners[3] = {&a, &b, &c};
  const bool inside[3] = {in_a, in_b, in_c};
  for (int drop = 0; drop < 3; ++drop) {
    if (inside[drop]) continue;
    const int i = drop == 0 ? 1 : 0, j = drop == 2 ? 1 : 2;
    double e[2];
    segment_weights(*corners[i], *corners[j], e);
    const Vector3d* ends[2] = {corners[i], corners[j]};
    const Vector3d q = combine(e, 2, ends);
    const double d = dot3(q, q);
    if (best == INFINITY || d < best) {
      w[drop] = 0;
      w[i] = e[0];
      w[j] = e[1];
      best = d;
    }
  }
}

// Weights of tetrahedron (a, b, c, d).
void tetrahedron_weights(const Vector3d* const* v, double w[4]) {
  const double c[4] = {-det3(*v[1], *v[2], *v[3]), det3(*v[0], *v[2], *v[3]),
                       -det3(*v[0], *v[1], *v[3]), det3(*v[0], *v[1], *v[2])};
  const double volume = c[0] + c[1] + c[2] + c[3];
  bool inside[4];
  for (int k = 0; k < 4; ++k) inside[k] = same_sign(volume, c[k]);
  if (inside[0] && inside[1] && inside[2] && inside[3]) {
    for (int k = 0; k < 4; ++k) w[k] = c[k] / volume;
    return;
  }
  double best = INFINITY;
  for (int drop = 0; drop < 4; ++drop) {
    if (inside[drop]) continue;
    int face[3], n = 0;
    for (int k = 0; k < 4; ++k) {
      if (k != drop) face[n++] = k;
    }
    double f[3];
    triangle_weights(*v[face[0]], *v[face[1]], *v[face[2]], f);
    const Vector3d* corners[3] = {v[face[0]], v[face[1]], v[face[2]]};
    const Vector3d q = combine(f, 3, corners);
    const double d = dot3(q, q);
    if (best == INFINITY || d < best) {
      w[drop] = 0;
      for (int k = 0; k < 3; ++k) w[face[k]] = f[k];
      best = d;
    }
  }
}

// The weights of the simplex's point nearest the origin (n points).
void simplex_weights(const Vertex* s, int n, double w[4]) {
  w[0] = w[1] = w[2] = w[3] = 0;
  if (n == 4) {
    const Vector3d* v[4] = {&s[0].v, &s[1].v, &s[2].v, &s[3].v};
    tetrahedron_weights(v, w);
  } else if (n == 3) {
    triangle_weights(s[0].v, s[1].v, s[2].v, w);
  } else if (n == 2) {
    segment_weights(s[0].v, s[1].v, w);
  } else {
    w[0] = 1;
  }
}

// ---- GJK ----

struct Simplex {
  Vertex point[4];
  double weight[4] = {1, 0, 0, 0};  // of each point, in `nearest`
  int size = 0;
  Vector3d nearest{0, 0, 0};  // the simplex's point nearest the origin
  // GJK's distance as 3.3.8 reports it: the length of the iterate at the
  // start of the last iteration (one step behind `nearest` when the
  // iterations run out); 0 once the simplex encloses the origin.
  double distance = 0;
  bool separated = false;  // a support plane keeps the origin out by more than the cutoff
};

// Whether the tetrahedron t encloses the origin, walking it towards the
// origin as 3.3.8 does once GJK's simplex would become a tetrahedron. Each
// face has a fixed winding over the vertex slots (no turning outward): with
// the simplex wound one way every face's signed distance is positive when
// the origin is inside; wound the other way, the first step replaces a
// vertex as if the origin were beyond its face, and the swap of two slots
// that follows every replacement winds it right. A step replaces the vertex
// of the face with the least signed distance by the support along that
// face's normal, until the origin is inside (kInside, t in slot order), a
// support falls short of the origin (kApart), or the test cannot tell (an
// origin on a face's plane, or `iterations` reached: kUndecided, and GJK
// goes on). k counts the iterations shared with GJK.
enum class Enclosure { kInside, kApart, kUndecided };

Enclosure walk_tetrahedron(const Minkowski& support, Vertex* t, int& k, int iterations) {
  // Face f, opposite slot f: its corners' slots in the order that winds it.
  static constexpr int kFaces[4][3] = {{2, 1, 3}, {0, 2, 3}, {1, 0, 3}, {0, 1, 2}};
  int slot[4] = {0, 1, 2, 3};
  for (; k < iterations; ++k) {
    double dist[4];
    Vector3d normal[4];
    for (int f = 0; f < 4; ++f) {
      const Vector3d& a = t[slot[kFaces[f][0]]].v;
      const Vector3d& b = t[slot[kFaces[f][1]]].v;
      const Vector3d& c = t[slot[kFaces[f][2]]].v;
      normal[f] = (c - a).cross(b - a);
      const double length2 = dot3(normal[f], normal[f]);
      if (length2 > kTiny * kTiny && std::isfinite(length2)) {
        normal[f] *= 1 / std::sqrt(length2);
        dist[f] = dot3(normal[f], a);
      } else {
        dist[f] = INFINITY;  // no normal: never the least
      }
    }
    if (dist[0] == 0 || dist[1] == 0 || dist[2] == 0 || dist[3] == 0) {
      return Enclosure::kUndecided;
    }
    const int i = dist[0] < dist[1] ? 0 : 1;
    const int j = dist[2] < dist[3] ? 2 : 3;
    const int least = dist[i] < dist[j] ? i : j;
    if (dist[least] > 0) {
      const Vertex copy[4] = {t[0], t[1], t[2], t[3]};
      for (int s = 0; s < 4; ++s) t[s] = copy[slot[s]];
      return Enclosure::kInside;
    }
    Vertex& replaced = t[slot[least]];
    replaced = support(normal[least]);
    if (dot3(normal[least], replaced.v) < 0) return Enclosure::kApart;
    std::swap(slot[(least + 1) & 3], slot[(least + 2) & 3]);
  }
  return Enclosure::kUndecided;
}

// GJK from the direction `guess` (a point of a - b's interior, the centres'
// difference). `cutoff`: stop as separated once a support plane is that far
// from the origin; with no cutoff (contacts), a fourth point starts the
// enclosure walk instead of the nearest-point step.
Simplex gjk(const Minkowski& support, Vector3d guess, double cutoff, double tolerance2,
            int iterations) {
  Simplex r;
  Vector3d x = guess;
  bool walk = cutoff == 0;
  for (int k = 0; k < iterations; ++k) {
    const double xx = dot3(x, x);
    r.distance = xx;
    if (xx < kTiny * kTiny) break;  // the origin is reached
    r.distance = std::sqrt(xx);
    // The direction as 3.3.8 rounds it: x times its length's reciprocal.
    const Vertex s = support(-(x * (1 / std::sqrt(xx))));
    const double xs = dot3(x, s.v);
    if (dot3(x, x - s.v) < 0.5 * tolerance2) {  // duality gap: x is the nearest point
      if (r.size == 0) {
        r.point[r.size++] = s;
        x = s.v;
      }
      break;
    }
    if (xs > 0 && (cutoff == 0 || xs * xs / xx >= cutoff * cutoff)) {
      r.separated = true;
      return r;
    }
    if (walk && r.size == 3) {
      Vertex t[4] = {r.point[0], r.point[1], r.point[2], s};
      int step = k;
      const Enclosure e = walk_tetrahedron(support, t, step, iterations);
      if (e == Enclosure::kInside) {
        std::copy(t, t + 4, r.point);
        r.size = 4;
        r.nearest.setZero();
        r.distance = 0;
        return r;
      }
      if (e == Enclosure::kApart) {
        r.separated = true;
        return r;
      }
      // Undecided: the nearest-point steps go on, after the walk's
      // iterations.
      k = step;
      walk = false;
    }
    r.point[r.size++] = s;
    // The sub-simplex holding the nearest point, in order.
    double w[4];
    simplex_weights(r.point, r.size, w);
    int kept = 0;
    for (int i = 0; i < r.size; ++i) {
      if (w[i] == 0) continue;
      r.point[kept] = r.point[i];
      r.weight[kept++] = w[i];
    }
    r.size = kept;
    if (kept == 0) {
      r.separated = true;
      return r;
    }
    const Vector3d* v[4] = {&r.point[0].v, &r.point[1].v, &r.point[2].v, &r.point[3].v};
    const Vector3d next = combine(r.weight, kept, v);
    if ((next - x).cwiseAbs().maxCoeff() < kTiny) break;  // stalled
    x = next;
    if (r.size == 4) {  // the origin is enclosed
      r.distance = 0;
      break;
    }
  }
  r.nearest = x;
  return r;
}

// Witness points of the simplex's nearest point: sum_k w_k pa_k, pb_k with
// the weights of `nearest` in the simplex.
void simplex_witness(const Simplex& s, Vector3d& pa, Vector3d& pb) {
  const int n = std::max(1, std::min(s.size, 4));
  const Vector3d* a[4] = {&s.point[0].pa, &s.point[1].pa, &s.point[2].pa, &s.point[3].pa};
  const Vector3d* b[4] = {&s.point[0].pb, &s.point[1].pb, &s.point[2].pb, &s.point[3].pb};
  pa = combine(s.weight, n, a);
  pb = combine(s.weight, n, b);
}

// The witness points of a core pass grown by each round shape's radius
// along the line between them, as 3.3.8 grows them (the line's direction
// normalised by a reciprocal, +x when the points coincide).
void grow_witnesses(Vector3d& pa, Vector3d& pb, double grow_a, double grow_b) {
  const Vector3d n = unit_direction(pb - pa);
  if (grow_a != 0) pa += grow_a * n;
  if (grow_b != 0) pb -= grow_b * n;
}

// ---- EPA ----
//
// The polytope is kept as 3.3.8 keeps it, which decides between faces at
// one distance from the origin (a flat cap on a face): faces are appended
// in creation order, each with its three neighbours; the faces that may
// still be the nearest sit in a candidate list, searched in list order,
// from which a removed face is replaced by the list's last; the faces a new
// support sees are found by a walk over neighbours from the nearest face,
// and the edges where the walk stops, in walk order, each make a new face
// with the support. A face carries the origin's projection on its plane
// (its outward normal times its distance), so no face needs a winding.

constexpr int kMaxEpaIterations = 170;
constexpr int kMaxVertices = kMaxEpaIterations + 5;
constexpr int kMaxFaces = 6 * kMaxEpaIterations;
constexpr double kTiny2 = kTiny * kTiny;

struct Face {
  int v[3];
  int adj[3];    // the face across edge (v0 v1), (v1 v2), (v2 v0)
  Vector3d x;    // the origin's projection on the face's plane
  double dist2;  // x . x
  int slot;      // index in the candidate list, or kOffList, kRemoved
};
constexpr int kOffList = -1, kRemoved = -2;

struct Polytope {
  std::array<Vertex, kMaxVertices> vertex;
  std::array<Face, kMaxFaces> face;
  std::array<int, kMaxFaces> candidate;           // face indices
  std::array<std::array<int, 2>, kMaxFaces> rim;  // (face, edge) of the horizon
  int vertices = 0, faces = 0, candidates = 0, rim_edges = 0;
  const Vector3d* w = nullptr;  // the support the horizon is seen from

  int add_vertex(const Vertex& v) {
    vertex[vertices] = v;
    return vertices++;
  }

  // Appends face (i, j, k) with its neighbours across (i j), (j k), (k i);
  // returns its squared distance from the origin, 0 when it has no plane.
  double attach(int i, int j, int k, int ai, int aj, int ak) {
    Face& f = face[faces++];
    f.v[0] = i, f.v[1] = j, f.v[2] = k;
    f.adj[0] = ai, f.adj[1] = aj, f.adj[2] = ak;
    if (!project_on_plane(vertex[k].v, vertex[j].v, vertex[i].v, f.x)) return 0;
    f.dist2 = dot3(f.x, f.x);
    f.slot = kOffList;
    return f.dist2;
  }

  void list(int f) {
    face[f].slot = candidates;
    candidate[candidates++] = f;
  }

  void list_all() {
    for (int f = 0; f < faces; ++f) list(f);
  }

  void remove(Face& f) {
    if (f.slot >= 0) {
      const int last = candidate[--candidates];
      candidate[f.slot] = last;
      face[last].slot = f.slot;
    }
    f.slot = kRemoved;
  }

  // The edge of face f that starts at vertex v.
  int edge_from(int f, int v) const {
    const Face& g = face[f];
    return g.v[0] == v ? 0 : g.v[1] == v ? 1 : 2;
  }

  // Removes face f, entered across edge e, if it sees w, and walks on over
  // its other two edges; false when f does not see w (e is then a rim edge).
  bool walk(int f, int e) {
    Face& g = face[f];
    if (!(dot3(g.x, *w) - g.dist2 > kTiny)) return false;
    remove(g);
    for (int step = 1; step < 3; ++step) {
      const int i = (e + step) % 3;
      const int next = g.adj[i];
      if (face[next].slot == kRemoved) continue;
      const int entry = edge_from(next, g.v[(i + 1) % 3]);
      if (!walk(next, entry)) rim[rim_edges++] = {next, entry};
    }
    return true;
  }

  // The horizon of support w from face f, which sees it.
  void horizon(int f, const Vector3d& support) {
    w = &support;
    rim_edges = 0;
    Face& g = face[f];
    remove(g);
    for (int i = 0; i < 3; ++i) {
      const int next = g.adj[i];
      if (i > 0 && face[next].slot == kRemoved) continue;
      const int entry = edge_from(next, g.v[(i + 1) % 3]);
      if (!walk(next, entry)) rim[rim_edges++] = {next, entry};
    }
  }
};

// Whether the origin and p lie strictly on one side of the plane (a, b, c).
bool origin_beside(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& p) {
  const Vector3d n = (b - a).cross(c - a);
  const double dp = dot3(n, p - a), d0 = dot3(n, -a);
  return same_sign(dp, d0);
}

bool encloses_origin(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  return origin_beside(a, b, c, d) && origin_beside(b, c, d, a) && origin_beside(c, d, a, b) &&
         origin_beside(d, a, b, c);
}

// Whether p lies on the triangle (a, b, c) within 1e-15.
bool on_triangle(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& p) {
  double w[3];
  affine_weights(a, b, c, p, w);
  if (w[0] < 0 || w[1] < 0 || w[2] < 0) return false;
  const Vector3d* corners[3] = {&a, &b, &c};
  return norm3(combine(w, 3, corners) - p) < kTiny;
}

// The support along d / length (along +x when the length is tiny).
Vertex support_along(const Minkowski& support, const Vector3d& d, double length) {
  if (!(length > kTiny)) return support(Vector3d::UnitX());
  return support(Vector3d(d[0] / length, d[1] / length, d[2] / length));
}

// A double pyramid on triangle (0, 1, 2) of p's vertices, with apexes the
// supports on both sides of it.
bool pyramids(const Minkowski& support, Polytope& p) {
  const Vertex t[3] = {p.vertex[0], p.vertex[1], p.vertex[2]};
  const Vector3d n = (t[1].v - t[0].v).cross(t[2].v - t[0].v);
  const double length = norm3(n);
  if (length < kTiny) return false;
  p.vertices = 3;
  const int below = p.add_vertex(support_along(support, -n, length));
  const int above = p.add_vertex(support_along(support, n, length));
  const Vector3d &a = t[0].v, &b = t[1].v, &c = t[2].v;
  if (on_triangle(a, b, c, p.vertex[above].v) || on_triangle(a, b, c, p.vertex[below].v)) {
    return false;
  }
  static constexpr int kFaces[6][6] = {{4, 0, 1, 1, 3, 2}, {4, 2, 0, 2, 4, 0}, {4, 1, 2, 0, 5, 1},
                                       {3, 1, 0, 5, 0, 4}, {3, 0, 2, 3, 1, 5}, {3, 2, 1, 4, 2, 3}};
  for (const auto& f : kFaces) {
    if (p.attach(f[0], f[1], f[2], f[3], f[4], f[5]) < kTiny2) return false;
  }
  p.list_all();
  return true;
}

// Restarts p from the triangle (i, j, k) of its vertices.
bool pyramids_on(const Minkowski& support, Polytope& p, int i, int j, int k) {
  const Vertex t[3] = {p.vertex[i], p.vertex[j], p.vertex[k]};
  p.faces = p.candidates = 0;
  for (int n = 0; n < 3; ++n) p.vertex[n] = t[n];
  return pyramids(support, p);
}

// The faces of a tetrahedron or of a double pyramid: vertices and the
// neighbour across each edge.
constexpr int kTetrahedron[4][6] = {
    {0, 1, 2, 1, 3, 2}, {0, 3, 1, 2, 3, 0}, {0, 2, 3, 0, 3, 1}, {3, 2, 1, 2, 0, 1}};
constexpr int kRing[6][6] = {{0, 2, 3, 1, 3, 2}, {0, 4, 2, 2, 4, 0}, {0, 3, 4, 0, 5, 1},
                             {1, 3, 2, 5, 0, 4}, {1, 2, 4, 3, 1, 5}, {1, 4, 3, 4, 2, 3}};

// A 120-degree turn about `axis`, applied to d.
Vector3d turn_third(const Vector3d& axis, const Vector3d& d) {
  const double n = norm3(axis);
  const double u1 = axis[0] / n, u2 = axis[1] / n, u3 = axis[2] / n;
  const double sn = 0.86602540378, c = -0.5;
  const double r[9] = {
      c + u1 * u1 * (1 - c),       u1 * u2 * (1 - c) - u3 * sn, u1 * u3 * (1 - c) + u2 * sn,
      u2 * u1 * (1 - c) + u3 * sn, c + u2 * u2 * (1 - c),       u2 * u3 * (1 - c) - u1 * sn,
      u1 * u3 * (1 - c) - u2 * sn, u2 * u3 * (1 - c) + u1 * sn, c + u3 * u3 * (1 - c)};
  return {r[0] * d[0] + r[1] * d[1] + r[2] * d[2], r[3] * d[0] + r[4] * d[1] + r[5] * d[2],
          r[6] * d[0] + r[7] * d[1] + r[8] * d[2]};
}

// Whether the ray from a through b meets the triangle (c, d, e).
bool ray_meets(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d,
               const Vector3d& e) {
  const Vector3d ab = b - a, ac = c - a, ad = d - a, ae = e - a;
  const double v1 = det3(ac, ad, ab), v2 = det3(ad, ae, ab), v3 = det3(ae, ac, ab);
  return (v1 >= 0 && v2 >= 0 && v3 >= 0) || (v1 <= 0 && v2 <= 0 && v3 <= 0);
}

// The first polytope around the origin from GJK's simplex, as 3.3.8 builds
// it: a tetrahedron, a double pyramid on a triangle, or one on three
// supports 120 degrees apart around a segment; a face through the origin
// restarts it as the double pyramid on that face.
bool initial_polytope(const Minkowski& support, const Simplex& s, Polytope& p) {
  for (int k = 0; k < s.size; ++k) p.add_vertex(s.point[k]);
  if (s.size == 3) return pyramids(support, p);
  if (s.size == 4) {
    for (const auto& f : kTetrahedron) {
      if (p.attach(f[0], f[1], f[2], f[3], f[4], f[5]) < kTiny2) {
        return pyramids_on(support, p, f[0], f[1], f[2]);
      }
    }
    if (!encloses_origin(p.vertex[0].v, p.vertex[1].v, p.vertex[2].v, p.vertex[3].v)) {
      return false;
    }
    p.list_all();
    return true;
  }
  if (s.size != 2) return false;
  const Vector3d axis = s.point[1].v - s.point[0].v;
  int smallest = 0;
  double least = INFINITY;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(axis[k]) < least) least = std::abs(axis[k]), smallest = k;
  }
  const Vector3d d1 = Vector3d::Unit(smallest).cross(axis);
  const Vector3d d2 = turn_third(axis, d1);
  const Vector3d d3 = turn_third(axis, d2);
  for (const Vector3d* d : {&d1, &d2, &d3}) p.add_vertex(support_along(support, *d, norm3(*d)));
  for (const auto& f : kRing) {
    if (p.attach(f[0], f[1], f[2], f[3], f[4], f[5]) < kTiny2) {
      return pyramids_on(support, p, f[0], f[1], f[2]);
    }
  }
  const auto& v = p.vertex;
  if (!ray_meets(v[0].v, v[1].v, v[2].v, v[3].v, v[4].v)) return false;
  p.list_all();
  return true;
}

// EPA from GJK's simplex: the face of a - b nearest the origin, within
// `tolerance`, as an index into p's faces; -1 when no polytope around the
// origin could be built (touching shapes) or it broke down.
int epa(const Minkowski& support, const Simplex& s, double tolerance, int iterations, Polytope& p) {
  if (!initial_polytope(support, s, p)) return -1;
  double upper = INFINITY, upper2 = INFINITY;
  int chosen = -1;
  iterations = std::min(iterations, kMaxEpaIterations);
  for (int k = 0; k < iterations; ++k) {
    const int previous = chosen;
    double lower2 = INFINITY;
    for (int i = 0; i < p.candidates; ++i) {
      const int f = p.candidate[i];
      if (p.face[f].dist2 < lower2) chosen = f, lower2 = p.face[f].dist2;
    }
    if (lower2 > upper2 || chosen < 0) {
      chosen = previous;  // the previous face stands
      break;
    }
    if (lower2 <= 0) break;  // the origin on the face's plane: touching
    const Face& near = p.face[chosen];
    const double lower = std::sqrt(lower2);
    const int wi = p.add_vertex(support_along(support, near.x, lower));
    const Vertex& w = p.vertex[wi];
    const double upper_k = dot3(near.x, w.v) / lower;
    if (upper_k < upper) upper = upper_k, upper2 = upper * upper;
    if (upper - lower < tolerance) break;
    if (support.track_vertices) {
      // Two polytopes: a support from a pair of vertices seen before ends
      // the search, as in MuJoCo 3.3.8, which compares the vertex indices
      // (a height-field prism's vertices have none, so a box or hull vertex
      // met again ends it even against another prism vertex).
      bool repeated = false;
      for (int q = 0; q < wi && !repeated; ++q) {
        repeated = p.vertex[q].ia == w.ia && p.vertex[q].ib == w.ib;
      }
      if (repeated) break;
    }
    p.horizon(chosen, w.v);
    const int edges = p.rim_edges;
    if (edges < 3) return -1;
    if (edges > kMaxFaces - p.faces) break;  // out of room: the face stands
    // One new face per rim edge, each sharing its sides with the faces of
    // the edges before and after it.
    const int first = p.faces;
    for (int i = 0; i < edges; ++i) {
      const auto [rim_face, rim_edge] = p.rim[i];
      Face& outer = p.face[rim_face];
      const int v1 = outer.v[rim_edge], v2 = outer.v[(rim_edge + 1) % 3];
      const int self = first + i;
      outer.adj[rim_edge] = self;
      const double dist2 = p.attach(wi, v2, v1, i == 0 ? first + edges - 1 : self - 1, rim_face,
                                    first + (i + 1) % edges);
      if (dist2 == 0) return -1;
      if (dist2 >= lower2 && dist2 <= upper2) p.list(self);
    }
    if (p.candidates == 0) break;
  }
  return chosen;
}

// The contact of EPA's face: depth, normal (from a to b) and the midpoint of
// the witness points (given back in *pa_out, *pb_out when asked).
bool face_contact(const Polytope& p, int face, RawContact* out, Vector3d* pa_out = nullptr,
                  Vector3d* pb_out = nullptr) {
  const Face& f = p.face[face];
  const Vertex& a = p.vertex[f.v[0]];
  const Vertex& b = p.vertex[f.v[1]];
  const Vertex& c = p.vertex[f.v[2]];
  double w[3];
  affine_weights(a.v, b.v, c.v, f.x, w);
  const Vector3d* on_a[3] = {&a.pa, &b.pa, &c.pa};
  const Vector3d* on_b[3] = {&a.pb, &b.pb, &c.pb};
  const Vector3d pa = combine(w, 3, on_a);
  const Vector3d pb = combine(w, 3, on_b);
  out->dist = -std::sqrt(f.dist2);
  out->normal = unit_direction(pa - pb);
  out->pos = 0.5 * (pa + pb);
  if (pa_out) *pa_out = pa;
  if (pb_out) *pb_out = pb;
  return out->pos.allFinite() && out->normal.allFinite() && std::isfinite(out->dist);
}

}  // namespace

int ccd_penetration(const GeomShape& a, const Vector3d& centre_a, double inflate_a,
                    const GeomShape& b, const Vector3d& centre_b, double inflate_b, RawContact* out,
                    int max_contacts, int* climb) {
  const double tolerance = a.mpr_tolerance;
  const int iterations = a.mpr_iterations;
  const double tolerance2 = tolerance * tolerance;
  const Vector3d guess = centre_a - centre_b;
  // A mesh's last support vertex, kept from the cores' search to the
  // shapes' (3.3.8 searches both with one object per geom).
  int climb_a = climb ? climb[0] : 0, climb_b = climb ? climb[1] : 0;
  const auto keep_climbs = [climb](const Minkowski& m) {
    if (climb) climb[0] = m.climb_a, climb[1] = m.climb_b;
  };

  if (is_round(a) || is_round(b)) {
    // The cores first, each round shape's radius and inflation added after.
    Minkowski cores{a, b, inflate_a, inflate_b, is_round(a), is_round(b), false, climb_a, climb_b};
    const double grow_a = is_round(a) ? a.size[0] + inflate_a : 0;
    const double grow_b = is_round(b) ? b.size[0] + inflate_b : 0;
    if (is_round(a)) cores.inflate_a = 0;
    if (is_round(b)) cores.inflate_b = 0;
    const Simplex s = gjk(cores, guess, grow_a + grow_b, tolerance2, iterations);
    keep_climbs(cores);
    if (s.separated) return 0;
    climb_a = cores.climb_a;
    climb_b = cores.climb_b;
    if (s.distance > tolerance) {
      Vector3d pa, pb;
      simplex_witness(s, pa, pb);
      const double dist = s.distance - (grow_a + grow_b);
      if (!(dist < 0)) return 0;
      grow_witnesses(pa, pb, grow_a, grow_b);
      // The normal from a to b: the grown witness points have crossed.
      out->dist = dist;
      out->normal = unit_direction(pa - pb);
      out->pos = 0.5 * (pa + pb);
      return out->pos.allFinite() ? 1 : 0;
    }
  }

  const bool exact = is_polytope(a) && is_polytope(b) && inflate_a == 0 && inflate_b == 0;
  const Minkowski shapes{a, b, inflate_a, inflate_b, false, false, exact, climb_a, climb_b};
  const Simplex s = gjk(shapes, guess, 0, exact ? 0 : tolerance2, iterations);
  if (s.separated || s.distance > tolerance) {
    keep_climbs(shapes);
    return 0;
  }
  Polytope polytope;
  const int face = epa(shapes, s, exact ? kTiny : tolerance, iterations, polytope);
  keep_climbs(shapes);
  Vector3d pa, pb;
  if (face < 0 || !face_contact(polytope, face, out, &pa, &pb)) return 0;
  if (!(out->dist < 0)) return 0;
  if (max_contacts > 1 && exact) {
    // A large mesh's supports are numbered on its hull; polygons use the
    // mesh's own vertex numbers.
    const auto vertex = [](const GeomShape& g, int i) {
      return g.type == GeomType::kMesh && g.hull.scan_vertices == nullptr && i >= 0 &&
                     g.hull.vertex_id != nullptr
                 ? g.hull.vertex_id[i]
                 : i;
    };
    FaceCorner corners[3];
    for (int k = 0; k < 3; ++k) {
      const Vertex& v = polytope.vertex[polytope.face[face].v[k]];
      corners[k] = {v.pa, v.pb, vertex(a, v.ia), vertex(b, v.ib)};
    }
    const int n = face_contacts(a, b, corners, pa, pb, out->dist, max_contacts, out);
    if (n > 0) return n;
  }
  return 1;
}

bool ccd_distance(const GeomShape& a, const GeomShape& b, double cutoff, double* dist, Vector3d* pa,
                  Vector3d* pb) {
  const double tolerance = a.mpr_tolerance;
  const int iterations = a.mpr_iterations;
  const double tolerance2 = tolerance * tolerance;
  const Vector3d guess = a.pos - b.pos;
  // GJK's distance and nearest points, round shapes' radii added along the
  // line between the cores.
  auto apart = [&](const Simplex& s, double grow_a, double grow_b) {
    simplex_witness(s, *pa, *pb);
    *dist = s.distance - (grow_a + grow_b);
    if (grow_a + grow_b > 0) grow_witnesses(*pa, *pb, grow_a, grow_b);
    return *dist < cutoff && pa->allFinite() && pb->allFinite();
  };

  int climb_a = 0, climb_b = 0;  // as in ccd_penetration

  if (is_round(a) || is_round(b)) {
    // The cores first, each round shape's radius added after.
    const Minkowski cores{a, b, 0, 0, is_round(a), is_round(b)};
    const double grow_a = is_round(a) ? a.size[0] : 0;
    const double grow_b = is_round(b) ? b.size[0] : 0;
    const Simplex s = gjk(cores, guess, cutoff + grow_a + grow_b, tolerance2, iterations);
    if (s.separated) return false;
    if (s.distance > tolerance) return apart(s, grow_a, grow_b);
    climb_a = cores.climb_a;
    climb_b = cores.climb_b;
  }

  // Overlapping shapes get EPA's depth, exact for two polytopes.
  const bool exact = is_polytope(a) && is_polytope(b);
  const Minkowski shapes{a, b, 0, 0, false, false, exact, climb_a, climb_b};
  const Simplex s = gjk(shapes, guess, cutoff, tolerance2, iterations);
  if (s.separated) return false;
  if (s.distance > tolerance) return apart(s, 0, 0);
  Polytope polytope;
  RawContact contact;
  const int face = epa(shapes, s, exact ? kTiny : tolerance, iterations, polytope);
  if (face < 0 || !face_contact(polytope, face, &contact, pa, pb)) {
    // Touching, or within the tolerance of it (EPA has no polytope to grow
    // when the origin lies on GJK's simplex): GJK's own distance and points.
    return apart(s, 0, 0);
  }
  *dist = contact.dist;
  return *dist < cutoff;
}

}  // namespace pliant::collision
