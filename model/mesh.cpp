#include "model/mesh.h"

// Sums and products below are written in MuJoCo 3.3.8's order; contracting
// a*b+c into one fused operation would change the last bits. GCC 12's SLP
// vectorizer also drops the double -> float -> double rounding of pairs of
// coordinates (measured: stored vertices that are not floats), so it is off
// here too.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off", "no-tree-slp-vectorize")
#endif

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "model/exact_rotation.h"
#include "model/mesh_files.h"
#include "model/numeric_limits.h"
#include "model/qhull_hull.h"
#include "model/raw_mesh.h"

namespace pliant {
namespace {

// Widening is exact: a TriangleMesh holds float values in double precision.
Eigen::Vector3d to_double(const FloatVertex& v) { return {v[0], v[1], v[2]}; }

// A mesh given without faces takes the faces of its vertices' convex hull,
// from qhull as in MuJoCo 2.2.2 (see qhull_hull.h for the order of faces and
// corners, on which the last bits of the mass properties depend).
std::vector<Face> convex_hull(const std::vector<FloatVertex>& fv, const std::string& what,
                              const std::string& xml_file, int xml_line) {
  std::vector<double> points;
  points.reserve(3 * fv.size());
  for (const FloatVertex& v : fv) points.insert(points.end(), v.begin(), v.end());
  QhullHull hull;
  if (!qhull_hull(points, HullOutput::kFaces, &hull)) {
    fail(xml_file, xml_line,
         what +
             ": could not build the convex hull of the vertices (they may be coplanar); "
             "give faces or non-coplanar vertices");
  }
  return std::move(hull.faces);
}

TriangleMesh to_triangle_mesh(RawMesh raw) {
  TriangleMesh out;
  out.vertices.reserve(raw.vertices.size());
  for (const FloatVertex& v : raw.vertices) out.vertices.push_back(to_double(v));
  out.faces = std::move(raw.faces);
  return out;
}

// --- Mass properties (double precision, as 3.3.8) ---------------------------

// Area, unit normal and centroid of triangle (a, b, c): normal from
// (b - a) x (c - a); a triangle with |normal| < kMinValue has area 0 and a
// zero normal.
struct Triangle {
  double area;
  Eigen::Vector3d normal, center;
};

Triangle triangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  Triangle t;
  const Eigen::Vector3d n = (b - a).cross(c - a);
  const double length = n.norm();
  t.area = length < kMinValue ? 0.0 : length / 2;
  t.normal = length < kMinValue ? Eigen::Vector3d::Zero() : Eigen::Vector3d(n / length);
  t.center = (a + b + c) / 3;
  return t;
}

// Second moments of the tetrahedron (0, d, e, f) per unit volume, times 20
// (or of the triangle (d, e, f) per unit area, times 12): for the pair (i, j)
// 2 (d_i d_j + e_i e_j + f_i f_j) + d_i e_j + d_j e_i + d_i f_j + d_j f_i
// + e_i f_j + e_j f_i.
double second_moment_bracket(const Eigen::Vector3d& d, const Eigen::Vector3d& e,
                             const Eigen::Vector3d& f, int i, int j) {
  return 2 * (d[i] * d[j] + e[i] * e[j] + f[i] * f[j]) + d[i] * e[j] + d[j] * e[i] + d[i] * f[j] +
         d[j] * f[i] + e[i] * f[j] + e[j] * f[i];
}

// MuJoCo 3.x checks winding on faces of area above sqrt(kMinValue) only;
// the first repeated directed edge (in sorted order) is reported, 1-based.
void check_orientation(const std::vector<Eigen::Vector3d>& v, const std::vector<Face>& faces,
                       const std::string& xml_file, int xml_line) {
  std::vector<std::pair<int, int>> edges;
  edges.reserve(3 * faces.size());
  for (const Face& f : faces) {
    if (triangle(v[f[0]], v[f[1]], v[f[2]]).area <= std::sqrt(kMinValue)) continue;
    edges.emplace_back(f[0], f[1]);
    edges.emplace_back(f[1], f[2]);
    edges.emplace_back(f[2], f[0]);
  }
  std::sort(edges.begin(), edges.end());
  const auto repeated = std::adjacent_find(edges.begin(), edges.end());
  if (repeated != edges.end()) {
    fail(xml_file, xml_line,
         "mesh faces have inconsistent orientation (the edge from vertex " +
             std::to_string(repeated->first + 1) + " to vertex " +
             std::to_string(repeated->second + 1) +
             " is traversed the same way by two faces); inertia=\"exact\" needs every face "
             "wound counter-clockwise seen from outside: fix the winding, or use "
             "inertia=\"legacy\", \"convex\" or \"shell\"");
  }
}

std::vector<Face> hull_faces(const std::vector<Eigen::Vector3d>& v, int maxhullvert,
                             const std::string& xml_file, int xml_line) {
  std::vector<double> points;
  points.reserve(3 * v.size());
  for (const Eigen::Vector3d& p : v) points.insert(points.end(), {p[0], p[1], p[2]});
  QhullHull hull;
  if (!qhull_hull(points, HullOutput::kFaces, &hull, maxhullvert)) {
    fail(xml_file, xml_line,
         "could not build the convex hull of the mesh vertices (they may be coplanar), "
         "which inertia=\"convex\" needs; use inertia=\"shell\" for a flat mesh");
  }
  return std::move(hull.faces);
}

}  // namespace

