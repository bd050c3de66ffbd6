#include "pliant/state.h"

#include <stdexcept>
#include <string>

namespace pliant {
namespace {

void check_mask(unsigned mask) {
  if ((mask & ~static_cast<unsigned>(kStateIntegration)) != 0) {
    throw std::invalid_argument("pliant: state mask " + std::to_string(mask) +
                                " has bits beyond mjtState's 13 (accepted: 0 to " +
                                std::to_string(static_cast<unsigned>(kStateIntegration)) + ")");
  }
}

// Visits the components of `mask` in MuJoCo's order: read(values, count)
// for the plain ones, and the three that Pliant lays out otherwise.
template <class Plain, class Wrench, class Quaternion, class Flags>
void for_each_component(const Model& m, unsigned mask, Plain plain, Wrench wrench,
                        Quaternion quaternion, Flags flags) {
  if (mask & kStateTime) plain(kStateTime, 1);
  if (mask & kStateQpos) plain(kStateQpos, m.nq);
  if (mask & kStateQvel) plain(kStateQvel, m.nv);
  if (mask & kStateAct) plain(kStateAct, m.na);
  if (mask & kStateWarmstart) plain(kStateWarmstart, m.nv);
  if (mask & kStateCtrl) plain(kStateCtrl, m.nu);
  if (mask & kStateQfrcApplied) plain(kStateQfrcApplied, m.nv);
  if (mask & kStateXfrcApplied) wrench();
  if (mask & kStateEqActive) flags();
  if (mask & kStateMocapPos) plain(kStateMocapPos, 3 * m.nmocap);
  if (mask & kStateMocapQuat) quaternion();
}

// The first value of a plain component (const for a const Data).
template <class D>
auto plain_values(D& d, unsigned bit) -> decltype(d.qpos.data()) {
  switch (bit) {
    case kStateTime:
      return &d.time;
    case kStateQpos:
      return d.qpos.data();
    case kStateQvel:
      return d.qvel.data();
    case kStateAct:
      return d.act.data();
    case kStateWarmstart:
      return d.qacc_warmstart.data();
    case kStateCtrl:
      return d.ctrl.data();
    case kStateQfrcApplied:
      return d.qfrc_applied.data();
    case kStateMocapPos:
      return d.mocap_pos.empty() ? nullptr : d.mocap_pos[0].data();
    default:
      return nullptr;
  }
}

}  // namespace

int state_size(const Model& m, unsigned mask) {
  check_mask(mask);
  int size = 0;
  for_each_component(
      m, mask, [&](unsigned, int count) { size += count; }, [&] { size += 6 * m.body_count(); },
      [&] { size += 4 * m.nmocap; }, [&] { size += m.equalities.count(); });
  return size;
}

void get_state(const Model& m, const Data& d, double* state, unsigned mask) {
  check_mask(mask);
  check_data_matches(m, d);
  for_each_component(
      m, mask,
      [&](unsigned bit, int count) {
        const double* values = plain_values(d, bit);
        for (int i = 0; i < count; ++i) *state++ = values[i];
      },
      [&] {
        for (const Vector6d& w : d.xfrc_applied) {
          for (int i = 0; i < 3; ++i) *state++ = w[3 + i];  // force
          for (int i = 0; i < 3; ++i) *state++ = w[i];      // torque
        }
      },
      [&] {
        for (const Quaterniond& q : d.mocap_quat) {
          *state++ = q.w();
          *state++ = q.x();
          *state++ = q.y();
          *state++ = q.z();
        }
      },
      [&] {
        for (int e = 0; e < m.equalities.count(); ++e) *state++ = m.equalities.active[e];
      });
}

void set_state(const Model& m, Data& d, const double* state, unsigned mask) {
  check_mask(mask);
  check_data_matches(m, d);
  // Check first, so that a refused state changes nothing.
  if (mask & kStateEqActive) {
    const int offset = state_size(m, mask & (kStateEqActive - 1));
    for (int e = 0; e < m.equalities.count(); ++e) {
      if ((state[offset + e] != 0) != m.equalities.active[e]) {
        throw std::invalid_argument(
            "pliant: the state switches equality " + std::to_string(e) +
            (state[offset + e] != 0 ? " on" : " off") +
            "; Pliant's equalities are on or off as the model says (eq_active0)");
      }
    }
  }
  for_each_component(
      m, mask,
      [&](unsigned bit, int count) {
        double* values = plain_values(d, bit);
        for (int i = 0; i < count; ++i) values[i] = *state++;
      },
      [&] {
        for (Vector6d& w : d.xfrc_applied) {
          for (int i = 0; i < 3; ++i) w[3 + i] = *state++;
          for (int i = 0; i < 3; ++i) w[i] = *state++;
        }
      },
      [&] {
        for (Quaterniond& q : d.mocap_quat) {
          q = Quaterniond(state[0], state[1], state[2], state[3]);
          state += 4;
        }
      },
      [&] { state += m.equalities.count(); });
}

void copy_data(const Model& m, Data& dst, const Data& src) {
  check_data_matches(m, src);
  check_data_matches(m, dst);
  dst = src;
}

}  // namespace pliant
