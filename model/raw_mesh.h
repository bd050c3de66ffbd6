#pragma once

// A mesh as Pliant holds it while loading, before scaling and processing
// (internal to the model library): single-precision vertices, as MuJoCo
// reads them, and triangles as vertex indices. Also the checks and the error
// reporting that the file readers and inline meshes share.

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "pliant/load_error.h"

namespace pliant {

// Vertices as MuJoCo holds them while compiling: single precision.
using FloatVertex = std::array<float, 3>;
using Face = std::array<int, 3>;

struct RawMesh {
  std::vector<FloatVertex> vertices;
  std::vector<Face> faces;
};

// Every mesh problem is a LoadError at the XML element that names the mesh.
[[noreturn]] inline void fail(const std::string& xml_file, int xml_line,
                              const std::string& message) {
  throw LoadError(xml_file, xml_line, message);
}

inline bool finite_vertex(const FloatVertex& v) {
  return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]);
}

}  // namespace pliant
