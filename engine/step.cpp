#include "pliant/step.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/forward_unchecked.h"
#include "engine/integrators.h"
#include "model/numeric_limits.h"
#include "pliant/inverse.h"

namespace pliant {
namespace {

// Index of the first NaN, Inf or huge entry, or -1.
int first_bad_entry(const VectorXd& v) {
  for (int i = 0; i < v.size(); ++i) {
    if (!(std::abs(v[i]) <= kMaxValue)) return i;
  }
  return -1;
}

// A diverged state is reset (keeping the warnings) rather than propagated,
// unless the autoreset flag is off: then it is only reported.
bool reset_if_bad(const Model& m, Data& d, const VectorXd& v, WarningKind kind) {
  const int bad = first_bad_entry(v);
  if (bad < 0) return false;
  if (!m.options.flags.autoreset) {
    record_warning(d, kind, bad);
    return false;
  }
  const auto warnings = d.warnings;
  const long steps = d.step_count;
  reset_data(m, d);
  d.warnings = warnings;
  d.step_count = steps;
  record_warning(d, kind, bad);
  return true;
}

}  // namespace

void step(const Model& m, Data& d) {
  check_data_matches(m, d);
  ScopedStageTimer timer(d.timers, Stage::kStep);
  reset_if_bad(m, d, d.qpos, WarningKind::kBadQpos);
  reset_if_bad(m, d, d.qvel, WarningKind::kBadQvel);
  forward_unchecked(m, d, true);
  if (reset_if_bad(m, d, d.qacc, WarningKind::kBadQacc)) forward_unchecked(m, d, true);
  if (m.options.flags.fwdinv) compare_forward_inverse(m, d);
  integrate(m, d);
  ++d.step_count;
}

// A copy (not a move) of a fresh Data: arrays of equal size keep their
// memory, so views of it (the Python module's numpy arrays) stay valid.
void reset_data(const Model& m, Data& d) {
  const Data fresh(m);
  const int threads = d.threads;  // a setting of the caller's, not state
  d = fresh;
  d.threads = threads;
}

void reset_to_keyframe(const Model& m, Data& d, int key) {
  if (key < 0 || key >= m.keyframes.count()) {
    throw std::out_of_range("keyframe " + std::to_string(key) + " does not exist; the model has " +
                            std::to_string(m.keyframes.count()));
  }
  reset_data(m, d);
  const Keyframes& k = m.keyframes;
  d.time = k.time[key];
  d.qpos = Eigen::Map<const VectorXd>(k.qpos[key].data(), m.nq);
  d.qvel = Eigen::Map<const VectorXd>(k.qvel[key].data(), m.nv);
  d.act = Eigen::Map<const VectorXd>(k.act[key].data(), m.na);
  d.ctrl = Eigen::Map<const VectorXd>(k.ctrl[key].data(), m.nu);
  for (int i = 0; i < m.nmocap; ++i) {
    d.mocap_pos[i] = Vector3d(k.mocap_pos[key].data() + 3 * i);
    const double* q = k.mocap_quat[key].data() + 4 * i;
    d.mocap_quat[i] = Quaterniond(q[0], q[1], q[2], q[3]);
  }
}

}  // namespace pliant
