#pragma once

// The contact sensor (MuJoCo 3.x's `<contact>`): the contacts between its
// two sides (a geom, a body or a subtree each; the first may instead be a
// site's volume holding the contact point; an absent side matches any
// geom), each oriented from the first side (normal, first tangent and the
// force's sign turned when the first side is the contact's second geom).
// Per slot, as its data bits ask: how many contacts matched, the force and
// torque in the contact frame, dist, pos, normal and first tangent. The
// slots hold the first `num` matches in contact order, by increasing dist
// (mindist) or decreasing force (maxforce); netforce fills one slot with
// the summed wrench in world axes about the contacts' centroid weighted by
// the magnitude of their forces. Slots without a contact are zeros. After the solver.

#include "pliant/data.h"

namespace pliant {

void contact_sensor(const Model& model, Data& data, int sensor, double* out);

}  // namespace pliant
