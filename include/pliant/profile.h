#pragma once

// Optional per-stage timing of the step, for profiles and benchmarks. Off by
// default: a disabled timer costs one branch. Times accumulate until reset.

#include <array>
#include <chrono>

namespace pliant {

enum class Stage : int {
  kKinematics = 0,  // poses, COM, tendons, transmissions
  kInertia,         // composite inertia and the factor of M
  kCollision,       // broad and narrow phase
  kAssembly,        // constraint rows, impedance and reference accelerations
  kVelocity,        // COM velocities, passive and bias forces (RNE)
  kActuation,       // activation dynamics and actuator forces
  kAcceleration,    // qacc_smooth
  kSolver,          // the constraint solver
  kSensors,         // sensors of all three stages
  kStep,            // the whole step, integration included
  kCount,
};

const char* stage_name(Stage stage);

struct StageTimers {
  bool enabled = false;
  std::array<double, static_cast<int>(Stage::kCount)> seconds{};
  std::array<long, static_cast<int>(Stage::kCount)> calls{};
  // Of the stages' seconds, those spent beside another stage on another
  // thread (with Data::threads > 1, the centres of mass and the inertia
  // are computed while collision runs).
  double beside = 0;

  void reset() {
    seconds.fill(0);
    calls.fill(0);
    beside = 0;
  }
  double total(Stage stage) const { return seconds[static_cast<int>(stage)]; }
  // The part of the step outside every stage: integration and state checks.
  double outside_stages() const {
    double staged = -beside;
    for (int s = 0; s < static_cast<int>(Stage::kStep); ++s) staged += seconds[s];
    return total(Stage::kStep) - staged;
  }
};

// What outside_stages() measures, as reports name it.
inline constexpr const char* kOutsideStagesName = "integration and checks";

// Adds the lifetime of the scope to one stage of `timers` when enabled.
class ScopedStageTimer {
 public:
  ScopedStageTimer(StageTimers& timers, Stage stage)
      : timers_(timers.enabled ? &timers : nullptr), stage_(static_cast<int>(stage)) {
    if (timers_) start_ = Clock::now();
  }
  ~ScopedStageTimer() {
    if (!timers_) return;
    timers_->seconds[stage_] += std::chrono::duration<double>(Clock::now() - start_).count();
    ++timers_->calls[stage_];
  }
  ScopedStageTimer(const ScopedStageTimer&) = delete;
  ScopedStageTimer& operator=(const ScopedStageTimer&) = delete;

 private:
  using Clock = std::chrono::steady_clock;
  StageTimers* timers_;
  int stage_;
  Clock::time_point start_;
};

}  // namespace pliant
