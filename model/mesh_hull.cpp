#include "model/mesh_hull.h"

#include <utility>
#include <vector>

#include "model/qhull_hull.h"

namespace pliant {

void compute_mesh_hulls(Meshes& meshes, const std::vector<const std::vector<Vector3d>*>& points_of,
                        std::vector<std::vector<std::array<int, 3>>>* faces_of) {
  meshes.hull_vert_adr.clear();
  meshes.hull_vert_count.clear();
  meshes.hull_vertices.clear();
  meshes.hull_neighbour_adr.clear();
  meshes.hull_neighbour_count.clear();
  meshes.hull_neighbours.clear();
  meshes.hull_vertex_id.clear();
  faces_of->assign(meshes.count(), {});
  for (int m = 0; m < meshes.count(); ++m) {
    const int adr = meshes.vert_adr[m], n = meshes.vert_count[m];
    std::vector<double> points(3 * static_cast<size_t>(n));
    const std::vector<Vector3d>& source = *points_of[m];
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) points[3 * i + k] = source[i][k];
    }
    QhullHull hull;
    const bool ok = n >= 4 && qhull_hull(points, HullOutput::kAll, &hull, meshes.maxhullvert[m]);
    const std::vector<int>& vertices = hull.vertices;
    const std::vector<std::vector<int>>& adjacent = hull.neighbours;
    meshes.hull_vert_adr.push_back(static_cast<int>(meshes.hull_vertices.size()));
    if (!ok) {
      // No hull: every vertex, no neighbours.
      meshes.hull_vert_count.push_back(n);
      for (int i = 0; i < n; ++i) {
        meshes.hull_vertices.push_back(meshes.vertices[adr + i]);
        meshes.hull_vertex_id.push_back(i);
        meshes.hull_neighbour_adr.push_back(static_cast<int>(meshes.hull_neighbours.size()));
        meshes.hull_neighbour_count.push_back(0);
      }
      continue;
    }
    (*faces_of)[m] = std::move(hull.faces);
    // Mesh vertex index -> hull vertex index.
    std::vector<int> local(n, -1);
    for (size_t i = 0; i < vertices.size(); ++i) local[vertices[i]] = static_cast<int>(i);
    meshes.hull_vert_count.push_back(static_cast<int>(vertices.size()));
    for (size_t i = 0; i < vertices.size(); ++i) {
      meshes.hull_vertices.push_back(meshes.vertices[adr + vertices[i]]);
      meshes.hull_vertex_id.push_back(vertices[i]);
      meshes.hull_neighbour_adr.push_back(static_cast<int>(meshes.hull_neighbours.size()));
      meshes.hull_neighbour_count.push_back(static_cast<int>(adjacent[i].size()));
      for (const int v : adjacent[i]) meshes.hull_neighbours.push_back(local[v]);
    }
  }
}

}  // namespace pliant