TriangleMesh read_mesh_file(const std::string& path, bool mirrored, const std::string& xml_file,
                            int xml_line, const std::string& format) {
  RawMesh mesh = read_raw_mesh_file(path, mirrored, xml_file, xml_line, format);
  if (mesh.faces.empty()) {
    mesh.faces = convex_hull(mesh.vertices, "mesh file '" + path + "'", xml_file, xml_line);
  }
  return to_triangle_mesh(std::move(mesh));
}

TriangleMesh make_inline_mesh(const std::vector<double>& vertex, const std::vector<int>& face,
                              const std::string& xml_file, int xml_line) {
  if (vertex.size() % 3 != 0) {
    fail(xml_file, xml_line,
         "mesh vertex data has " + std::to_string(vertex.size()) +
             " numbers; it must be a multiple of 3 (x y z per vertex)");
  }
  if (vertex.size() < 12) {
    fail(xml_file, xml_line,
         "mesh has " + std::to_string(vertex.size() / 3) + " vertices; at least 4 are required");
  }
  if (face.size() % 3 != 0) {
    fail(xml_file, xml_line,
         "mesh face data has " + std::to_string(face.size()) +
             " numbers; it must be a multiple of 3 (three vertex indices per triangle)");
  }
  RawMesh mesh;
  const int nv = static_cast<int>(vertex.size() / 3);
  for (int i = 0; i < nv; ++i) {
    FloatVertex v = {static_cast<float>(vertex[3 * i]), static_cast<float>(vertex[3 * i + 1]),
                     static_cast<float>(vertex[3 * i + 2])};
    if (!finite_vertex(v)) {
      fail(xml_file, xml_line,
           "mesh vertex " + std::to_string(i) + " is not finite in single precision");
    }
    mesh.vertices.push_back(v);
  }
  for (size_t f = 0; f < face.size(); f += 3) {
    Face tri = {face[f], face[f + 1], face[f + 2]};
    for (int idx : tri) {
      if (idx < 0 || idx >= nv) {
        fail(xml_file, xml_line,
             "mesh face " + std::to_string(f / 3) + " uses vertex index " + std::to_string(idx) +
                 "; valid indices are 0 to " + std::to_string(nv - 1));
      }
    }
    mesh.faces.push_back(tri);
  }
  if (mesh.faces.empty()) {
    mesh.faces = convex_hull(mesh.vertices, "inline mesh", xml_file, xml_line);
  }
  return to_triangle_mesh(std::move(mesh));
}

