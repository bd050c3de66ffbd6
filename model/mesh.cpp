#include "model/mesh.h"

// The float arithmetic below is written to round exactly where MuJoCo 2.2.2
// rounds; contracting a*b+c into one fused operation would change the bits.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

// Optional: build with PLIANT_WITH_QHULL (and link qhull_r) to take hulls of
// face-less meshes from qhull, as MuJoCo does, instead of the built-in code.
#ifdef PLIANT_WITH_QHULL
#include <csetjmp>
#include <cstdio>
extern "C" {
#include <libqhull_r/qhull_ra.h>
}
#endif

#include "model/load_error.h"
#include "model/numeric_limits.h"

namespace pliant {
namespace {

// Vertices as MuJoCo holds them while compiling: single precision.
using FloatVertex = std::array<float, 3>;
using Face = std::array<int, 3>;

struct RawMesh {
  std::vector<FloatVertex> vertices;
  std::vector<Face> faces;
};

[[noreturn]] void fail(const std::string& xml_file, int xml_line, const std::string& message) {
  throw LoadError(xml_file, xml_line, message);
}

std::string lowercase_extension(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot + 1);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

std::string read_bytes(const std::string& path, const std::string& xml_file, int xml_line) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(xml_file, xml_line, "cannot open mesh file '" + path + "'");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(xml_file, xml_line, "cannot read mesh file '" + path + "'");
  if (bytes.empty()) fail(xml_file, xml_line, "mesh file '" + path + "' is empty");
  return bytes;
}

bool finite_vertex(const FloatVertex& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

// Merging of repeated vertices, done the way 2.2.2 does it for STL files so
// that the vertex count and order come out the same: vertices are ordered by
// the single-precision key x + 0.01 y + 0.0001 z (stable order among equal
// keys), each vertex equal in all three coordinates to its predecessor in
// that order is redirected to it, and the survivors keep their file order.
void merge_repeated_vertices(RawMesh* mesh) {
  const int n = static_cast<int>(mesh->vertices.size());
  std::vector<float> key(n);
  for (int i = 0; i < n; ++i) {
    const FloatVertex& v = mesh->vertices[i];
    key[i] = static_cast<float>(v[0] + 1e-2 * v[1] + 1e-4 * v[2]);
  }
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] < key[b]; });

  std::vector<int> target(n);
  for (int i = 0; i < n; ++i) target[i] = i;
  int repeated = 0;
  for (int i = 1; i < n; ++i) {
    if (mesh->vertices[order[i]] == mesh->vertices[order[i - 1]]) {
      target[order[i]] = order[i - 1];
      ++repeated;
    }
  }
  if (repeated == 0) return;

  // Follow redirections to the surviving vertex, then compact.
  for (int i = 0; i < n; ++i) {
    int j = i;
    while (target[j] != j) j = target[j];
    target[i] = j;
  }
  std::vector<int> new_index(n, -1);
  std::vector<FloatVertex> kept;
  kept.reserve(n - repeated);
  for (int i = 0; i < n; ++i) {
    if (target[i] == i) {
      new_index[i] = static_cast<int>(kept.size());
      kept.push_back(mesh->vertices[i]);
    }
  }
  for (Face& f : mesh->faces) {
    for (int& v : f) v = new_index[target[v]];
  }
  mesh->vertices = std::move(kept);
}

// A face list is consistently oriented when no directed edge occurs twice
// (two neighbours traversing their shared edge the same way means one of
// them is flipped). 2.2.2 rejects inline and OBJ meshes that fail this.
bool has_repeated_directed_edge(const std::vector<Face>& faces) {
  std::vector<std::pair<int, int>> edges;
  edges.reserve(3 * faces.size());
  for (const Face& f : faces) {
    edges.emplace_back(f[0], f[1]);
    edges.emplace_back(f[1], f[2]);
    edges.emplace_back(f[2], f[0]);
  }
  std::sort(edges.begin(), edges.end());
  return std::adjacent_find(edges.begin(), edges.end()) != edges.end();
}

