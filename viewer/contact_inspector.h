#pragma once

// The contact inspector: pick a contact (or a geom) and see what its solref
// and solimp mean - the impedance curve d(r) with the current violation
// marked, the stiffness and damping of the reference spring, the resting
// depth they predict under gravity, the restitution predicted at the
// contact's current normal speed - and edit them live.

#include "viewer/state.h"

namespace pliant::viewer {

void draw_contact_inspector(ViewerState& state);

}  // namespace pliant::viewer
