#pragma once

// Convex hulls of the compiled meshes, for collision: a mesh geom collides as
// the convex hull of its vertices. Computed once when the model is compiled.

#include "model/model.h"

namespace pliant {

// Fills meshes.hull_* from meshes.vertices (geom frame) with qhull: the hull's
// vertices and, for each, its neighbours along hull edges. A mesh whose hull
// cannot be built (all vertices coplanar or collinear) keeps all its vertices
// and no neighbours, so support queries scan them all. Never throws.
void compute_mesh_hulls(Meshes& meshes);

}  // namespace pliant
