#pragma once

// Working memory of the collision stage (internal: part of the step's
// workspace inside Data, not of the public API).

#include <cstdint>
#include <vector>

#include "pliant/contact.h"
#include "solvers/kept.h"

namespace pliant {

// A geom pair for the narrow phase (pair >= 0: an explicit <pair>).
struct CandidatePair {
  int geom1, geom2, pair;
};

// Working memory of the collision stage, kept in Data so that a step makes no
// heap allocation once the vectors have grown. The per-model tables are built
// on the first call for a model and rebuilt when the model changes.
struct CollisionScratch {
  const void* model = nullptr;  // the model the tables were built for
  int geom_count = -1, body_count = -1, pair_count = -1, exclude_count = -1;
  // Per model.
  std::vector<int> body_geom_adr, body_geom_count, body_geoms;  // collidable geoms per body
  std::vector<char> body_global;            // bodies paired with every other (static, with a plane)
  std::vector<int> weld_parent;             // weld body of the parent of each body's weld body
  std::vector<int> pair_order;              // explicit pairs sorted by body-pair signature
  std::vector<uint64_t> pair_signature;     // of pair_order[i]
  std::vector<uint64_t> exclude_signature;  // sorted
  std::vector<int> sap_bodies;              // bodies taking part in sweep and prune
  std::vector<int> global_box_geoms;        // bounded geoms of global bodies (given a geom_box)
  std::vector<char> global_boxed;           // global bodies with such geoms
  // Per mesh: the centre (3) and half extents (3) of its convex hull's box,
  // in the mesh's (its geoms') frame.
  std::vector<double> mesh_box;
  // Per step.
  std::vector<double> box_lo, box_hi;  // 3 per body, world axes
  // 6 per geom: for the bounded geoms of global bodies (not planes or
  // height fields), the world box (lo x y z, hi x y z) grown by the geom's
  // margin; every other geom keeps an all-covering box.
  std::vector<double> geom_box;
  std::vector<int> order;
  std::vector<double>
      sweep;  // per body in sweep order: lo, hi along the sweep axis, then the others
  // A grid across the two other axes: cell k's bodies (positions in
  // `order`, ascending) are cell_items[cell_start[k] .. cell_start[k + 1]).
  std::vector<int> cell_start, cell_items, cell_cursor;
  std::vector<uint64_t> body_pairs;
  std::vector<uint64_t> pairs_unsorted;  // broadphase output before ordering
  std::vector<int> pair_bucket;          // per body + 1: start of its pairs in the ordering
  Kept<std::vector<std::vector<uint64_t>>> task_pairs;  // each slice of cells' pairs (threads > 1)
  // On several threads: the narrow phase's geom pairs in contact order, and
  // each slice's contacts.
  std::vector<CandidatePair> candidates;
  Kept<std::vector<std::vector<Contact>>> task_contacts;
};

}  // namespace pliant
