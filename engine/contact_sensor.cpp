#include "engine/contact_sensor.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/constraint/solve.h"
#include "engine/site_volume.h"
#include "pliant/sensor_types.h"

namespace pliant {
namespace {

// Whether body `b` is `root` or hangs below it.
bool in_subtree(const Model& m, int b, int root) {
  for (; b > 0; b = m.bodies.parent[b]) {
    if (b == root) return true;
  }
  return b == root;
}

// Whether geom g belongs to one side of the sensor (type kGeom, kBody or
// kXBody for a subtree; kUnknown: any geom).
bool on_side(const Model& m, ObjectType type, int id, int g) {
  switch (type) {
    case ObjectType::kGeom:
      return g == id;
    case ObjectType::kBody:
      return m.geoms.body[g] == id;
    case ObjectType::kXBody:
      return in_subtree(m, m.geoms.body[g], id);
    default:
      return true;
  }
}

struct Match {
  int contact;
  bool flip;  // the sensor's first side is the contact's geom2
  double force[6];
};

}  // namespace

void contact_sensor(const Model& m, Data& d, int sensor, double* out) {
  const Sensors& t = m.sensors;
  const ObjectType type1 = t.obj_type[sensor], type2 = t.ref_type[sensor];
  const int id1 = t.obj_id[sensor], id2 = t.ref_id[sensor];
  // Plain copies, not a structured binding: lambdas below capture them.
  const int bits = t.intprm[sensor][0], reduce = t.intprm[sensor][1], num = t.intprm[sensor][2];
  std::fill(out, out + t.dim[sensor], 0.0);

  // The matching contacts, each oriented from the sensor's first side.
  std::vector<Match> matches;
  const bool site = type1 == ObjectType::kSite;
  for (int c = 0; c < static_cast<int>(d.contacts.size()); ++c) {
    const Contact& con = d.contacts[c];
    Match match{c, false, {}};
    if (site) {
      if (!inside_site(m, d, id1, con.pos)) continue;
      if (id2 >= 0 && !on_side(m, type2, id2, con.geom2)) {
        if (!on_side(m, type2, id2, con.geom1)) continue;
        match.flip = true;
      }
    } else if (on_side(m, type1, id1, con.geom1) && on_side(m, type2, id2, con.geom2)) {
      match.flip = false;
    } else if (on_side(m, type1, id1, con.geom2) && on_side(m, type2, id2, con.geom1)) {
      match.flip = true;
    } else {
      continue;
    }
    contact_force(m, d, c, match.force);
    if (match.flip) {
      // The force of the other side on the first, in the turned frame
      // (normal and first tangent reversed, the second unchanged).
      match.force[2] = -match.force[2];
      match.force[5] = -match.force[5];
    }
    matches.push_back(match);
  }
  const int found = static_cast<int>(matches.size());
  if (found == 0) return;

  // Writes one slot from its values (found, force, torque, dist, pos,
  // normal, tangent), keeping the parts the data bits ask for.
  const auto write_slot = [&](double* slot, const double* force, const double* torque, double dist,
                              const Vector3d& pos, const Vector3d& normal,
                              const Vector3d& tangent) {
    const double found_value = found;
    const double* parts[] = {&found_value, force,         torque,        &dist,
                             pos.data(),   normal.data(), tangent.data()};
    for (int k = 0; k < kContactDataParts; ++k) {
      if (!(bits >> k & 1)) continue;
      for (int j = 0; j < kContactDataSizes[k]; ++j) *slot++ = parts[k][j];
    }
  };
  const int slot_size = contact_slot_size(bits);

  if (reduce == 3) {
    // netforce: the summed wrench in world axes, about the centroid of the
    // contact points weighted by the magnitude of their forces (measured on
    // 3.3.8: normal-force weights put the torque 1.6e-4 off).
    Vector3d force = Vector3d::Zero(), torque = Vector3d::Zero(), centroid = Vector3d::Zero();
    double weight = 0;
    for (const Match& match : matches) {
      const Contact& con = d.contacts[match.contact];
      const double w = Vector3d(match.force[0], match.force[1], match.force[2]).norm();
      centroid += w * con.pos;
      weight += w;
    }
    if (weight > 0) centroid /= weight;
    for (const Match& match : matches) {
      const Contact& con = d.contacts[match.contact];
      Matrix3d frame = con.frame;  // rows: normal, tangent 1, tangent 2
      if (match.flip) {
        frame.row(0) = -frame.row(0);
        frame.row(1) = -frame.row(1);
      }
      const Vector3d f =
          frame.transpose() * Vector3d(match.force[0], match.force[1], match.force[2]);
      const Vector3d tau =
          frame.transpose() * Vector3d(match.force[3], match.force[4], match.force[5]);
      force += f;
      torque += tau + (con.pos - centroid).cross(f);
    }
    write_slot(out, force.data(), torque.data(), 0, centroid, Vector3d::UnitX(), Vector3d::UnitY());
    return;
  }
  if (reduce == 1) {
    std::stable_sort(matches.begin(), matches.end(), [&](const Match& a, const Match& b) {
      return d.contacts[a.contact].dist < d.contacts[b.contact].dist;
    });
  } else if (reduce == 2) {
    std::stable_sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
      return Vector3d(a.force[0], a.force[1], a.force[2]).squaredNorm() >
             Vector3d(b.force[0], b.force[1], b.force[2]).squaredNorm();
    });
  }
  for (int i = 0; i < std::min(num, found); ++i) {
    const Match& match = matches[i];
    const Contact& con = d.contacts[match.contact];
    const double sign = match.flip ? -1 : 1;
    write_slot(out + i * slot_size, match.force, match.force + 3, con.dist, con.pos,
               sign * Vector3d(con.frame.row(0).transpose()),
               sign * Vector3d(con.frame.row(1).transpose()));
  }
}

}  // namespace pliant
