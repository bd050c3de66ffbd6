#pragma once

// One contact between two geoms, as the collision stage produces it and the
// constraint assembler consumes it (reference sections 4 and 7).

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "model/model.h"

namespace pliant {

struct Contact {
  double dist = 0;        // m, signed distance between the surfaces; < 0 is penetration
  Vector3d pos{0, 0, 0};  // m, world point midway between the two surfaces
  // Contact frame, rows: normal (pointing from geom1 to geom2), tangent 1,
  // tangent 2 (MuJoCo's layout: frame[0:3] is the normal).
  Eigen::Matrix3d frame = Eigen::Matrix3d::Identity();
  double includemargin = 0;  // m, margin - gap: rows are made only when dist < includemargin
  Vector5d friction{1, 1, 0.005, 0.0001, 0.0001};  // tangent1, tangent2, spin, roll1, roll2
  SolRef solref;
  SolImp solimp;
  double mu = 0;  // friction coefficient of the cone, set by the constraint assembler
  int dim = 3;    // condim: 1, 3, 4 or 6
  int geom1 = -1, geom2 = -1;
  int efc_address = -1;  // first constraint row of this contact, -1 when it makes none
};

}  // namespace pliant

namespace pliant {

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
  // Per step.
  std::vector<double> box_lo, box_hi;  // 3 per body, world axes
  std::vector<int> order;
  std::vector<double>
      sweep;  // per body in sweep order: lo, hi along the sweep axis, then the others
  std::vector<uint64_t> body_pairs;
  std::vector<uint64_t> pairs_unsorted;  // broadphase output before ordering
  std::vector<int> pair_bucket;          // per body + 1: start of its pairs in the ordering
};

}  // namespace pliant
