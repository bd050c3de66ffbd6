#include "pliant/forward.h"

#include <chrono>

#include "engine/actuation.h"
#include "engine/camera_light.h"
#include "engine/collision/collision.h"
#include "engine/constraint/assemble.h"
#include "engine/constraint/solve.h"
#include "engine/dynamics.h"
#include "engine/forward_unchecked.h"
#include "engine/helped_loop.h"
#include "engine/kinematics.h"
#include "engine/passive.h"
#include "engine/sensors.h"
#include "engine/tendon.h"
#include "engine/thread_pool.h"
#include "engine/workspace.h"
#include "pliant/energy.h"

namespace pliant {

namespace {

// The position stages after kinematics that collision does not read.
void com_and_inertia(const Model& m, Data& d) {
  {
    ScopedStageTimer timer(d.timers, Stage::kKinematics);
    com_positions(m, d);
    camera_light_poses(m, d);
    tendon_kinematics(m, d);
  }
  ScopedStageTimer timer(d.timers, Stage::kInertia);
  composite_inertia(m, d);
  factor_mass(m, d);
}

}  // namespace

void forward_position(const Model& m, Data& d) {
  {
    ScopedStageTimer timer(d.timers, Stage::kKinematics);
    kinematics(m, d);
  }
  if (d.threads > 1) {
    // Collision reads the geoms' poses alone: one thread starts it while
    // another computes the centres of mass, the inertia and its factor
    // (serial passes over the trees), then joins collision's passes.
    run_beside(
        workspace(d).pool, d.threads,
        [&](ParallelLoop* loop) {
          ScopedStageTimer timer(d.timers, Stage::kCollision);
          collide(m, d, loop);
        },
        [&] {
          const auto start = std::chrono::steady_clock::now();
          com_and_inertia(m, d);
          if (d.timers.enabled) {
            d.timers.beside +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          }
        });
  } else {
    com_and_inertia(m, d);
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
  // Outside bias_forces, whose velocity derivative the implicit integrator
  // takes: 3.3.8's leaves this term out of it (measured: 1.2e-8 apart at
  // the first step with it in).
  add_tendon_armature_bias(m, d);
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
  forward_unchecked(m, d, with_sensors);
}

void forward_unchecked(const Model& m, Data& d, bool with_sensors) {
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

}  // namespace pliant
