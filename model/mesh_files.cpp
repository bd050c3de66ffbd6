#include "model/mesh_files.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

namespace pliant {
namespace {

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

// Merging of repeated vertices, as MuJoCo 3.x does it for STL files (which
// store three vertices per triangle): vertices equal in all three
// coordinates become one, numbered in order of first appearance.
void merge_repeated_vertices(RawMesh* mesh) {
  std::map<FloatVertex, int> first;
  std::vector<int> new_index(mesh->vertices.size());
  std::vector<FloatVertex> kept;
  for (size_t i = 0; i < mesh->vertices.size(); ++i) {
    const auto [it, inserted] = first.emplace(mesh->vertices[i], static_cast<int>(kept.size()));
    if (inserted) kept.push_back(mesh->vertices[i]);
    new_index[i] = it->second;
  }
  for (Face& f : mesh->faces) {
    for (int& v : f) v = new_index[v];
  }
  mesh->vertices = std::move(kept);
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

// Whether (x, y) lies inside the triangle (xs, ys), by the crossing count of
// a ray towards +x (a point on an edge may count either way).
bool inside_triangle(const float* xs, const float* ys, float x, float y) {
  bool inside = false;
  for (int i = 0, j = 2; i < 3; j = i++) {
    if (((ys[i] > y) != (ys[j] > y)) &&
        (x < (xs[j] - xs[i]) * (y - ys[i]) / (ys[j] - ys[i]) + xs[i])) {
      inside = !inside;
    }
  }
  return inside;
}

// A polygon of the OBJ file cut into triangles as MuJoCo 3.3.8 cuts it (its
// OBJ loader's ear clipping, in single precision; measured against 3.3.8 on
// convex and concave polygons, quads included, in and off the coordinate
// planes). The polygon is projected on the coordinate plane facing its
// first corner that is not straight. From `guess` = 0, the corner (guess,
// guess + 1, guess + 2) of the remaining polygon is cut off when it turns
// the way the whole polygon does (by its signed area) and holds no other
// remaining vertex; otherwise the next corner is tried. The last three
// vertices are the last triangle. A polygon that cannot be cut (every
// corner tried once without a cut) loses its rest, as in 3.3.8.
void clip_ears(const std::vector<int>& polygon, const std::vector<FloatVertex>& vertices,
               std::vector<Face>& out) {
  const int n = static_cast<int>(polygon.size());
  const auto coordinate = [&](int k, int axis) { return vertices[polygon[k]][axis]; };
  int axes[2] = {1, 2};
  for (int k = 0; k < n; ++k) {
    float e0[3], e1[3];
    for (int a = 0; a < 3; ++a) {
      e0[a] = coordinate((k + 1) % n, a) - coordinate(k, a);
      e1[a] = coordinate((k + 2) % n, a) - coordinate((k + 1) % n, a);
    }
    const float cx = std::fabs(e0[1] * e1[2] - e0[2] * e1[1]);
    const float cy = std::fabs(e0[2] * e1[0] - e0[0] * e1[2]);
    const float cz = std::fabs(e0[0] * e1[1] - e0[1] * e1[0]);
    const float epsilon = std::numeric_limits<float>::epsilon();
    if (cx > epsilon || cy > epsilon || cz > epsilon) {
      if (!(cx > cy && cx > cz)) {
        axes[0] = 0;
        if (cz > cx && cz > cy) axes[1] = 1;
      }
      break;
    }
  }
  float area = 0;
  for (int k = 0; k < n; ++k) {
    const int next = (k + 1) % n;
    area += (coordinate(k, axes[0]) * coordinate(next, axes[1]) -
             coordinate(k, axes[1]) * coordinate(next, axes[0])) *
            0.5f;
  }
  std::vector<int> remaining = polygon;
  int guess = 0;
  int tries = n, previous = n;
  while (remaining.size() > 3 && tries > 0) {
    const int m = static_cast<int>(remaining.size());
    if (guess >= m) guess -= m;
    if (previous != m) {
      previous = m;
      tries = m;
    } else {
      --tries;
    }
    int corner[3];
    float xs[3], ys[3];
    for (int k = 0; k < 3; ++k) {
      corner[k] = remaining[(guess + k) % m];
      xs[k] = vertices[corner[k]][axes[0]];
      ys[k] = vertices[corner[k]][axes[1]];
    }
    const float cross = (xs[1] - xs[0]) * (ys[2] - ys[1]) - (ys[1] - ys[0]) * (xs[2] - xs[1]);
    if (cross * area < 0) {
      ++guess;
      continue;
    }
    bool holds_another = false;
    for (int k = 3; k < m && !holds_another; ++k) {
      const FloatVertex& other = vertices[remaining[(guess + k) % m]];
      holds_another = inside_triangle(xs, ys, other[axes[0]], other[axes[1]]);
    }
    if (holds_another) {
      ++guess;
      continue;
    }
    out.push_back({corner[0], corner[1], corner[2]});
    remaining.erase(remaining.begin() + (guess + 1) % m);
  }
  if (remaining.size() == 3) out.push_back({remaining[0], remaining[1], remaining[2]});
}

// OBJ through tinyobjloader (single precision; polygons cut by clip_ears).
// As MuJoCo 3.x: every vertex of the file is kept, in file order, whether a
// face uses it or not, and only the first object's faces are used. Faces
// keep the file's winding, consistent or not.
RawMesh read_obj(const std::string& path, bool flip, const std::string& xml_file, int xml_line) {
  {
    std::ifstream probe(path, std::ios::binary);
    if (!probe) fail(xml_file, xml_line, "cannot open mesh file '" + path + "'");
  }
  tinyobj::ObjReader reader;
  tinyobj::ObjReaderConfig config;
  config.mtl_search_path = "";
  config.triangulate = false;  // clip_ears below
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
  for (int i = 0; i < nv; ++i) mesh.vertices.push_back(vertex_at(i));
  if (!reader.GetShapes().empty()) {
    const tinyobj::mesh_t& shape = reader.GetShapes()[0].mesh;
    size_t corner = 0;
    std::vector<int> polygon;
    for (size_t f = 0; f < shape.num_face_vertices.size(); ++f) {
      const int n = shape.num_face_vertices[f];
      polygon.resize(n);
      for (int k = 0; k < n; ++k) {
        const int index = shape.indices[corner + k].vertex_index;
        if (index < 0 || index >= nv) {
          fail(xml_file, xml_line,
               "OBJ file '" + path + "' face " + std::to_string(f) + " refers to vertex " +
                   std::to_string(index + 1) + "; the file has " + std::to_string(nv) +
                   " vertices (valid: 1 to " + std::to_string(nv) + ")");
        }
        polygon[k] = index;
      }
      corner += n;
      const size_t first = mesh.faces.size();
      if (n == 3) {
        mesh.faces.push_back({polygon[0], polygon[1], polygon[2]});
      } else if (n > 3) {
        clip_ears(polygon, mesh.vertices, mesh.faces);
      }
      if (flip) {
        for (size_t t = first; t < mesh.faces.size(); ++t)
          std::swap(mesh.faces[t][1], mesh.faces[t][2]);
      }
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

}  // namespace

RawMesh read_raw_mesh_file(const std::string& path, bool flip, const std::string& xml_file,
                           int xml_line, const std::string& format) {
  const std::string ext = format.empty() ? lowercase_extension(path) : format;
  if (ext == "stl") return read_stl(path, flip, xml_file, xml_line);
  if (ext == "obj") return read_obj(path, flip, xml_file, xml_line);
  if (ext == "msh") return read_msh(path, flip, xml_file, xml_line);
  fail(xml_file, xml_line,
       "mesh file '" + path + "' has unknown extension '" + ext +
           "'; accepted: .stl, .obj, .msh (any case)");
}

}  // namespace pliant
