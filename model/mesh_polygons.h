#pragma once

// The polygons of each mesh's convex hull: hull triangles whose normals agree
// to within 1.6e-3 rad, merged into one polygon per connected piece, as
// MuJoCo 3.3.8 compiles mesh_poly*. Multi-contact collision (<flag
// multiccd>) clips the touching polygons of two meshes or boxes against each
// other (engine/collision/multi_contact.cpp).

#include <array>
#include <vector>

#include "pliant/model.h"

namespace pliant {

// What one mesh's polygons are made from: the triangles (the hull's, in
// qhull's order; the mesh's own when it has no hull), the vertices as read
// (they decide which triangles share a plane) and the vertices in the
// principal frame, in double precision (they give each polygon's normal).
struct PolygonSource {
  const std::vector<std::array<int, 3>>* faces = nullptr;
  const std::vector<Vector3d>* read_points = nullptr;
  const std::vector<Vector3d>* principal_points = nullptr;
};

// Fills meshes.poly_* and meshes.polymap_* for every mesh (sources[m] for
// mesh m). Never throws.
void compute_mesh_polygons(Meshes& meshes, const std::vector<PolygonSource>& sources);

}  // namespace pliant