// Binary STL: 80-byte header, uint32 triangle count, then per triangle 50
// bytes: normal (3 float32, ignored), three vertices (3 float32 each), and a
// 16-bit attribute. Little-endian. Each triangle gets its own three vertices.
RawMesh parse_binary_stl(const std::string& bytes, uint32_t count, bool flip,
                         const std::string& path, const std::string& xml_file, int xml_line) {
  RawMesh mesh;
  mesh.vertices.reserve(3 * static_cast<size_t>(count));
  mesh.faces.reserve(count);
  for (uint32_t t = 0; t < count; ++t) {
    const char* rec = bytes.data() + 84 + 50 * static_cast<size_t>(t);
    Face f;
    for (int j = 0; j < 3; ++j) {
      FloatVertex v;
      std::memcpy(v.data(), rec + 12 * (j + 1), 12);
      if (!finite_vertex(v)) {
        fail(xml_file, xml_line,
             "STL file '" + path + "' has a non-finite vertex coordinate in triangle " +
                 std::to_string(t));
      }
      f[j] = static_cast<int>(mesh.vertices.size());
      mesh.vertices.push_back(v);
    }
    if (flip) std::swap(f[1], f[2]);
    mesh.faces.push_back(f);
  }
  return mesh;
}

// ASCII STL: "solid", then per facet "facet normal n n n / outer loop /
// vertex x y z (three times) / endloop / endfacet", then "endsolid". Only the
// vertex lines carry data; they are taken three at a time, parsed to float.
RawMesh parse_ascii_stl(const std::string& bytes, bool flip, const std::string& path,
                        const std::string& xml_file, int xml_line) {
  RawMesh mesh;
  std::istringstream in(bytes);
  std::string word;
  in >> word;  // "solid"; the rest of that line is the name
  std::string rest;
  std::getline(in, rest);
  while (in >> word) {
    if (word != "vertex") continue;
    std::string sx, sy, sz;
    in >> sx >> sy >> sz;
    FloatVertex v;
    const std::string* text[3] = {&sx, &sy, &sz};
    for (int k = 0; k < 3; ++k) {
      char* end = nullptr;
      v[k] = std::strtof(text[k]->c_str(), &end);
      if (text[k]->empty() || *end != '\0') {
        fail(xml_file, xml_line,
             "ASCII STL file '" + path + "' has a malformed vertex line (vertex " +
                 std::to_string(mesh.vertices.size()) + "); expected 'vertex x y z'");
      }
    }
    if (!finite_vertex(v)) {
      fail(xml_file, xml_line, "ASCII STL file '" + path + "' has a non-finite vertex coordinate");
    }
    mesh.vertices.push_back(v);
  }
  if (mesh.vertices.empty()) {
    fail(xml_file, xml_line, "ASCII STL file '" + path + "' contains no facets");
  }
  if (mesh.vertices.size() % 3 != 0) {
    fail(xml_file, xml_line,
         "ASCII STL file '" + path + "' has " + std::to_string(mesh.vertices.size()) +
             " vertices, not a multiple of 3; every facet needs exactly 3 'vertex' lines");
  }
  for (int i = 0; i < static_cast<int>(mesh.vertices.size()); i += 3) {
    Face f = {i, i + 1, i + 2};
    if (flip) std::swap(f[1], f[2]);
    mesh.faces.push_back(f);
  }
  return mesh;
}

// Chooses between binary and ASCII STL: a file whose size is exactly
// 84 + 50 * (triangle count in the header) is binary even if its header
// happens to start with "solid" (many exporters do that); otherwise a file
// starting with "solid" and mentioning "facet" is read as ASCII. Repeated
// vertices are merged either way.
RawMesh read_stl(const std::string& path, bool flip, const std::string& xml_file, int xml_line) {
  const std::string bytes = read_bytes(path, xml_file, xml_line);
  bool binary_size_matches = false;
  uint32_t count = 0;
  if (bytes.size() >= 84) {
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + 80);
    count = static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
            (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
    binary_size_matches = bytes.size() - 84 == 50 * static_cast<uint64_t>(count);
  }
  const size_t first = bytes.find_first_not_of(" \t\r\n");
  const bool looks_ascii = first != std::string::npos && bytes.compare(first, 5, "solid") == 0 &&
                           bytes.find("facet") != std::string::npos;
  RawMesh mesh;
  if (binary_size_matches) {
    if (count == 0) fail(xml_file, xml_line, "STL file '" + path + "' has no triangles");
    mesh = parse_binary_stl(bytes, count, flip, path, xml_file, xml_line);
  } else if (looks_ascii) {
    mesh = parse_ascii_stl(bytes, flip, path, xml_file, xml_line);
  } else if (bytes.size() < 84) {
    fail(xml_file, xml_line,
         "STL file '" + path + "' is too short (" + std::to_string(bytes.size()) +
             " bytes) for a binary STL header of 84 bytes, and is not ASCII STL "
             "(does not start with 'solid')");
  } else {
    fail(xml_file, xml_line,
         "binary STL file '" + path + "' has the wrong size: its header announces " +
             std::to_string(count) + " triangles, which needs " +
             std::to_string(84 + 50 * static_cast<uint64_t>(count)) + " bytes, but it has " +
             std::to_string(bytes.size()) + " (truncated or not an STL file)");
  }
  merge_repeated_vertices(&mesh);
  return mesh;
}