namespace {

// Face indices name existing vertices; maxhullvert is -1 or at least 4.
void check_mesh_input(const TriangleMesh& raw, int maxhullvert, const std::string& xml_file,
                      int xml_line) {
  const int nv = static_cast<int>(raw.vertices.size());
  for (size_t f = 0; f < raw.faces.size(); ++f) {
    for (int idx : raw.faces[f]) {
      if (idx < 0 || idx >= nv) {
        fail(xml_file, xml_line,
             "mesh face " + std::to_string(f) + " uses vertex index " + std::to_string(idx) +
                 "; valid indices are 0 to " + std::to_string(nv - 1));
      }
    }
  }
  if (maxhullvert != -1 && maxhullvert < 4) {
    fail(xml_file, xml_line,
         "mesh 'maxhullvert' is " + std::to_string(maxhullvert) +
             "; accepted: -1 (no limit) or at least 4");
  }
}

// Step 3: the area-weighted centroid of the faces.
Eigen::Vector3d surface_centroid(const std::vector<Eigen::Vector3d>& v,
                                 const std::vector<Face>& faces, const std::string& xml_file,
                                 int xml_line) {
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  double area = 0;
  for (const Face& f : faces) {
    const Triangle t = triangle(v[f[0]], v[f[1]], v[f[2]]);
    centroid += t.area * t.center;
    area += t.area;
  }
  if (area < kMinValue) {
    fail(xml_file, xml_line,
         "mesh surface area is too small (" + std::to_string(area) +
             " m^2); the mesh needs non-degenerate triangles");
  }
  centroid /= area;
  return centroid;
}

// Step 4: the centre of mass of the pyramids from `centroid` over `faces`
// (the faces that carry the mass).
Eigen::Vector3d mass_center(const std::vector<Eigen::Vector3d>& v, const std::vector<Face>& faces,
                            const Eigen::Vector3d& centroid, MeshInertia mode,
                            const std::string& xml_file, int xml_line) {
  const bool shell = mode == MeshInertia::kShell;
  double volume = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  for (const Face& f : faces) {
    const Triangle t = triangle(v[f[0]], v[f[1]], v[f[2]]);
    double w = shell ? t.area : (t.center - centroid).dot(t.normal) * t.area / 3;
    if (mode == MeshInertia::kLegacy) w = std::abs(w);
    volume += w;
    com += w * (0.75 * t.center + 0.25 * centroid);
  }
  if (volume < kMinValue) {
    if (volume < 0) {
      fail(xml_file, xml_line,
           "mesh volume is negative: its faces are wound clockwise seen from outside "
           "(misoriented triangles); fix the winding or use inertia=\"legacy\"");
    }
    fail(xml_file, xml_line,
         "mesh volume is too small (" + std::to_string(volume) +
             " m^3); the mesh must enclose a volume, or use inertia=\"shell\"");
  }
  com /= volume;
  return com;
}

// Step 5: the inertia tensor per unit density of the mass faces about the
// origin (the centre of mass); `volume` gets the total weight.
Eigen::Matrix3d inertia_about_origin(const std::vector<Eigen::Vector3d>& v,
                                     const std::vector<Face>& faces, MeshInertia mode,
                                     double& volume) {
  const bool shell = mode == MeshInertia::kShell;
  volume = 0;
  constexpr int kPairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  double moments[6] = {0, 0, 0, 0, 0, 0};
  for (const Face& f : faces) {
    const Eigen::Vector3d &d = v[f[0]], &e = v[f[1]], &g = v[f[2]];
    const Triangle t = triangle(d, e, g);
    double w = shell ? t.area : t.center.dot(t.normal) * t.area / 3;
    if (mode == MeshInertia::kLegacy) w = std::abs(w);
    volume += w;
    for (int m = 0; m < 6; ++m) {
      moments[m] +=
          w / (shell ? 12 : 20) * second_moment_bracket(d, e, g, kPairs[m][0], kPairs[m][1]);
    }
  }
  Eigen::Matrix3d inertia;
  inertia << moments[1] + moments[2], -moments[3], -moments[4], -moments[3],
      moments[0] + moments[2], -moments[5], -moments[4], -moments[5], moments[0] + moments[1];
  return inertia;
}

// Principal moments of a closed surface: the largest positive, and each at
// most the sum of the other two (with a small tolerance).
void check_principal_moments(const Eigen::Vector3d& eig, const std::string& xml_file,
                             int xml_line) {
  if (eig[2] <= 0) {
    fail(xml_file, xml_line,
         "mesh inertia has a non-positive principal moment; the mesh must enclose a volume");
  }
  constexpr double kRelative = 1e-6, kAbsolute = 1e-9;
  for (int k = 0; k < 3; ++k) {
    const double a = eig[(k + 1) % 3], b = eig[(k + 2) % 3];
    if (a + b < eig[k] * (1 - kRelative) - kAbsolute) {
      fail(xml_file, xml_line,
           "mesh principal moments violate A + B >= C; the mesh must be a closed surface");
    }
  }
}

}  // namespace

