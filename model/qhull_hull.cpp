#include "model/qhull_hull.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace pliant {
namespace {

// The points go to qhull as they are, without a copy.
static_assert(std::is_same_v<coordT, double>, "qhull must be built with double coordinates");

// Faces as MuJoCo 2.2.2 takes them from qhull: facets in qhull's order,
// corners in the facet's vertex-set order with the first two swapped when the
// facet has top orientation, which makes every triangle wind outwards. This
// reproduces MuJoCo's faces exactly, and with them the last bits of the mass
// properties (which matter for the principal frame of symmetric meshes).
// False when a facet is not a triangle.
bool read_faces(qhT* qh, std::vector<std::array<int, 3>>* faces) {
  bool triangles = true;
  facetT* facet;
  FORALLfacets {
    std::array<int, 3> f = {0, 0, 0};
    int corner = 0;
    vertexT* vertex;
    vertexT** vertexp;
    FOREACHvertex_(facet->vertices) {
      if (corner < 3) f[corner] = qh_pointid(qh, vertex->point);
      ++corner;
    }
    if (corner != 3) triangles = false;
    if (facet->toporient) std::swap(f[0], f[1]);
    faces->push_back(f);
  }
  return triangles;
}

// Hull vertices in qhull's vertex-list order and, per vertex, its hull
// neighbours in the order met walking the vertex's facets (qhull's
// vertex-neighbour order) and each facet's vertices, each neighbour once.
// The order matters: hill climbing and the plane-mesh pair visit neighbours
// in it. Needs qh_vertexneighbors first. False when a point id is not one of
// the n input points or a facet is not a triangle.
bool read_vertex_neighbours(qhT* qh, int n, std::vector<int>* vertices,
                            std::vector<std::vector<int>>* neighbours) {
  bool complete = true;
  vertexT* vertex;
  FORALLvertices {
    const int id = qh_pointid(qh, vertex->point);
    if (id < 0 || id >= n) return false;
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
        if (other_id < 0 || other_id >= n) complete = false;
        if (other_id != id &&
            std::find(adjacent.begin(), adjacent.end(), other_id) == adjacent.end()) {
          adjacent.push_back(other_id);
        }
      }
      if (corners != 3) complete = false;
    }
  }
  return complete;
}

}  // namespace

bool qhull_hull(const std::vector<double>& points, HullOutput output, QhullHull* hull,
                int max_vertices) {
  const int n = static_cast<int>(points.size() / 3);
  volatile bool ok = true;
  qhT qh_storage;
  qhT* qh = &qh_storage;
  // TA<k> stops after k points beyond the initial simplex of four.
  std::string option_text = "qhull Qt";
  if (max_vertices > -1) option_text += " TA" + std::to_string(max_vertices - 4);
  std::vector<char> options(option_text.begin(), option_text.end());
  options.push_back('\0');
  // qhull prints its own diagnostics before reporting failure; Pliant reports
  // failures its own way, so they go to the null device.
  FILE* quiet = std::fopen("/dev/null", "w");
  qh_zero(qh, quiet);
  // No input file: the points are handed over by qh_init_B.
  qh_init_A(qh, nullptr, quiet, quiet, 0, nullptr);
  // qhull reports errors by longjmp back here. Nothing with a non-trivial
  // destructor is created between setjmp and the longjmp sources below; the
  // vectors of `hull` outlive it and are only appended to inside.
  if (setjmp(qh->errexit) == 0) {
    qh->NOerrexit = False;
    qh_initflags(qh, options.data());
    qh_init_B(qh, const_cast<coordT*>(points.data()), n, 3, False);
    qh_qhull(qh);
    qh_triangulate(qh);
    if (output != HullOutput::kVertexNeighbours) {
      if (!read_faces(qh, &hull->faces)) ok = false;
    }
    if (output != HullOutput::kFaces) {
      // qh_vertexneighbors runs only when neighbours are asked for: faces
      // need no more than the triangulated hull.
      qh_vertexneighbors(qh);
      if (!read_vertex_neighbours(qh, n, &hull->vertices, &hull->neighbours)) ok = false;
    }
  } else {
    ok = false;
  }
  qh->NOerrexit = True;
  int curlong = 0, totlong = 0;
  qh_freeqhull(qh, !qh_ALL);
  qh_memfreeshort(qh, &curlong, &totlong);
  if (quiet != nullptr) std::fclose(quiet);
  const bool empty = output == HullOutput::kFaces ? hull->faces.empty() : hull->vertices.empty();
  return ok && !empty;
}

}  // namespace pliant
