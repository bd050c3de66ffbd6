#include "model/mesh_polygons.h"

#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace pliant {
namespace {

// (b - a) x (c - a), and its length.
double triangle_cross(const Vector3d& a, const Vector3d& b, const Vector3d& c, Vector3d* n) {
  const double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  *n = Vector3d(ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                ab[0] * ac[1] - ab[1] * ac[0]);
  const Vector3d& v = *n;
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// The unit normal of triangle (a, b, c): the cross product over its length.
// Under 1e-14 long, +x over the length, as MuJoCo 3.3.8 computes it (such
// triangles only come from meshes that do not collide); at length 0, where
// 3.3.8 leaves inf and NaN, +x itself.
Vector3d triangle_normal(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  Vector3d n;
  const double length = triangle_cross(a, b, c, &n);
  if (length < 1e-14) return Vector3d(length > 0 ? 1 / length : 1, 0, 0);
  return Vector3d(n[0] / length, n[1] / length, n[2] / length);
}

// The normal that decides which triangles share a plane, as MuJoCo 3.3.8
// computes it: triangle_normal's, except that a zero-area triangle gets
// (inf, NaN, NaN), which then orders against the others as 3.3.8's does.
Vector3d grouping_normal(const Vector3d& a, const Vector3d& b, const Vector3d& c) {
  Vector3d n;
  if (triangle_cross(a, b, c, &n) > 0) return triangle_normal(a, b, c);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return Vector3d(std::numeric_limits<double>::infinity(), nan, nan);
}

// Triangles merged into one plane so far: the directed boundary edges, each
// tagged with the connected piece ("island") it belongs to. A new triangle
// cancels every boundary edge it shares (reversed) and joins the islands
// those edges belonged to.
struct PlaneGroup {
  Vector3d normal;
  mutable std::vector<std::pair<int, int>> edges;
  mutable std::vector<int> island;
  mutable int islands = 1;

  PlaneGroup(const Vector3d& n, int a, int b, int c)
      : normal(n), edges{{a, b}, {b, c}, {c, a}}, island{0, 0, 0} {}

  // Renumbers island `drop` as `keep` (the smaller of the two, written back
  // to both) and closes the gap above `drop`.
  void merge_islands(int& keep, int& drop) const {
    if (drop < keep) std::swap(keep, drop);
    for (int& i : island) {
      if (i == drop) {
        i = keep;
      } else if (i > drop) {
        --i;
      }
    }
  }

  void add_triangle(int a, int b, int c) const {
    const int corners[3] = {a, b, c};
    bool is_new[3] = {true, true, true};
    int joined = -1;
    for (int k = 0; k < 3; ++k) {
      const int from = corners[k], to = corners[(k + 1) % 3];
      for (size_t e = 0; e < edges.size(); ++e) {
        if (edges[e].first != to || edges[e].second != from) continue;
        int other = island[e];
        if (joined == -1) {
          joined = other;
        } else if (other != joined) {
          --islands;
          merge_islands(joined, other);
        }
        is_new[k] = false;
        edges.erase(edges.begin() + static_cast<std::ptrdiff_t>(e));
        island.erase(island.begin() + static_cast<std::ptrdiff_t>(e));
        break;
      }
    }
    if (joined == -1) joined = islands++;
    for (int k = 0; k < 3; ++k) {
      if (!is_new[k]) continue;
      edges.emplace_back(corners[k], corners[(k + 1) % 3]);
      island.push_back(joined);
    }
  }

  // One closed path of vertices per island. The walk from an island's first
  // edge continues along edges 1, 2, ... (never edge 0) and an island whose
  // walk does not come back to its start gives no path, as in 3.3.8.
  std::vector<std::vector<int>> paths() const {
    if (edges.size() == 3) return {{edges[0].first, edges[1].first, edges[2].first}};
    std::vector<std::vector<int>> out;
    for (int i = 0; i < islands; ++i) {
      std::vector<int> path;
      for (size_t e = 0; e < edges.size(); ++e) {
        if (island[e] == i) {
          path = {edges[e].first, edges[e].second};
          break;
        }
      }
      if (path.empty()) continue;
      int next = path.back();
      for (size_t step = 0; step < edges.size(); ++step) {
        bool closed = false;
        for (size_t e = 1; e < edges.size(); ++e) {
          if (island[e] != i || edges[e].first != next) continue;
          next = edges[e].second;
          if (next == path[0]) {
            out.push_back(path);
            closed = true;
          } else {
            path.push_back(next);
          }
          break;
        }
        if (closed) break;
      }
    }
    return out;
  }
};

// Normals within 1.6e-3 rad are one plane; others are ordered by their
// components, largest first (equal within 1e-15 passes to the next).
bool plane_before(const PlaneGroup& p, const PlaneGroup& q) {
  const Vector3d& a = p.normal;
  const Vector3d& b = q.normal;
  if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] > 0.99999872) return false;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(a[k] - b[k]) > 1e-15) return a[k] > b[k];
  }
  return false;
}

}  // namespace

void compute_mesh_polygons(Meshes& meshes, const std::vector<PolygonSource>& sources) {
  meshes.poly_adr.clear();
  meshes.poly_num.clear();
  meshes.poly_normal.clear();
  meshes.poly_vert_adr.clear();
  meshes.poly_vert_num.clear();
  meshes.poly_vert.clear();
  meshes.polymap_adr.clear();
  meshes.polymap_num.clear();
  meshes.polymap.clear();
  for (int m = 0; m < meshes.count(); ++m) {
    const PolygonSource& source = sources[m];
    const std::vector<Vector3d>& read = *source.read_points;
    std::set<PlaneGroup, bool (*)(const PlaneGroup&, const PlaneGroup&)> planes(plane_before);
    for (const std::array<int, 3>& f : *source.faces) {
      PlaneGroup group(grouping_normal(read[f[0]], read[f[1]], read[f[2]]), f[0], f[1], f[2]);
      const auto found = planes.find(group);
      if (found == planes.end()) {
        planes.insert(std::move(group));
      } else {
        found->add_triangle(f[0], f[1], f[2]);
      }
    }
    std::vector<std::vector<int>> polygons;
    for (const PlaneGroup& plane : planes) {
      for (std::vector<int>& path : plane.paths()) {
        if (path.size() >= 3) polygons.push_back(std::move(path));
      }
    }
    const std::vector<Vector3d>& principal = *source.principal_points;
    meshes.poly_adr.push_back(static_cast<int>(meshes.poly_normal.size()));
    meshes.poly_num.push_back(static_cast<int>(polygons.size()));
    const int nvert = meshes.vert_count[m];
    std::vector<std::vector<int>> through(nvert);
    for (size_t p = 0; p < polygons.size(); ++p) {
      const std::vector<int>& corners = polygons[p];
      meshes.poly_normal.push_back(
          triangle_normal(principal[corners[0]], principal[corners[1]], principal[corners[2]]));
      meshes.poly_vert_adr.push_back(static_cast<int>(meshes.poly_vert.size()));
      meshes.poly_vert_num.push_back(static_cast<int>(corners.size()));
      for (const int v : corners) {
        meshes.poly_vert.push_back(v);
        through[v].push_back(static_cast<int>(p));
      }
    }
    for (int v = 0; v < nvert; ++v) {
      meshes.polymap_adr.push_back(static_cast<int>(meshes.polymap.size()));
      meshes.polymap_num.push_back(static_cast<int>(through[v].size()));
      meshes.polymap.insert(meshes.polymap.end(), through[v].begin(), through[v].end());
    }
  }
}

}  // namespace pliant