// OBJ through tinyobjloader (single precision, polygons triangulated by the
// loader as in MuJoCo). Like 2.2.2, only the first object's faces are used
// and each face corner becomes a vertex of its own, so the vertex count is 3
// per triangle; a file without faces yields its bare vertex list.
RawMesh read_obj(const std::string& path, bool flip, const std::string& xml_file, int xml_line) {
  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) fail(xml_file, xml_line, "cannot open mesh file '" + path + "'");
  }
  tinyobj::ObjReader reader;
  tinyobj::ObjReaderConfig config;
  config.mtl_search_path = "";
  if (!reader.ParseFromFile(path, config) || !reader.Valid()) {
    fail(xml_file, xml_line, "cannot parse OBJ file '" + path + "': " + reader.Error());
  }
  const tinyobj::attrib_t& attrib = reader.GetAttrib();
  const int nv = static_cast<int>(attrib.vertices.size() / 3);
  auto vertex_at = [&](int i) {
    return FloatVertex{static_cast<float>(attrib.vertices[3 * i]),
                       static_cast<float>(attrib.vertices[3 * i + 1]),
                       static_cast<float>(attrib.vertices[3 * i + 2])};
  };
  RawMesh mesh;
  if (reader.GetShapes().empty()) {
    for (int i = 0; i < nv; ++i) mesh.vertices.push_back(vertex_at(i));
  } else {
    const tinyobj::mesh_t& shape = reader.GetShapes()[0].mesh;
    std::vector<Face> file_faces;  // in the file's own vertex numbering
    size_t corner = 0;
    for (size_t f = 0; f < shape.num_face_vertices.size(); ++f) {
      const int n = shape.num_face_vertices[f];
      if (n < 3 || n > 4) {
        fail(xml_file, xml_line,
             "OBJ file '" + path + "' has a face with " + std::to_string(n) +
                 " vertices; only triangles and quads are accepted");
      }
      std::array<int, 4> idx{};
      for (int k = 0; k < n; ++k) {
        idx[k] = shape.indices[corner + k].vertex_index;
        if (idx[k] < 0 || idx[k] >= nv) {
          fail(xml_file, xml_line,
               "OBJ file '" + path + "' face " + std::to_string(f) + " refers to vertex " +
                   std::to_string(idx[k] + 1) + "; the file has " + std::to_string(nv) +
                   " vertices (valid: 1 to " + std::to_string(nv) + ")");
        }
      }
      file_faces.push_back({idx[0], idx[1], idx[2]});
      if (n == 4) file_faces.push_back({idx[0], idx[2], idx[3]});
      corner += n;
    }
    if (has_repeated_directed_edge(file_faces)) {
      fail(xml_file, xml_line,
           "OBJ file '" + path +
               "' has faces with inconsistent orientation (an edge is "
               "traversed in the same direction by two faces); all faces must wind the same way");
    }
    for (const Face& ff : file_faces) {
      const int base = static_cast<int>(mesh.vertices.size());
      for (int k = 0; k < 3; ++k) mesh.vertices.push_back(vertex_at(ff[k]));
      mesh.faces.push_back(flip ? Face{base, base + 2, base + 1} : Face{base, base + 1, base + 2});
    }
  }
  if (mesh.vertices.empty()) {
    fail(xml_file, xml_line, "OBJ file '" + path + "' contains no vertices");
  }
  for (const FloatVertex& v : mesh.vertices) {
    if (!finite_vertex(v)) {
      fail(xml_file, xml_line, "OBJ file '" + path + "' has a non-finite vertex coordinate");
    }
  }
  return mesh;
}

