#include "model/mesh.h"

// The float arithmetic below is written to round exactly where MuJoCo 2.2.2
// rounds; contracting a*b+c into one fused operation would change the bits.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
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

// Scale as 2.2.2 applies it: each float coordinate times a double factor,
// rounded back to float.
void apply_scale(std::vector<FloatVertex>* vertices, const Eigen::Vector3d& scale) {
  for (FloatVertex& v : *vertices) {
    for (int k = 0; k < 3; ++k) v[k] = static_cast<float>(static_cast<double>(v[k]) * scale[k]);
  }
}

TriangleMesh to_triangle_mesh(RawMesh raw) {
  TriangleMesh out;
  out.vertices.reserve(raw.vertices.size());
  for (const FloatVertex& v : raw.vertices) out.vertices.push_back(to_double(v));
  out.faces = std::move(raw.faces);
  return out;
}

// --- Mass properties -------------------------------------------------------

// Per-triangle quantities as 2.2.2 forms them from float corners a, b, c:
// centre = (a + b + c) / 3 summed and divided in single precision; edges
// b - a and c - a in single precision; normal = (b - a) x (c - a) in double,
// normalised; area = |normal| / 2. Triangles with |normal| < kMinValue get area
// 0 (and an unnormalised normal, which then never matters).
struct TriangleInfo {
  Eigen::Vector3d center;
  Eigen::Vector3d normal;
  double area;
};

TriangleInfo triangle_info(const FloatVertex& a, const FloatVertex& b, const FloatVertex& c) {
  TriangleInfo t;
  for (int k = 0; k < 3; ++k) {
    const float sum = (a[k] + b[k]) + c[k];
    t.center[k] = sum / 3.0f;
  }
  const double e1[3] = {static_cast<float>(b[0] - a[0]), static_cast<float>(b[1] - a[1]),
                        static_cast<float>(b[2] - a[2])};
  const double e2[3] = {static_cast<float>(c[0] - a[0]), static_cast<float>(c[1] - a[1]),
                        static_cast<float>(c[2] - a[2])};
  t.normal[0] = e1[1] * e2[2] - e1[2] * e2[1];
  t.normal[1] = e1[2] * e2[0] - e1[0] * e2[2];
  t.normal[2] = e1[0] * e2[1] - e1[1] * e2[0];
  const double len =
      std::sqrt(t.normal[0] * t.normal[0] + t.normal[1] * t.normal[1] + t.normal[2] * t.normal[2]);
  if (len < kMinValue) {
    t.area = 0;
    return t;
  }
  t.normal[0] /= len;
  t.normal[1] /= len;
  t.normal[2] /= len;
  t.area = len / 2;
  return t;
}

// Dot product summed left to right (the order matters for the last bit).
double dot3(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Second-moment integrand of a tetrahedron with one corner at the origin and
// corners d, e, f: for the tetrahedron of volume V,
//   integral of x_i x_j dV = V / 20 * (sum_k p_k,i p_k,j + (sum_k p_k,i)(sum_k p_k,j)),
// summed over its four corners p_k. With the origin as a corner this is
//   V / 20 * (2 (d_i d_j + e_i e_j + f_i f_j) + d_i e_j + d_j e_i + d_i f_j + d_j f_i
//             + e_i f_j + e_j f_i).
// 2.2.2 evaluates the bracket in single precision, left to right; so does this.
float second_moment_bracket(const FloatVertex& d, const FloatVertex& e, const FloatVertex& f, int i,
                            int j) {
  const float squares = (d[i] * d[j] + e[i] * e[j]) + f[i] * f[j];
  float s = 2.0f * squares;
  s = s + d[i] * e[j];
  s = s + d[j] * e[i];
  s = s + d[i] * f[j];
  s = s + d[j] * f[i];
  s = s + e[i] * f[j];
  s = s + e[j] * f[i];
  return s;
}

}  // namespace

TriangleMesh read_mesh_file(const std::string& path, const Eigen::Vector3d& scale,
                            const std::string& xml_file, int xml_line) {
  // 2.2.2 re-winds file faces when the scale mirrors the mesh.
  const bool flip = scale[0] * scale[1] * scale[2] < 0;
  RawMesh mesh = read_raw_mesh_file(path, flip, xml_file, xml_line);
  if (mesh.faces.empty()) {
    mesh.faces = convex_hull(mesh.vertices, "mesh file '" + path + "'", xml_file, xml_line);
  }
  apply_scale(&mesh.vertices, scale);
  return to_triangle_mesh(std::move(mesh));
}