// The 3.3.8 compile steps, in order (see mesh.h for the summary):
//  1. With exact inertia, the winding is checked (check_orientation).
//  2. v <- scale .* R(refquat)' (v - refpos).
//  3. c0 = sum(A_t c_t) / sum(A_t) over the given faces: the surface centroid.
//  4. Volume and centre from pyramids with apex c0 over the faces that carry
//     the mass (the hull's with convex inertia): V_t = ((c_t - c0) . n_t) A_t / 3,
//     absolute in legacy mode; com = sum(V_t (3/4 c_t + 1/4 c0)) / sum(V_t).
//     Shell: V_t = A_t. A negative total is misoriented faces; a total below
//     kMinValue has no volume.
//  5. Vertices relative to com; per face, w = (c_t . n_t) A_t / 3 (abs in
//     legacy mode; A_t for shell) and P_ij += w / C * bracket_ij with C = 20
//     (12 for shell); the total of w is the volume the mass follows.
//     I = trace(P) 1 - P, diagonalised into moments e and a frame.
//  6. Equivalent box b_x = sqrt(6 (e_y + e_z - e_x) / V) / 2 etc.
//  7. Vertices into the principal frame: v' = R' (v - com).
ProcessedMesh process_mesh(TriangleMesh raw, const MeshOptions& options,
                           const std::string& xml_file, int xml_line) {
  const MeshInertia mode = options.inertia;
  const int nv = static_cast<int>(raw.vertices.size());
  check_mesh_input(raw, options.maxhullvert, xml_file, xml_line);
  std::vector<Eigen::Vector3d>& v = raw.vertices;
  if (mode == MeshInertia::kExact) check_orientation(v, raw.faces, xml_file, xml_line);

  std::vector<Eigen::Vector3d> hull_points = v;

  // Step 2.
  const Eigen::Matrix3d ref_rotation = options.refquat.normalized().toRotationMatrix();
  for (Eigen::Vector3d& p : v) {
    p = (ref_rotation.transpose() * (p - options.refpos)).cwiseProduct(options.scale);
  }
  const std::vector<Face>& faces = raw.faces;
  const std::vector<Face> hull = mode == MeshInertia::kConvex
                                     ? hull_faces(v, options.maxhullvert, xml_file, xml_line)
                                     : std::vector<Face>{};
  const std::vector<Face>& mass_faces = mode == MeshInertia::kConvex ? hull : faces;

  // Step 3.
  const Eigen::Vector3d centroid = surface_centroid(v, faces, xml_file, xml_line);

  // Step 4.
  const bool shell = mode == MeshInertia::kShell;
  const Eigen::Vector3d com =
      mass_center(v, shell ? faces : mass_faces, centroid, mode, xml_file, xml_line);

  // Step 5.
  for (Eigen::Vector3d& p : v) p -= com;
  double volume = 0;
  const Eigen::Matrix3d inertia = inertia_about_origin(v, shell ? faces : mass_faces, mode, volume);
  Eigen::Vector3d eig;
  Eigen::Quaterniond quat;
  eigen_decompose_symmetric3(inertia, &eig, &quat);
  check_principal_moments(eig, xml_file, xml_line);

  // Step 6.
  ProcessedMesh out;
  out.box_half_size = Eigen::Vector3d(std::sqrt(6 * (eig[1] + eig[2] - eig[0]) / volume) / 2,
                                      std::sqrt(6 * (eig[0] + eig[2] - eig[1]) / volume) / 2,
                                      std::sqrt(6 * (eig[0] + eig[1] - eig[2]) / volume) / 2);

  // Step 7: principal-frame vertices, bounds from the double values, stored as
  // floats as MuJoCo stores them.
  const Eigen::Matrix3d rot = quat_matrix(quat);
  out.aabb_min = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  out.aabb_max = -out.aabb_min;
  out.mesh.faces = std::move(raw.faces);
  out.mesh.vertices.resize(nv);
  out.principal_points.resize(nv);
  for (int i = 0; i < nv; ++i) {
    const Eigen::Vector3d p = rot.transpose() * v[i];
    out.principal_points[i] = p;
    out.aabb_min = out.aabb_min.cwiseMin(p);
    out.aabb_max = out.aabb_max.cwiseMax(p);
    for (int k = 0; k < 3; ++k) out.mesh.vertices[i][k] = static_cast<float>(p[k]);
  }
  out.pos = com;
  out.quat = quat;
  out.volume = volume;
  out.half_size = out.aabb_min.cwiseAbs().cwiseMax(out.aabb_max.cwiseAbs());
  out.rbound = out.half_size.norm();
  out.hull_points = std::move(hull_points);
  return out;
}

}  // namespace pliant