// MSH (MuJoCo's binary mesh): int32 nvert, nnormal, ntexcoord, nface; then
// nvert*3 float32 positions, nnormal*3 normals, ntexcoord*2 texcoords,
// nface*3 int32 indices. Normals and texcoords are skipped here.
RawMesh read_msh(const std::string& path, bool flip, const std::string& xml_file, int xml_line) {
  const std::string bytes = read_bytes(path, xml_file, xml_line);
  if (bytes.size() < 16) {
    fail(xml_file, xml_line, "MSH file '" + path + "' is shorter than its 16-byte header");
  }
  int32_t header[4];
  std::memcpy(header, bytes.data(), 16);
  const int64_t nvert = header[0], nnormal = header[1], ntex = header[2], nface = header[3];
  if (nvert < 4 || nface < 0 || nnormal < 0 || ntex < 0 || (nnormal > 0 && nnormal != nvert) ||
      (ntex > 0 && ntex != nvert)) {
    fail(xml_file, xml_line,
         "MSH file '" + path +
             "' has invalid sizes in its header; need at least 4 vertices, "
             "and normal / texcoord counts either 0 or equal to the vertex count");
  }
  const int64_t expected = 16 + 12 * nvert + 12 * nnormal + 8 * ntex + 12 * nface;
  if (static_cast<int64_t>(bytes.size()) != expected) {
    fail(xml_file, xml_line,
         "MSH file '" + path + "' has " + std::to_string(bytes.size()) +
             " bytes but its header needs " + std::to_string(expected));
  }
  RawMesh mesh;
  mesh.vertices.resize(nvert);
  std::memcpy(mesh.vertices.data(), bytes.data() + 16, 12 * nvert);
  const char* face_data = bytes.data() + 16 + 12 * nvert + 12 * nnormal + 8 * ntex;
  mesh.faces.resize(nface);
  std::memcpy(mesh.faces.data(), face_data, 12 * nface);
  for (Face& f : mesh.faces) {
    if (flip) std::swap(f[1], f[2]);
  }
  for (const FloatVertex& v : mesh.vertices) {
    if (!finite_vertex(v)) {
      fail(xml_file, xml_line, "MSH file '" + path + "' has a non-finite vertex coordinate");
    }
  }
  return mesh;
}

// --- Convex hull, for meshes given without faces -------------------------
//
// Incremental construction: start from a non-degenerate tetrahedron of
// extreme points; for each further point, remove the faces that see it and
// close the hole with a fan of new faces to the horizon. Face normals point
// outwards (counter-clockwise seen from outside). Coplanar hull facets come
// out triangulated in some way; mass properties do not depend on which.

Eigen::Vector3d to_double(const FloatVertex& v) { return {v[0], v[1], v[2]}; }

