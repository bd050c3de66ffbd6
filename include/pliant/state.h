#pragma once

// Saving and restoring a simulation's state, as MuJoCo's mj_getState and
// mj_setState: a flat vector of the components a mask names, in MuJoCo's
// order and layout, so a state saved by one engine reads in the other.
//
//   std::vector<double> saved(pliant::state_size(model, pliant::kStateIntegration));
//   pliant::get_state(model, data, saved.data(), pliant::kStateIntegration);
//   ...
//   pliant::set_state(model, data, saved.data(), pliant::kStateIntegration);
//   // stepping on from here repeats the steps taken after get_state, bit for bit

#include <vector>

#include "pliant/data.h"

namespace pliant {

// MuJoCo's mjtState bits; the vector holds the named components in this
// order.
enum StateBits : unsigned {
  kStateTime = 1u << 0,         // 1: time, s
  kStateQpos = 1u << 1,         // nq
  kStateQvel = 1u << 2,         // nv
  kStateAct = 1u << 3,          // na
  kStateWarmstart = 1u << 4,    // nv: qacc_warmstart
  kStateCtrl = 1u << 5,         // nu
  kStateQfrcApplied = 1u << 6,  // nv
  kStateXfrcApplied = 1u << 7,  // 6 nbody: force then torque, as MuJoCo
  kStateEqActive = 1u << 8,     // neq: 1 active, 0 not
  kStateMocapPos = 1u << 9,     // 3 nmocap
  kStateMocapQuat = 1u << 10,   // 4 nmocap, (w, x, y, z)
  kStateUserdata = 1u << 11,    // none: Pliant has no user data
  kStatePlugin = 1u << 12,      // none: Pliant has no plugins
  kStatePhysics = kStateQpos | kStateQvel | kStateAct,
  kStateFullPhysics = kStateTime | kStatePhysics | kStatePlugin,
  kStateUser = kStateCtrl | kStateQfrcApplied | kStateXfrcApplied | kStateEqActive |
               kStateMocapPos | kStateMocapQuat | kStateUserdata,
  kStateIntegration = kStateFullPhysics | kStateUser | kStateWarmstart,
};

// Values in the state of `mask` (mj_stateSize). Throws std::invalid_argument
// for bits beyond kStateIntegration.
int state_size(const Model& model, unsigned mask);

// The components of `mask` into `state` (state_size values).
void get_state(const Model& model, const Data& data, double* state, unsigned mask);

// Sets the components of `mask` from `state` (state_size values). Pliant's
// equality constraints are on or off as the model says: an eq_active
// component that asks otherwise throws std::invalid_argument. Any throw
// leaves `data` as it was.
void set_state(const Model& model, Data& data, const double* state, unsigned mask);

// dst <- src, both made for `model` (mj_copyData); throws
// std::invalid_argument when either was made for another model.
void copy_data(const Model& model, Data& dst, const Data& src);

}  // namespace pliant