TriangleMesh make_inline_mesh(const std::vector<double>& vertex, const std::vector<int>& face,
                              const Eigen::Vector3d& scale, const std::string& xml_file,
                              int xml_line) {
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
  } else if (has_repeated_directed_edge(mesh.faces)) {
    fail(xml_file, xml_line,
         "mesh faces have inconsistent orientation (an edge is traversed in the same "
         "direction by two faces); all faces must wind the same way");
  }
  apply_scale(&mesh.vertices, scale);
  return to_triangle_mesh(std::move(mesh));
}

// The 2.2.2 compile steps, in order (see mesh.h for the summary):
//  1. c0 = sum(area_t * centre_t) / sum(area_t), the area-weighted centroid of
//     the triangles.
//  2. Pyramid t has apex c0 and base triangle t: V_t = |(centre_t - c0) . n_t| A_t / 3
//     (signed in exact mode); its centroid is 3/4 centre_t + 1/4 c0.
//     com = sum(V_t (3/4 centre_t + c0 / 4)) / sum(V_t).
//  3. Vertices are moved to com (rounded to float) and one tetrahedron per
//     triangle with apex at the new origin is integrated:
//     V_t = |centre_t . n_t| A_t / 3 (recomputed), P_ij += rho V_t / 20 * bracket_ij.
//     The inertia tensor is I = trace(P) 1 - P.
//  4. I is diagonalised (eigen_decompose_symmetric3), giving the principal
//     frame quaternion and moments e; the equivalent box has half-sizes
//     b_x = sqrt(6 (e_y + e_z - e_x) / m) / 2 etc. with m = rho * sum(V_t).
//  5. Vertices are rotated into the principal frame (rounded to float), and
//     the bounding half-size is max |coordinate| per axis.
ProcessedMesh process_mesh(TriangleMesh raw, const std::string& xml_file, int xml_line,
                           double density, MeshInertia mode) {
  const bool exact = mode == MeshInertia::kExact;
  const int nv = static_cast<int>(raw.vertices.size());
  const int nf = static_cast<int>(raw.faces.size());
  std::vector<FloatVertex> vert(nv);
  for (int i = 0; i < nv; ++i) {
    for (int k = 0; k < 3; ++k) vert[i][k] = static_cast<float>(raw.vertices[i][k]);
  }
  for (int f = 0; f < nf; ++f) {
    for (int idx : raw.faces[f]) {
      if (idx < 0 || idx >= nv) {
        fail(xml_file, xml_line,
             "mesh face " + std::to_string(f) + " uses vertex index " + std::to_string(idx) +
                 "; valid indices are 0 to " + std::to_string(nv - 1));
      }
    }
  }
  auto corner = [&](int f, int k) -> const FloatVertex& { return vert[raw.faces[f][k]]; };

  // Step 1: area-weighted centroid of the surface.
  Eigen::Vector3d face_center = Eigen::Vector3d::Zero();
  double area = 0;
  for (int f = 0; f < nf; ++f) {
    const TriangleInfo t = triangle_info(corner(f, 0), corner(f, 1), corner(f, 2));
    for (int k = 0; k < 3; ++k) face_center[k] += t.area * t.center[k];
    area += t.area;
  }
  if (area < kMinValue) {
    fail(xml_file, xml_line,
         "mesh surface area is too small (" + std::to_string(area) +
             " m^2); the mesh needs non-degenerate triangles");
  }
  for (int k = 0; k < 3; ++k) face_center[k] /= area;

  // Step 2: volume and centre of mass from pyramids with apex face_center.
  double volume = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  for (int f = 0; f < nf; ++f) {
    const TriangleInfo t = triangle_info(corner(f, 0), corner(f, 1), corner(f, 2));
    const Eigen::Vector3d rel = t.center - face_center;
    double vol = dot3(rel, t.normal) * t.area / 3;
    if (!exact) vol = std::abs(vol);
    volume += vol;
    for (int k = 0; k < 3; ++k) com[k] += vol * (t.center[k] * 3.0 / 4.0 + face_center[k] / 4.0);
  }
  if (volume < kMinValue) {
    fail(xml_file, xml_line,
         "mesh volume is too small (" + std::to_string(volume) +
             " m^3); the mesh must enclose a volume" +
             (exact ? " with outward-facing (counter-clockwise) triangles" : ""));
  }
  for (int k = 0; k < 3; ++k) com[k] /= volume;

  // Step 3: re-centre (float), then integrate tetrahedra from the origin.
  for (FloatVertex& v : vert) {
    for (int k = 0; k < 3; ++k) v[k] = static_cast<float>(v[k] - com[k]);
  }
  constexpr int kPairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
  double p[6] = {0, 0, 0, 0, 0, 0};
  volume = 0;
  for (int f = 0; f < nf; ++f) {
    const FloatVertex& d = corner(f, 0);
    const FloatVertex& e = corner(f, 1);
    const FloatVertex& g = corner(f, 2);
    const TriangleInfo t = triangle_info(d, e, g);
    double vol = dot3(t.center, t.normal) * t.area / 3;
    if (!exact) vol = std::abs(vol);
    volume += vol;
    for (int m = 0; m < 6; ++m) {
      const float bracket = second_moment_bracket(d, e, g, kPairs[m][0], kPairs[m][1]);
      p[m] += density * vol / 20 * static_cast<double>(bracket);
    }
  }
  Eigen::Matrix3d inertia;
  inertia << p[1] + p[2], -p[3], -p[4], -p[3], p[0] + p[2], -p[5], -p[4], -p[5], p[0] + p[1];

  // Step 4: principal frame and equivalent box.
  Eigen::Vector3d eig;
  Eigen::Quaterniond quat;
  eigen_decompose_symmetric3(inertia, &eig, &quat);
  if (eig[2] <= 0) {
    fail(xml_file, xml_line,
         "mesh inertia has a non-positive principal moment; the mesh must enclose a volume");
  }
  if (eig[0] + eig[1] < eig[2] || eig[0] + eig[2] < eig[1] || eig[1] + eig[2] < eig[0]) {
    fail(xml_file, xml_line,
         "mesh principal moments violate A + B >= C; the mesh must be a closed surface");
  }
  const double mass = volume * density;
  const Eigen::Vector3d box(std::sqrt(6 * (eig[1] + eig[2] - eig[0]) / mass) / 2,
                            std::sqrt(6 * (eig[0] + eig[2] - eig[1]) / mass) / 2,
                            std::sqrt(6 * (eig[0] + eig[1] - eig[2]) / mass) / 2);

  // Step 5: principal-frame vertices, v' = R' v, and bounding half-sizes.
  const Eigen::Matrix3d rot = quat_to_matrix(quat);
  Eigen::Vector3d half = Eigen::Vector3d::Zero();
  ProcessedMesh out;
  out.mesh.faces = std::move(raw.faces);
  out.mesh.vertices.resize(nv);
  for (int i = 0; i < nv; ++i) {
    const double x = vert[i][0], y = vert[i][1], z = vert[i][2];
    for (int k = 0; k < 3; ++k) {
      const float c = static_cast<float>(x * rot(0, k) + y * rot(1, k) + z * rot(2, k));
      out.mesh.vertices[i][k] = c;
      half[k] = std::max(half[k], static_cast<double>(std::abs(c)));
    }
  }

  out.pos = com;
  out.quat = quat;
  out.mesh_volume = volume;
  out.box_half_size = box;
  out.eigenvalues = eig / density;
  if (exact) {
    // Mass from the mesh volume; moments of the box scaled to that mass,
    // which equal the mesh's own principal moments.
    out.volume = volume;
    out.inertia = out.eigenvalues;
  } else {
    // Legacy: the equivalent-inertia box stands in for the mesh.
    out.volume = 8 * box[0] * box[1] * box[2];
    out.inertia = Eigen::Vector3d(out.volume * (box[1] * box[1] + box[2] * box[2]) / 3,
                                  out.volume * (box[0] * box[0] + box[2] * box[2]) / 3,
                                  out.volume * (box[0] * box[0] + box[1] * box[1]) / 3);
  }
  out.half_size = half;
  out.rbound = std::sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
  return out;
}

}  // namespace pliant