#ifdef PLIANT_WITH_QHULL
// With qhull available (the library MuJoCo itself uses), the hull is the one
// MuJoCo gets: options "Qt" (triangulated output), facets in qhull's order,
// corners in the facet's vertex-set order with the first two swapped when the
// facet has top orientation, which makes every triangle wind outwards. This
// reproduces MuJoCo's faces exactly, and with them the last bits of the mass
// properties (which matter for the principal frame of symmetric meshes).
std::vector<Face> qhull_faces(const std::vector<FloatVertex>& fv, const std::string& what,
                              const std::string& xml_file, int xml_line) {
  const int n = static_cast<int>(fv.size());
  std::vector<coordT> data(3 * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) data[3 * i + k] = fv[i][k];
  }
  std::vector<Face> out;
  bool ok = true;
  qhT qh_storage;
  qhT* qh = &qh_storage;
  char options[] = "qhull Qt";
  // qhull prints its own diagnostics before reporting failure; the loader
  // reports through LoadError only, so they go to the null device.
  FILE* quiet = std::fopen("/dev/null", "w");
  qh_zero(qh, quiet);
  qh_init_A(qh, stdin, quiet, quiet, 0, nullptr);
  // qhull reports errors by longjmp back here; nothing with a destructor is
  // created between setjmp and the longjmp sources below.
  if (setjmp(qh->errexit) == 0) {
    qh->NOerrexit = False;
    qh_initflags(qh, options);
    qh_init_B(qh, data.data(), n, 3, False);
    qh_qhull(qh);
    qh_triangulate(qh);
    facetT* facet;
    FORALLfacets {
      Face f = {0, 0, 0};
      int corner = 0;
      vertexT* vertex;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (corner < 3) f[corner] = qh_pointid(qh, vertex->point);
        ++corner;
      }
      if (corner != 3) ok = false;
      if (facet->toporient) std::swap(f[0], f[1]);
      out.push_back(f);
    }
  } else {
    ok = false;
  }
  qh->NOerrexit = True;
  int curlong = 0, totlong = 0;
  qh_freeqhull(qh, !qh_ALL);
  qh_memfreeshort(qh, &curlong, &totlong);
  if (quiet != nullptr) std::fclose(quiet);
  if (!ok || out.empty()) {
    fail(xml_file, xml_line,
         what +
             ": could not build the convex hull of the vertices (they may be coplanar); "
             "give faces or non-coplanar vertices");
  }
  return out;
}
#endif

std::vector<Face> convex_hull(const std::vector<FloatVertex>& fv, const std::string& what,
                              const std::string& xml_file, int xml_line) {
#ifdef PLIANT_WITH_QHULL
  return qhull_faces(fv, what, xml_file, xml_line);
#endif
  const int n = static_cast<int>(fv.size());
  std::vector<Eigen::Vector3d> p(n);
  double extent = 0;
  for (int i = 0; i < n; ++i) {
    p[i] = to_double(fv[i]);
    extent = std::max(extent, p[i].cwiseAbs().maxCoeff());
  }
  const double eps = 1e-12 * std::max(extent, 1e-300);
  auto degenerate = [&]() {
    fail(xml_file, xml_line,
         what +
             ": the vertices are coplanar (or collinear), so they enclose no volume; "
             "give faces or non-coplanar vertices");
  };
  // Initial tetrahedron: lowest x, farthest from it, farthest from that line,
  // farthest from that plane.
  int i0 = 0;
  for (int i = 1; i < n; ++i) {
    if (p[i].x() < p[i0].x()) i0 = i;
  }
  int i1 = -1;
  double best = 0;
  for (int i = 0; i < n; ++i) {
    const double d = (p[i] - p[i0]).norm();
    if (d > best) best = d, i1 = i;
  }
  if (i1 < 0 || best <= eps) degenerate();
  int i2 = -1;
  best = 0;
  for (int i = 0; i < n; ++i) {
    const double d = (p[i] - p[i0]).cross(p[i1] - p[i0]).norm();
    if (d > best) best = d, i2 = i;
  }
  if (i2 < 0 || best <= eps * extent) degenerate();
  const Eigen::Vector3d plane_n = (p[i1] - p[i0]).cross(p[i2] - p[i0]);
  int i3 = -1;
  best = 0;
  for (int i = 0; i < n; ++i) {
    const double d = std::abs(plane_n.dot(p[i] - p[i0]));
    if (d > best) best = d, i3 = i;
  }
  if (i3 < 0 || best <= eps * extent * extent) degenerate();

  struct HullFace {
    Face v;
    Eigen::Vector3d normal;  // unnormalised outward normal
    double offset;           // normal . x for points on the plane
    bool alive;
  };
  std::vector<HullFace> faces;
  auto add_face = [&](int a, int b, int c) {
    const Eigen::Vector3d nrm = (p[b] - p[a]).cross(p[c] - p[a]);
    faces.push_back({{a, b, c}, nrm, nrm.dot(p[a]), true});
  };
  // Orient the first tetrahedron so that every face looks away from i3.
  if (plane_n.dot(p[i3] - p[i0]) > 0) {
    add_face(i0, i2, i1);
    add_face(i0, i1, i3);
    add_face(i1, i2, i3);
    add_face(i2, i0, i3);
  } else {
    add_face(i0, i1, i2);
    add_face(i0, i3, i1);
    add_face(i1, i3, i2);
    add_face(i2, i3, i0);
  }
  // A point is outside a face when it is above its plane by more than a
  // tolerance proportional to the face size.
  auto above = [&](const HullFace& f, const Eigen::Vector3d& x) {
    return f.normal.dot(x) - f.offset > eps * f.normal.norm();
  };
  for (int i = 0; i < n; ++i) {
    if (i == i0 || i == i1 || i == i2 || i == i3) continue;
    std::vector<int> visible;
    for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
      if (faces[f].alive && above(faces[f], p[i])) visible.push_back(f);
    }
    if (visible.empty()) continue;
    // Horizon: directed edges of visible faces whose reverse is not an edge
    // of another visible face.
    std::vector<std::pair<int, int>> edges;
    for (int f : visible) {
      const Face& v = faces[f].v;
      for (int k = 0; k < 3; ++k) edges.emplace_back(v[k], v[(k + 1) % 3]);
      faces[f].alive = false;
    }
    std::vector<std::pair<int, int>> sorted = edges;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& e : edges) {
      if (!std::binary_search(sorted.begin(), sorted.end(), std::make_pair(e.second, e.first))) {
        add_face(e.first, e.second, i);
      }
    }
  }
  std::vector<Face> out;
  for (const HullFace& f : faces) {
    if (f.alive) out.push_back(f.v);
  }
  return out;
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

