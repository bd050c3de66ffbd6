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

// Hull of one mesh: indices (into `points`) of its vertices and the edges
// between them as pairs of those indices. False when qhull fails.
bool qhull_hull(const std::vector<coordT>& points, int n, std::vector<int>* vertices,
                std::vector<std::pair<int, int>>* edges) {
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
    facetT* facet;
    FORALLfacets {
      int corners[3];
      int corner = 0;
      vertexT* vertex;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (corner < 3) corners[corner] = qh_pointid(qh, vertex->point);
        ++corner;
      }
      if (corner != 3) {
        ok = false;
        continue;
      }
      for (int k = 0; k < 3; ++k) {
        const int a = corners[k], b = corners[(k + 1) % 3];
        edges->emplace_back(std::min(a, b), std::max(a, b));
        vertices->push_back(a);
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
    std::vector<std::pair<int, int>> edges;
    const bool ok = n >= 4 && qhull_hull(points, n, &vertices, &edges);
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
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    // Mesh vertex index -> hull vertex index.
    std::vector<int> local(n, -1);
    for (size_t i = 0; i < vertices.size(); ++i) local[vertices[i]] = static_cast<int>(i);
    std::vector<std::vector<int>> adjacent(vertices.size());
    for (const auto& [a, b] : edges) {
      adjacent[local[a]].push_back(local[b]);
      adjacent[local[b]].push_back(local[a]);
    }
    meshes.hull_vert_count.push_back(static_cast<int>(vertices.size()));
    for (size_t i = 0; i < vertices.size(); ++i) {
      meshes.hull_vertices.push_back(meshes.vertices[adr + vertices[i]]);
      meshes.hull_neighbour_adr.push_back(static_cast<int>(meshes.hull_neighbours.size()));
      meshes.hull_neighbour_count.push_back(static_cast<int>(adjacent[i].size()));
      meshes.hull_neighbours.insert(meshes.hull_neighbours.end(), adjacent[i].begin(),
                                    adjacent[i].end());
    }
  }
}

}  // namespace pliant
