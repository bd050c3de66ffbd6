#include "pliant/forward.h"

#include <cmath>
#include <stdexcept>

#include "engine/actuation.h"
#include "engine/collision/collision.h"
#include "engine/constraint/assemble.h"
#include "engine/constraint/solve.h"
#include "engine/dynamics.h"
#include "engine/integrators.h"
#include "engine/kinematics.h"
#include "engine/passive.h"
#include "engine/sensors.h"
#include "engine/tendon.h"
#include "engine/workspace.h"
#include "model/numeric_limits.h"

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

void forward_position(const Model& m, Data& d) {
  {
    ScopedStageTimer timer(d.timers, Stage::kKinematics);
    kinematics(m, d);
    com_positions(m, d);
    tendon_kinematics(m, d);
  }
  {
    ScopedStageTimer timer(d.timers, Stage::kInertia);
    composite_inertia(m, d);
    factor_mass(m, d);
  }
  {
    ScopedStageTimer timer(d.timers, Stage::kCollision);
    collide(m, d);
  }
  {
    ScopedStageTimer timer(d.timers, Stage::kAssembly);
    assemble_constraints(m, d);
  }
  ScopedStageTimer timer(d.timers, Stage::kKinematics);
  transmission(m, d);
}

void forward_velocity(const Model& m, Data& d) {
  {
    ScopedStageTimer timer(d.timers, Stage::kVelocity);
    com_velocities(m, d);
    actuator_velocities(m, d);
    passive_forces(m, d);
  }
  {
    ScopedStageTimer timer(d.timers, Stage::kAssembly);
    constraint_reference(m, d);
  }
  ScopedStageTimer timer(d.timers, Stage::kVelocity);
  bias_forces(m, d);
}

void forward_actuation(const Model& m, Data& d) {
  ScopedStageTimer timer(d.timers, Stage::kActuation);
  actuation(m, d);
}

void forward_acceleration(const Model& m, Data& d) {
  ScopedStageTimer timer(d.timers, Stage::kAcceleration);
  smooth_acceleration(m, d);
}

void forward_constraint(const Model& m, Data& d) {
  ScopedStageTimer timer(d.timers, Stage::kSolver);
  solve_constraints(m, d);
}

void forward(const Model& m, Data& d) { forward(m, d, true); }

void forward(const Model& m, Data& d, bool with_sensors) {
  check_data_matches(m, d);
  forward_position(m, d);
  if (with_sensors) sensors_position(m, d);
  forward_velocity(m, d);
  if (with_sensors) sensors_velocity(m, d);
  forward_actuation(m, d);
  forward_acceleration(m, d);
  forward_constraint(m, d);
  if (with_sensors) sensors_acceleration(m, d);
  if (m.options.flags.energy) compute_energy(m, d);
}

void step(const Model& m, Data& d) {
  check_data_matches(m, d);
  ScopedStageTimer timer(d.timers, Stage::kStep);
  reset_if_bad(m, d, d.qpos, WarningKind::kBadQpos);
  reset_if_bad(m, d, d.qvel, WarningKind::kBadQvel);
  forward(m, d);
  if (reset_if_bad(m, d, d.qacc, WarningKind::kBadQacc)) forward(m, d);
  switch (m.options.integrator) {
    case Integrator::kEuler:
      integrate_euler(m, d);
      break;
    case Integrator::kRk4:
      integrate_rk4(m, d);
      break;
    case Integrator::kImplicit:
    case Integrator::kImplicitFast:
      integrate_implicit(m, d, m.options.integrator == Integrator::kImplicit);
      break;
  }
  ++d.step_count;
}

// A copy (not a move) of a fresh Data: arrays of equal size keep their
// memory, so views of it (the Python module's numpy arrays) stay valid.
void reset_data(const Model& m, Data& d) {
  const Data fresh(m);
  d = fresh;
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

void integrate_position(const Model& m, double* qpos, const double* qvel, double h) {
  const Joints& j = m.joints;
  for (int i = 0; i < j.count(); ++i) {
    double* q = qpos + j.qpos_adr[i];
    const double* v = qvel + j.dof_adr[i];
    int rotation_offset = 0;
    switch (j.type[i]) {
      case JointType::kFree:
        for (int k = 0; k < 3; ++k) q[k] += h * v[k];
        rotation_offset = 3;
        [[fallthrough]];
      case JointType::kBall: {
        // Rotate by the body-frame angular velocity: q <- q * exp(h w / 2).
        double* qq = q + rotation_offset;
        const Vector3d w(v[rotation_offset], v[rotation_offset + 1], v[rotation_offset + 2]);
        const double speed = w.norm();
        const double angle = h * speed;
        Quaterniond quat(qq[0], qq[1], qq[2], qq[3]);
        if (speed > kMinValue) quat = quat * Quaterniond(Eigen::AngleAxisd(angle, w / speed));
        quat.normalize();
        qq[0] = quat.w();
        qq[1] = quat.x();
        qq[2] = quat.y();
        qq[3] = quat.z();
        break;
      }
      default:
        q[0] += h * v[0];
    }
  }
}

void compute_energy(const Model& m, Data& d) {
  double potential = 0;
  const Vector3d& g = m.options.gravity;
  if (m.options.flags.gravity) {
    for (int i = 1; i < m.body_count(); ++i) potential -= m.bodies.mass[i] * g.dot(d.xipos[i]);
  }
  if (m.options.flags.spring) {
    const Joints& j = m.joints;
    for (int i = 0; i < j.count(); ++i) {
      const double k = j.stiffness[i];
      if (k == 0) continue;
      const int q = j.qpos_adr[i];
      switch (j.type[i]) {
        case JointType::kFree:
          for (int a = 0; a < 3; ++a) {
            const double dx = d.qpos[q + a] - m.qpos_spring[q + a];
            potential += 0.5 * k * dx * dx;
          }
          [[fallthrough]];  // the rotation stores energy too, as in a ball joint
        case JointType::kBall: {
          const int r = j.type[i] == JointType::kFree ? q + 3 : q;
          const Quaterniond now(d.qpos[r], d.qpos[r + 1], d.qpos[r + 2], d.qpos[r + 3]);
          const Quaterniond rest(m.qpos_spring[r], m.qpos_spring[r + 1], m.qpos_spring[r + 2],
                                 m.qpos_spring[r + 3]);
          const Eigen::AngleAxisd diff(rest.conjugate() * now.normalized());
          const double angle = diff.angle() > M_PI ? 2 * M_PI - diff.angle() : diff.angle();
          potential += 0.5 * k * angle * angle;
          break;
        }
        default: {
          const double dx = d.qpos[q] - m.qpos_spring[q];
          potential += 0.5 * k * dx * dx;
        }
      }
    }
    for (int t = 0; t < m.tendons.count(); ++t) {
      const double dx = tendon_spring_stretch(m, d, t);
      potential += 0.5 * m.tendons.stiffness[t] * dx * dx;
    }
  }
  VectorXd& momentum = workspace(d).scratch_nv;
  multiply_mass(m, d, d.qvel.data(), momentum.data());
  d.energy_potential = potential;
  d.energy_kinetic = 0.5 * d.qvel.dot(momentum);
}

}  // namespace pliant