// Rotation matrix of a unit quaternion (w, x, y, z), written out.
Eigen::Matrix3d quat_to_matrix(const Eigen::Quaterniond& q) {
  const double w = q.w(), x = q.x(), y = q.y(), z = q.z();
  Eigen::Matrix3d r;
  r << w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z),
      w * w - x * x + y * y - z * z, 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x),
      w * w - x * x - y * y + z * z;
  return r;
}

// Hamilton product, written out for a fixed rounding order.
Eigen::Quaterniond quat_mul(const Eigen::Quaterniond& a, const Eigen::Quaterniond& b) {
  return Eigen::Quaterniond(a.w() * b.w() - a.x() * b.x() - a.y() * b.y() - a.z() * b.z(),
                            a.w() * b.x() + a.x() * b.w() + a.y() * b.z() - a.z() * b.y(),
                            a.w() * b.y() - a.x() * b.z() + a.y() * b.w() + a.z() * b.x(),
                            a.w() * b.z() + a.x() * b.y() - a.y() * b.x() + a.z() * b.w());
}

// Normalisation as 2.2.2 does it: components multiplied by 1 / norm; a
// vanishing quaternion becomes the identity.
Eigen::Quaterniond quat_normalized(const Eigen::Quaterniond& q) {
  const double norm = std::sqrt(q.w() * q.w() + q.x() * q.x() + q.y() * q.y() + q.z() * q.z());
  if (norm < kMinValue) return Eigen::Quaterniond(1, 0, 0, 0);
  const double inv = 1 / norm;
  return Eigen::Quaterniond(q.w() * inv, q.x() * inv, q.y() * inv, q.z() * inv);
}

// 3x3 products with each entry summed left to right over the inner index.
Eigen::Matrix3d mul_transposed_left(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  Eigen::Matrix3d r;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) r(i, k) = a(0, i) * b(0, k) + a(1, i) * b(1, k) + a(2, i) * b(2, k);
  }
  return r;
}

Eigen::Matrix3d mul(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  Eigen::Matrix3d r;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) r(i, k) = a(i, 0) * b(0, k) + a(i, 1) * b(1, k) + a(i, 2) * b(2, k);
  }
  return r;
}

}  // namespace

