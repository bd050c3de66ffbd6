#pragma once

// Whether Pliant and MuJoCo 2.2.2 found the same contacts in a state, so
// that quantities built on contacts (rows, forces) can be compared there.

#include <mujoco/mujoco.h>

#include <cmath>
#include <sstream>
#include <string>

#include "pliant/data.h"

namespace pliant::conformance {

// Same geoms, dist, pos and frame within this (the analytic pairs' accuracy).
constexpr double kContactMatchTolerance = 1e-9;

// Empty when both engines found the same contacts (count, geom pair, dist,
// pos, frame within kContactMatchTolerance); otherwise why not.
inline std::string contacts_differ(const Data& data, const mjData& rd) {
  std::ostringstream why;
  if (static_cast<int>(data.contacts.size()) != rd.ncon) {
    why << "ncon " << data.contacts.size() << " vs " << rd.ncon;
    return why.str();
  }
  for (int c = 0; c < rd.ncon; ++c) {
    const Contact& ours = data.contacts[c];
    const mjContact& theirs = rd.contact[c];
    if (ours.geom1 != theirs.geom1 || ours.geom2 != theirs.geom2) {
      why << "contact " << c << " geoms " << ours.geom1 << "," << ours.geom2 << " vs "
          << theirs.geom1 << "," << theirs.geom2;
      return why.str();
    }
    double error = std::abs(ours.dist - theirs.dist);
    for (int k = 0; k < 3; ++k) error = std::max(error, std::abs(ours.pos[k] - theirs.pos[k]));
    for (int k = 0; k < 9; ++k) {
      error = std::max(error, std::abs(ours.frame(k / 3, k % 3) - theirs.frame[k]));
    }
    if (error > kContactMatchTolerance) {
      why << "contact " << c << " (geoms " << theirs.geom1 << "," << theirs.geom2 << ") differs by "
          << error;
      return why.str();
    }
  }
  return "";
}

// Empty when both engines found the same contacts (contacts_differ) and made
// the same number of rows; otherwise why not.
inline std::string contact_mismatch(const Data& data, const mjData& rd) {
  const std::string why = contacts_differ(data, rd);
  if (!why.empty() || data.efc.count() == rd.nefc) return why;
  return "nefc " + std::to_string(data.efc.count()) + " vs " + std::to_string(rd.nefc);
}

}  // namespace pliant::conformance
