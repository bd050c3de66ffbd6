#pragma once

// One contact between two geoms, as the collision stage produces it and the
// constraint assembler consumes it (docs/physics.md §4 and §7).

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "pliant/model.h"

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
  // The elliptic cone's friction rows use it when nonzero (an explicit
  // <pair solreffriction>); zero: they use solref.
  SolRef solreffriction{0, 0};
  SolImp solimp;
  double mu = 0;  // friction coefficient of the cone, set by the constraint assembler
  int dim = 3;    // condim: 1, 3, 4 or 6
  int geom1 = -1, geom2 = -1;
  int efc_address = -1;  // first constraint row of this contact, -1 when it makes none
};

}  // namespace pliant
