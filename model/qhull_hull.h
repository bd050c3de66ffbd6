#pragma once

// Convex hulls with qhull, the library MuJoCo 2.2.2 takes them from
// (internal to the model library). qhull runs as MuJoCo runs it, with
// options "Qt" (triangulated output), and what is read off the hull keeps
// qhull's order, because MuJoCo's results depend on it: the faces of a mesh
// given without faces, and the neighbour order that collision walks.

#include <array>
#include <vector>

namespace pliant {

// What to read off the hull.
enum class HullOutput {
  kFaces,             // QhullHull::faces
  kVertexNeighbours,  // QhullHull::vertices and QhullHull::neighbours
  kAll,               // both
};

struct QhullHull {
  // The hull's triangles in qhull's facet order, each wound outwards
  // (counter-clockwise seen from outside); indices into the points.
  std::vector<std::array<int, 3>> faces;
  // The hull's vertices in qhull's vertex-list order (indices into the
  // points) and, per vertex, its neighbours along hull edges in qhull's
  // vertex-neighbour order, each neighbour once.
  std::vector<int> vertices;
  std::vector<std::vector<int>> neighbours;
};

// Hull of `points` (x, y, z per point), filling the parts of `hull` that
// `output` names. False when qhull fails (for instance, all points coplanar
// or collinear), when a facet is not a triangle, or when the hull comes out
// empty; `hull` then holds no usable result. qhull's errors end up here as
// false and its diagnostics are discarded: the callers report failures their
// own way.
// `max_vertices` > -1 stops qhull after that many hull vertices (MuJoCo's
// maxhullvert, qhull option TA), giving a hull of a subset of the points.
bool qhull_hull(const std::vector<double>& points, HullOutput output, QhullHull* hull,
                int max_vertices = -1);

}  // namespace pliant
