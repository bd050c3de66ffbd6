#pragma once

// Convex hulls of the compiled meshes, for collision: a mesh geom collides as
// the convex hull of its vertices. Computed once when the model is compiled.

#include <array>
#include <vector>

#include "pliant/model.h"

namespace pliant {

// Fills meshes.hull_* with qhull: the hull's vertices (taken from
// meshes.vertices, geom frame) and, for each, its neighbours along hull
// edges. Which vertices and edges form the hull is decided on
// `*points_of[m]`, mesh m's vertices in the frame MuJoCo 3.3.8 computes its
// hull in (one point per vertex, same order; see ProcessedMesh::hull_points).
// A mesh whose hull cannot be built (all vertices coplanar or collinear)
// keeps all its vertices and no neighbours, so support queries scan them
// all. Never throws. `faces_of[m]` receives the hull's triangles (mesh
// vertex indices, qhull's order, wound outwards), empty without a hull.
void compute_mesh_hulls(Meshes& meshes, const std::vector<const std::vector<Vector3d>*>& points_of,
                        std::vector<std::vector<std::array<int, 3>>>* faces_of);

}  // namespace pliant