// Jacobi eigen-decomposition, R' A R = D, R kept as a quaternion q; written
// to round exactly like MuJoCo 2.2.2's mju_eig3, because for meshes with
// (nearly) equal principal moments the last bits decide the frame.
// Each iteration forms D = (R' A) R from the current q and picks the pivot
// (i, j) with the largest |D(i,j)| (ties go to the later pair). It stops when
// that is below kEps. Otherwise, with tau = (D(j,j) - D(i,i)) / (2 D(i,j)),
// t = sign(tau) / (|tau| + sqrt(1 + tau^2)) is the tangent of the smaller
// angle that zeroes D(i,j), and c = 1 / sqrt(1 + t^2) its cosine; it stops
// when c > 1 - kEps. The rotation is about axis k (not i or j) by that angle;
// its quaternion has vector part +-sqrt(1/2 - c/2) on axis k (minus for
// tau >= 0, and the opposite on axis 1, where (i, j, k) is left-handed) and
// scalar part sqrt(1 - v^2). q <- normalise(q * rotation).
// Finally the eigenvalues are sorted decreasingly by a bubble pass over the
// pairs (0,1), (1,2), (0,1); a swap is a +90 degree turn about the remaining
// axis (columns (u, v) become (v, -u)), applied when the later value is
// larger by more than kEps (MuJoCo 3.x; 2.2.2 swapped on any difference, so
// equal moments could turn the frame on round-off).
int eigen_decompose_symmetric3(const Eigen::Matrix3d& mat, Eigen::Vector3d* values,
                               Eigen::Quaterniond* frame) {
  constexpr double kEps = 1e-12;
  constexpr int kMaxIterations = 500;
  // cos(pi/4) = sin(pi/4) to 15 digits; the quaternion is normalised after use.
  constexpr double kHalfTurn = 0.707106781186548;
  Eigen::Quaterniond q(1, 0, 0, 0);
  Eigen::Vector3d v;
  int iterations = 0;
  for (; iterations < kMaxIterations; ++iterations) {
    const Eigen::Matrix3d r = quat_to_matrix(q);
    const Eigen::Matrix3d d = mul(mul_transposed_left(r, mat), r);
    v = d.diagonal();
    const double a01 = std::abs(d(0, 1)), a02 = std::abs(d(0, 2)), a12 = std::abs(d(1, 2));
    int i, j, k;
    if (a01 > a02 && a01 > a12) {
      i = 0, j = 1, k = 2;
    } else if (a02 > a12) {
      i = 0, j = 2, k = 1;
    } else {
      i = 1, j = 2, k = 0;
    }
    if (std::abs(d(i, j)) < kEps) break;
    const double tau = (d(j, j) - d(i, i)) / (2 * d(i, j));
    const double t = tau >= 0 ? 1.0 / (tau + std::sqrt(1 + tau * tau))
                              : -1.0 / (-tau + std::sqrt(1 + tau * tau));
    const double c = 1.0 / std::sqrt(1 + t * t);
    if (c > 1.0 - kEps) break;
    double s = std::sqrt(0.5 - 0.5 * c);
    if (tau >= 0) s = -s;
    if (k == 1) s = -s;
    Eigen::Quaterniond rot(std::sqrt(1.0 - s * s), 0, 0, 0);
    rot.coeffs()[k] = s;  // coeffs() is (x, y, z, w)
    q = quat_normalized(quat_mul(q, quat_normalized(rot)));
  }
  for (int pass = 0; pass < 3; ++pass) {
    const int a = pass % 2;
    if (v[a] + kEps < v[a + 1]) {
      std::swap(v[a], v[a + 1]);
      Eigen::Quaterniond turn(kHalfTurn, 0, 0, 0);
      turn.coeffs()[(a + 2) % 3] = kHalfTurn;
      q = quat_normalized(quat_mul(q, turn));
    }
  }
  *values = v;
  *frame = q;
  return iterations;
}

TriangleMesh read_mesh_file(const std::string& path, const Eigen::Vector3d& scale,
                            const std::string& xml_file, int xml_line) {
  const std::string ext = lowercase_extension(path);
  // 2.2.2 re-winds file faces when the scale mirrors the mesh.
  const bool flip = scale[0] * scale[1] * scale[2] < 0;
  RawMesh mesh;
  if (ext == "stl") {
    mesh = read_stl(path, flip, xml_file, xml_line);
  } else if (ext == "obj") {
    mesh = read_obj(path, flip, xml_file, xml_line);
  } else if (ext == "msh") {
    mesh = read_msh(path, flip, xml_file, xml_line);
  } else {
    fail(xml_file, xml_line,
         "mesh file '" + path + "' has unknown extension '" + ext +
             "'; accepted: .stl, .obj, .msh (any case)");
  }
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
