#include "model/mesh_hull.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace pliant {
namespace {

// Hull of one mesh with qhull ("Qt", triangulated): its vertices in qhull's
// vertex-list order (indices into `points`) and, per vertex, its hull
// neighbours in the order met walking the vertex's facets (qhull's
// vertex-neighbour order) and each facet's vertices, each neighbour once.
// The order matters: hill climbing and the plane-mesh pair visit neighbours
// in it. False when qhull fails or a facet is not a triangle.
bool qhull_hull(const std::vector<coordT>& points, int n, std::vector<int>* vertices,
                std::vector<std::vector<int>>* neighbours) {
  volatile bool ok = true;
  qhT qh_storage;
  qhT* qh = &qh_storage;
  char options[] = "qhull Qt";
  FILE* quiet = std::fopen("/dev/null", "w");
  qh_zero(qh, quiet);
  qh_init_A(qh, nullptr, quiet, quiet, 0, nullptr);
  // qhull reports errors by longjmp back here; the vectors above outlive it
  // and are only appended to inside.
  if (setjmp(qh->errexit) == 0) {
    qh->NOerrexit = False;
    qh_initflags(qh, options);
    qh_init_B(qh, const_cast<coordT*>(points.data()), n, 3, False);
    qh_qhull(qh);
    qh_triangulate(qh);
    qh_vertexneighbors(qh);
    vertexT* vertex;
    FORALLvertices {
      const int id = qh_pointid(qh, vertex->point);
      if (id < 0 || id >= n) {
        ok = false;
        break;
      }
      vertices->push_back(id);
      std::vector<int>& adjacent = neighbours->emplace_back();
      facetT* facet;
      facetT** facetp;
      FOREACHfacet_(vertex->neighbors) {
        int corners = 0;
        vertexT* other;
        vertexT** otherp;
        FOREACHsetelement_(vertexT, facet->vertices, other) {
          ++corners;
          const int other_id = qh_pointid(qh, other->point);
          if (other_id < 0 || other_id >= n) ok = false;
          if (other_id != id &&
              std::find(adjacent.begin(), adjacent.end(), other_id) == adjacent.end()) {
            adjacent.push_back(other_id);
          }
        }
        if (corners != 3) ok = false;
      }
    }
  } else {
    ok = false;
  }
  qh->NOerrexit = True;
  int curlong = 0, totlong = 0;
  qh_freeqhull(qh, !qh_ALL);
  qh_memfreeshort(qh, &curlong, &totlong);
  if (quiet) std::fclose(quiet);
  return ok && !vertices->empty();
}

}  // namespace

void compute_mesh_hulls(Meshes& meshes) {
  meshes.hull_vert_adr.clear();
  meshes.hull_vert_count.clear();
  meshes.hull_vertices.clear();
  meshes.hull_neighbour_adr.clear();
  meshes.hull_neighbour_count.clear();
  meshes.hull_neighbours.clear();
  for (int m = 0; m < meshes.count(); ++m) {
    const int adr = meshes.vert_adr[m], n = meshes.vert_count[m];
    std::vector<coordT> points(3 * static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) points[3 * i + k] = meshes.vertices[adr + i][k];
    }
    std::vector<int> vertices;
    std::vector<std::vector<int>> adjacent;
    const bool ok = n >= 4 && qhull_hull(points, n, &vertices, &adjacent);
    meshes.hull_vert_adr.push_back(static_cast<int>(meshes.hull_vertices.size()));
    if (!ok) {
      // No hull: every vertex, no neighbours.
      meshes.hull_vert_count.push_back(n);
      for (int i = 0; i < n; ++i) {
        meshes.hull_vertices.push_back(meshes.vertices[adr + i]);
        meshes.hull_neighbour_adr.push_back(static_cast<int>(meshes.hull_neighbours.size()));
        meshes.hull_neighbour_count.push_back(0);
      }
      continue;
    }
    // Mesh vertex index -> hull vertex index.
    std::vector<int> local(n, -1);
    for (size_t i = 0; i < vertices.size(); ++i) local[vertices[i]] = static_cast<int>(i);
    meshes.hull_vert_count.push_back(static_cast<int>(vertices.size()));
    for (size_t i = 0; i < vertices.size(); ++i) {
      meshes.hull_vertices.push_back(meshes.vertices[adr + vertices[i]]);
      meshes.hull_neighbour_adr.push_back(static_cast<int>(meshes.hull_neighbours.size()));
      meshes.hull_neighbour_count.push_back(static_cast<int>(adjacent[i].size()));
      for (const int v : adjacent[i]) meshes.hull_neighbours.push_back(local[v]);
    }
  }
}

}  // namespace pliant
