#pragma once

// Broadphase: candidate body pairs for the narrowphase (internal).

#include "engine/collision/collision_scratch.h"
#include "pliant/data.h"

namespace pliant {
class ParallelLoop;
}

namespace pliant::collision {

// Signature of a body pair, smaller id in the high half: sorting signatures
// sorts pairs by (body1, body2).
inline uint64_t body_pair_signature(int b1, int b2) {
  if (b1 > b2) std::swap(b1, b2);
  return (static_cast<uint64_t>(b1) << 32) | static_cast<uint64_t>(b2);
}

// Builds the per-model tables of the scratch when they are not for `model`.
void prepare_collision_tables(const Model& model, CollisionScratch& s);

// Fills s.body_pairs with the signatures of the body pairs that may touch,
// sorted and unique: every body with collidable geoms paired with each
// static body that carries a plane (and the world), plus the pairs whose
// bounding boxes overlap, found (beyond a couple of dozen bodies; below,
// every pair is compared) by sweep and prune along the world axis on
// which the box centres spread most, within the cells of a grid across the
// other two axes (each cell at least as wide as the widest box). Boxes
// hold each collidable geom's world box (geom_half_extents) grown by its
// margin. Pairs on
// one weld body, and a weld body with its weld parent (unless one is the
// world, or the filterparent flag is off), are dropped. Exclusions are left
// to the caller. The bounded geoms of the global bodies (walls, posts and
// steps beside a floor) get world boxes too, s.geom_box, which the narrow
// phase compares with the box of each body they are paired with.
// O(n log n + overlaps within a cell). On a loop of several threads (and
// with enough bodies) the cells are swept side by side; the pairs are the
// same.
// Half extents along the world axes of a box centred on geom g's position
// that holds the geom: the tight box of a sphere, capsule, cylinder,
// ellipsoid or box at its current orientation (never wider than the cube
// around its bounding sphere), else that cube.
Eigen::Vector3d geom_half_extents(const Model& model, const Data& data, int g);

void broadphase(const Model& model, const Data& data, CollisionScratch& s, ParallelLoop* loop);

}  // namespace pliant::collision
