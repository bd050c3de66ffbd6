// Several contacts between two polytopes (boxes and meshes without margin)
// from EPA's nearest face, as MuJoCo 3.3.8 finds them under <flag multiccd>:
// the corners of EPA's face name a vertex, an edge or a face of each shape;
// the faces of those features (box sides, mesh polygons) whose normals face
// each other within 1.6e-3 rad, or a face and an edge perpendicular to it
// within as much, are clipped against each other (Sutherland-Hodgman), and
// each corner of the clipped polygon is a contact at EPA's depth, up to four
// (the largest quadrilateral when more). Features that do not line up leave
// EPA's one contact. Every sum is in 3.3.8's order: contacts of resting
// boxes and meshes follow it to the bit.
//
// With multiccd, the pairs this does not cover (a mesh or box with margin,
// cylinders, capsules against meshes, and every pair with nativeccd off)
// take 3.3.8's other rule: both geoms turned by +-1e-3 rad about the first
// contact's two tangents, and each distinct contact found so kept
// (turned_contacts in convex.cpp).

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/collision/pair.h"
#include "engine/rotation.h"

namespace pliant::collision {
namespace {

constexpr double kFaceTolerance = 0.99999872;     // cos(1.6e-3)
constexpr double kEdgeTolerance = 0.00159999931;  // sin(1.6e-3)
constexpr int kMaxPolygonCorners = 150;
constexpr double kTiny = 1e-15;

Vector3d sub(const Vector3d& a, const Vector3d& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vector3d add(const Vector3d& a, const Vector3d& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
Vector3d scale(const Vector3d& a, double s) { return {s * a[0], s * a[1], s * a[2]}; }
Vector3d cross(const Vector3d& a, const Vector3d& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Vector3d& a) { return std::sqrt(dot3(a, a)); }

// mat l (+ pos), each row summed in order, the offset added last.
Vector3d world_dir(const Matrix3d& r, double l0, double l1, double l2) {
  return {r(0, 0) * l0 + r(0, 1) * l1 + r(0, 2) * l2, r(1, 0) * l0 + r(1, 1) * l1 + r(1, 2) * l2,
          r(2, 0) * l0 + r(2, 1) * l1 + r(2, 2) * l2};
}
Vector3d world_point(const GeomShape& g, double l0, double l1, double l2) {
  const Vector3d w = world_dir(g.mat, l0, l1, l2);
  return {w[0] + g.pos[0], w[1] + g.pos[1], w[2] + g.pos[2]};
}

// A few directions (face normals or edge directions) with what they index.
struct Directions {
  std::array<Vector3d, kMaxPolygonCorners> v;
  std::array<int, kMaxPolygonCorners> index{};
  int count = 0;
};

// ---- boxes (corners numbered by bits x 1, y 2, z 4 set on the + side;
// sides 0..5 are +x, -x, +y, -y, +z, -z) ----

// The side whose normal lies within 1.6e-3 rad of world direction n.
int box_side_along(const GeomShape& g, const Vector3d& n, Directions& out) {
  const Matrix3d& r = g.mat;
  Vector3d local(r(0, 0) * n[0] + r(1, 0) * n[1] + r(2, 0) * n[2],
                 r(0, 1) * n[0] + r(1, 1) * n[1] + r(2, 1) * n[2],
                 r(0, 2) * n[0] + r(1, 2) * n[1] + r(2, 2) * n[2]);
  local = scale(local, 1 / std::sqrt(dot3(local, local)));
  static const double kSides[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                      {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  for (int i = 0; i < 6; ++i) {
    const Vector3d side(kSides[i][0], kSides[i][1], kSides[i][2]);
    if (dot3(local, side) > kFaceTolerance) {
      out.v[0] = world_dir(r, side[0], side[1], side[2]);
      out.index[0] = i;
      out.count = 1;
      return 1;
    }
  }
  out.count = 0;
  return 0;
}

// +1 when every corner has the bit, -1 when none has it, else 0.
int shared(int bit, const int* corners, int n) {
  bool all = true, none = true;
  for (int k = 0; k < n; ++k) {
    all = all && (corners[k] & bit);
    none = none && !(corners[k] & bit);
  }
  return (all ? 1 : 0) - (none ? 1 : 0);
}

// The sides a box feature of `dim` corners may touch with: the side through
// three corners, the two through an edge, the three at a corner; a feature
// on no single side (or edge) falls back to the side facing `dir`.
void box_sides(const GeomShape& g, int dim, const int* corners, const Vector3d& dir,
               Directions& out) {
  const Matrix3d& r = g.mat;
  out.count = 0;
  if (dim == 3) {
    const int x = shared(1, corners, 3), y = shared(2, corners, 3), z = shared(4, corners, 3);
    out.v[0] = world_dir(r, x, y, z);
    int c = 0;
    if (x) out.index[c++] = 0;
    if (y) out.index[c++] = 2;
    if (z) out.index[c++] = 4;
    if (x + y + z == -1) out.index[0]++;
    if (c == 1) {
      out.count = 1;
    } else {
      box_side_along(g, dir, out);
    }
  } else if (dim == 2) {
    const int x = shared(1, corners, 2), y = shared(2, corners, 2), z = shared(4, corners, 2);
    int c = 0;
    if (x) {
      out.v[0] = world_dir(r, x, 0, 0);
      out.index[c++] = x > 0 ? 0 : 1;
    }
    if (y) {
      out.v[c] = world_dir(r, 0, y, 0);
      out.index[c++] = y > 0 ? 2 : 3;
    }
    if (z) {
      out.v[1] = world_dir(r, 0, 0, z);  // 3.3.8 writes a z side second
      out.index[c++] = z > 0 ? 4 : 5;
    }
    if (c == 2) {
      out.count = 2;
    } else {
      box_side_along(g, dir, out);
    }
  } else if (dim == 1) {
    const int v = corners[0];
    const double x = (v & 1) ? 1 : -1, y = (v & 2) ? 1 : -1, z = (v & 4) ? 1 : -1;
    out.v[0] = world_dir(r, x, 0, 0);
    out.v[1] = world_dir(r, 0, y, 0);
    out.v[2] = world_dir(r, 0, 0, z);
    out.index[0] = x > 0 ? 0 : 1;
    out.index[1] = y > 0 ? 2 : 3;
    out.index[2] = z > 0 ? 4 : 5;
    out.count = 3;
  }
}

// Unit directions of the box edges from corner p1 to its three neighbouring
// corners, with each edge's far end.
void box_corner_edges(const GeomShape& g, const Vector3d& p1, int corner, Directions& out,
                      Vector3d* ends) {
  const Vector3d& s = g.size;
  const double x = (corner & 1) ? s[0] : -s[0], y = (corner & 2) ? s[1] : -s[1],
               z = (corner & 4) ? s[2] : -s[2];
  ends[0] = world_point(g, -x, y, z);
  ends[1] = world_point(g, x, -y, z);
  ends[2] = world_point(g, x, y, -z);
  for (int k = 0; k < 3; ++k) out.v[k] = unit_direction(sub(ends[k], p1));
  out.count = 3;
}

// The corners of box side `side`, in 3.3.8's order.
int box_side(const GeomShape& g, int side, Vector3d* out) {
  const double x = g.size[0], y = g.size[1], z = g.size[2];
  static const int kSigns[6][4][3] = {{{1, 1, 1}, {1, 1, -1}, {1, -1, -1}, {1, -1, 1}},
                                      {{-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}, {-1, -1, -1}},
                                      {{-1, 1, -1}, {1, 1, -1}, {1, 1, 1}, {-1, 1, 1}},
                                      {{-1, -1, 1}, {1, -1, 1}, {1, -1, -1}, {-1, -1, -1}},
                                      {{-1, 1, 1}, {1, 1, 1}, {1, -1, 1}, {-1, -1, 1}},
                                      {{1, 1, -1}, {-1, 1, -1}, {-1, -1, -1}, {1, -1, -1}}};
  if (side < 0 || side > 5) return 0;
  for (int k = 0; k < 4; ++k) {
    const int* sg = kSigns[side][k];
    out[k] = world_point(g, sg[0] > 0 ? x : -x, sg[1] > 0 ? y : -y, sg[2] > 0 ? z : -z);
  }
  return 4;
}

// ---- meshes (vertices and polygons local to the mesh) ----

// Up to two polygons in both lists, in the first list's order.
int common(int* out, const int* a, int na, const int* b, int nb) {
  int n = 0;
  for (int i = 0; i < na; ++i) {
    for (int j = 0; j < nb; ++j) {
      if (a[i] == b[j]) {
        out[n++] = a[i];
        if (n == 2) return 2;
      }
    }
  }
  return n;
}

// The polygons a mesh feature may touch with: the one through three
// vertices, the (up to two) through an edge, all through a vertex.
void mesh_sides(const GeomShape& g, int dim, const int* v, Directions& out) {
  const MeshPolygons& p = g.polygons;
  out.count = 0;
  const auto put = [&](int k, int polygon) {
    const Vector3d& n = p.normal[polygon];
    out.v[k] = world_dir(g.mat, n[0], n[1], n[2]);
    out.index[k] = polygon;
  };
  if (dim == 3 || dim == 2) {
    int edge[2], face[2];
    int n = common(edge, p.map + p.map_adr[v[0]], p.map_num[v[0]], p.map + p.map_adr[v[1]],
                   p.map_num[v[1]]);
    if (n == 0) return;
    if (dim == 2) {
      for (int k = 0; k < n; ++k) put(k, edge[k]);
      out.count = n;
      return;
    }
    n = common(face, edge, n, p.map + p.map_adr[v[2]], p.map_num[v[2]]);
    if (n == 0) return;
    put(0, face[0]);
    out.count = 1;
  } else if (dim == 1) {
    const int count = std::min(p.map_num[v[0]], kMaxPolygonCorners);
    for (int k = 0; k < count; ++k) put(k, p.map[p.map_adr[v[0]] + k]);
    out.count = count;
  }
}

// Unit directions of the mesh edges from vertex p1 (mesh vertex `vertex`)
// along each polygon through it towards the polygon's previous corner, with
// each edge's far end.
void mesh_vertex_edges(const GeomShape& g, const Vector3d& p1, int vertex, Directions& out,
                       Vector3d* ends) {
  const MeshPolygons& p = g.polygons;
  const int count = std::min(p.map_num[vertex], kMaxPolygonCorners);
  for (int k = 0; k < count; ++k) {
    const int polygon = p.map[p.map_adr[vertex] + k];
    const int adr = p.vert_adr[polygon], n = p.vert_num[polygon];
    for (int j = 0; j < n; ++j) {
      if (p.vert[adr + j] != vertex) continue;
      const Vector3d& far = p.vertices[p.vert[adr + (j == 0 ? n - 1 : j - 1)]];
      ends[k] = world_point(g, far[0], far[1], far[2]);
      out.v[k] = unit_direction(sub(ends[k], p1));
    }
  }
  out.count = count;
}

// The corners of mesh polygon `polygon`, last first (at most 150).
int mesh_side(const GeomShape& g, int polygon, Vector3d* out) {
  const MeshPolygons& p = g.polygons;
  const int adr = p.vert_adr[polygon];
  const int n = std::min(p.vert_num[polygon], kMaxPolygonCorners);
  for (int i = n - 1, j = 0; i >= 0; --i, ++j) {
    const Vector3d& v = p.vertices[p.vert[adr + i]];
    out[j] = world_point(g, v[0], v[1], v[2]);
  }
  return n;
}

// ---- either shape ----

// The sides (box) or polygons (mesh) a feature of `dim` corners may touch
// with; `dir` points from the shape towards the other (boxes use it when the
// feature lies on no single side).
void feature_sides(const GeomShape& g, int dim, const int* corners, const Vector3d& dir,
                   Directions& out) {
  if (g.type == GeomType::kBox) {
    box_sides(g, dim, corners, dir, out);
  } else {
    mesh_sides(g, dim, corners, out);
  }
}

// The edges along which a feature of `dim` corners may lie on a face: an
// edge (p1, p2) itself; from a corner p1 (box corner or mesh vertex
// `corner`), the edges leaving it.
void feature_edges(const GeomShape& g, int dim, const Vector3d& p1, const Vector3d& p2, int corner,
                   Directions& out, Vector3d* ends) {
  out.count = 0;
  if (dim == 2) {
    ends[0] = p2;
    out.v[0] = unit_direction(sub(p2, p1));
    out.count = 1;
  } else if (dim == 1 && g.type == GeomType::kBox) {
    box_corner_edges(g, p1, corner, out, ends);
  } else if (dim == 1) {
    mesh_vertex_edges(g, p1, corner, out, ends);
  }
}

// The corners of side or polygon `index`.
int side_corners(const GeomShape& g, int index, Vector3d* out) {
  return g.type == GeomType::kBox ? box_side(g, index, out) : mesh_side(g, index, out);
}

// ---- clipping ----

// The plane through edge (v1, v2) of a face with normal n, perpendicular to
// the face: its normal (not unit) and offset.
double edge_plane(const Vector3d& v1, const Vector3d& v2, const Vector3d& n, Vector3d* normal) {
  const Vector3d v3 = add(v1, n);
  *normal = cross(sub(v2, v1), sub(v3, v1));
  return dot3(*normal, v1);
}

bool inside(const Vector3d& a, const Vector3d& n, const Vector3d& p) {
  return dot3(sub(p, a), n) > -kTiny;
}

// Where segment (a, b) crosses the plane (pn, pd), as a fraction t of the
// way (written to *at when 0 <= t <= 1); a large value when parallel.
double crossing(const Vector3d& pn, double pd, const Vector3d& a, const Vector3d& b, Vector3d* at) {
  const Vector3d ab = sub(b, a);
  const double along = dot3(pn, ab);
  if (along == 0.0) return 1e10;
  const double t = (pd - dot3(pn, a)) / along;
  if (t >= 0.0 && t <= 1.0) *at = Vector3d(a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]);
  return t;
}

double quad_area(const Vector3d& a, const Vector3d& b, const Vector3d& c, const Vector3d& d) {
  const Vector3d e = cross(sub(d, a), sub(b, d));
  const Vector3d f = cross(sub(c, b), sub(a, c));
  return 0.5 * norm(add(e, f));
}

// Four corners of the polygon enclosing the largest area, by 3.3.8's walk.
void largest_quad(const Vector3d* poly, int n, int out[4]) {
  const auto next = [n](int i) { return i == n - 1 ? 0 : i + 1; };
  int a = 0, b = 1, c = 2, d = 3;
  out[0] = a, out[1] = b, out[2] = c, out[3] = d;
  double m = quad_area(poly[a], poly[b], poly[c], poly[d]);
  for (; a < n; ++a) {
    for (;;) {
      double grown = quad_area(poly[a], poly[b], poly[c], poly[next(d)]);
      if (grown <= m) break;
      m = grown;
      d = next(d);
      out[0] = a, out[1] = b, out[2] = c, out[3] = d;
      for (;;) {
        grown = quad_area(poly[a], poly[b], poly[next(c)], poly[d]);
        if (grown <= m) break;
        m = grown;
        c = next(c);
        out[0] = a, out[1] = b, out[2] = c, out[3] = d;
      }
      for (;;) {
        grown = quad_area(poly[a], poly[next(b)], poly[c], poly[d]);
        if (grown <= m) break;
        m = grown;
        b = next(b);
        out[0] = a, out[1] = b, out[2] = c, out[3] = d;
      }
    }
    if (b == a) {
      b = next(b);
      if (c == b) {
        c = next(c);
        if (d == c) d = next(d);
      }
    }
  }
}

// Clips polygon `clipped` (m corners) by the side planes of face `face`
// (n corners, normal `normal`); each corner left is a point on b, its
// partner on a that point less `dir`. Returns the count (0: none left, or
// a clipping face under three corners).
int clip(const Vector3d* face, int n, const Vector3d* clipped, int m, const Vector3d& normal,
         const Vector3d& dir, int max_contacts, Vector3d* on_a, Vector3d* on_b) {
  if (n < 3) return 0;
  std::array<Vector3d, kMaxPolygonCorners> pn;
  std::array<double, kMaxPolygonCorners> pd;
  for (int i = 0; i < n; ++i)
    pd[i] = edge_plane(face[i], face[i == n - 1 ? 0 : i + 1], normal, &pn[i]);
  constexpr int kRoom = 2 * kMaxPolygonCorners;
  std::array<Vector3d, kRoom> buffer1, buffer2;
  Vector3d* poly = buffer1.data();
  Vector3d* next = buffer2.data();
  int count = std::min(m, kRoom);
  std::copy(clipped, clipped + count, poly);
  for (int e = 0; e < n; ++e) {
    int kept = 0;
    for (int i = 0; i < count && kept < kRoom - 1; ++i) {
      const Vector3d& p = poly[i];
      const Vector3d& q = poly[i < count - 1 ? i + 1 : 0];
      const bool in_p = inside(face[e], pn[e], p), in_q = inside(face[e], pn[e], q);
      if (!in_p && !in_q) continue;
      if (in_p && in_q) {
        next[kept++] = q;
        continue;
      }
      const double t = crossing(pn[e], pd[e], p, q, &next[kept]);
      if (t >= 0.0 && t <= 1.0) ++kept;
      if (in_q) next[kept++] = q;
    }
    std::swap(poly, next);
    count = kept;
  }
  if (count < 1) return 0;
  if (max_contacts < 5 && count > 4) {
    int quad[4];
    largest_quad(poly, count, quad);
    for (int k = 0; k < 4; ++k) {
      on_b[k] = poly[quad[k]];
      on_a[k] = sub(on_b[k], dir);
    }
    return 4;
  }
  if (count > kMaxPairContacts) {
    for (int k = 0; k < kMaxPairContacts; ++k) {
      on_b[k] = poly[k];
      on_a[k] = sub(on_b[k], dir);
    }
    return kMaxPairContacts;
  }
  int k = 0;
  for (int i = 0; i < count; ++i) {
    bool repeated = false;
    for (int j = 0; j < k && !repeated; ++j) {
      repeated = std::abs(on_b[j][0] - poly[i][0]) < kTiny &&
                 std::abs(on_b[j][1] - poly[i][1]) < kTiny &&
                 std::abs(on_b[j][2] - poly[i][2]) < kTiny;
    }
    if (repeated) continue;
    on_b[k] = poly[i];
    on_a[k] = sub(on_b[k], dir);
    ++k;
  }
  return k;
}

// How many distinct corners the three name (3, 2 or 1); an edge keeps its
// two distinct ends first.
int feature_dim(int* i, const Vector3d** p) {
  if (i[0] != i[1]) return (i[2] == i[0] || i[2] == i[1]) ? 2 : 3;
  if (i[0] != i[2]) {
    i[1] = i[2];
    p[1] = p[2];
    return 2;
  }
  return 1;
}

// The first pair of directions facing each other within the tolerance.
bool facing(const Directions& u, const Directions& w, int* i, int* j) {
  for (int a = 0; a < u.count; ++a) {
    for (int b = 0; b < w.count; ++b) {
      if (dot3(u.v[a], w.v[b]) < -kFaceTolerance) {
        *i = a, *j = b;
        return true;
      }
    }
  }
  return false;
}

// The first face (outer) and edge (inner) perpendicular within the tolerance.
bool edge_on_face(const Directions& edges, const Directions& faces, int* edge, int* face) {
  for (int f = 0; f < faces.count; ++f) {
    for (int e = 0; e < edges.count; ++e) {
      if (std::abs(dot3(edges.v[e], faces.v[f])) < kEdgeTolerance) {
        *edge = e, *face = f;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

int face_contacts(const GeomShape& a, const GeomShape& b, const FaceCorner corner[3],
                  const Vector3d& pa, const Vector3d& pb, double dist, int max_contacts,
                  RawContact* out) {
  int ia[3] = {corner[0].ia, corner[1].ia, corner[2].ia};
  int ib[3] = {corner[0].ib, corner[1].ib, corner[2].ib};
  const Vector3d* qa[3] = {&corner[0].pa, &corner[1].pa, &corner[2].pa};
  const Vector3d* qb[3] = {&corner[0].pb, &corner[1].pb, &corner[2].pb};
  int dim_a = feature_dim(ia, qa);
  int dim_b = feature_dim(ib, qb);
  const Vector3d dir = sub(pb, pa), dir_neg = sub(pa, pb);

  static thread_local Directions na, nb;
  feature_sides(a, dim_a, ia, dir_neg, na);
  feature_sides(b, dim_b, ib, dir, nb);

  static thread_local std::array<Vector3d, kMaxPolygonCorners> face_a, face_b, ends;
  int i = 0, j = 0;
  bool edge_a = false, edge_b = false;
  if (!facing(na, nb, &i, &j)) {
    if (dim_a < 3 && dim_a <= dim_b) {
      feature_edges(a, dim_a, *qa[0], *qa[1], ia[0], na, ends.data());
      if (!edge_on_face(na, nb, &i, &j)) return 0;
      edge_a = true;
    } else if (dim_b < 3) {
      feature_edges(b, dim_b, *qb[0], *qb[1], ib[0], nb, ends.data());
      if (!edge_on_face(nb, na, &i, &j)) return 0;
      edge_b = true;
    } else {
      return 0;
    }
  }

  // The touching features: an edge (its first point, from EPA's first
  // corner, and the far end) or a side of each.
  int count_a, count_b;
  if (edge_a) {
    face_a[0] = corner[0].pa;
    face_a[1] = ends[i];
    count_a = 2;
  } else {
    count_a = side_corners(a, na.index[edge_b ? j : i], face_a.data());
  }
  if (edge_b) {
    face_b[0] = corner[0].pb;
    face_b[1] = ends[i];
    count_b = 2;
  } else {
    count_b = side_corners(b, nb.index[j], face_b.data());
  }

  // Each contact lies EPA's depth from its partner along the touching face's
  // normal.
  static thread_local std::array<Vector3d, kMaxPairContacts> on_a, on_b;
  int n;
  if (edge_a) {
    const Vector3d step = scale(nb.v[j], norm(dir));
    n = clip(face_b.data(), count_b, face_a.data(), count_a, nb.v[j], step, max_contacts,
             on_a.data(), on_b.data());
  } else if (edge_b) {
    const Vector3d step = scale(na.v[j], -norm(dir));
    n = clip(face_a.data(), count_a, face_b.data(), count_b, na.v[j], step, max_contacts,
             on_a.data(), on_b.data());
  } else {
    const Vector3d step = scale(nb.v[j], norm(dir));
    n = clip(face_a.data(), count_a, face_b.data(), count_b, na.v[i], step, max_contacts,
             on_a.data(), on_b.data());
  }
  for (int k = 0; k < n; ++k) {
    out[k].dist = dist;
    out[k].normal = unit_direction(sub(on_a[k], on_b[k]));
    out[k].pos = Vector3d(0.5 * (on_a[k][0] + on_b[k][0]), 0.5 * (on_a[k][1] + on_b[k][1]),
                          0.5 * (on_a[k][2] + on_b[k][2]));
    out[k].tangent.setZero();
  }
  return n;
}

}  // namespace pliant::collision
