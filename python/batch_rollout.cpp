#include "python/batch_rollout.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

#include "pliant/forward.h"
#include "pliant/step.h"

namespace pliant::python {
namespace {

void roll_row(const Model& m, long b, long steps, const double* qpos0, const double* qvel0,
              const double* ctrl, double* qpos_out, double* qvel_out) {
  const long nq = m.nq, nv = m.nv, nu = m.nu;
  Data d(m);
  std::copy(qpos0 + b * nq, qpos0 + (b + 1) * nq, d.qpos.data());
  std::copy(qvel0 + b * nv, qvel0 + (b + 1) * nv, d.qvel.data());
  for (long t = 0; t < steps; ++t) {
    const double* u = ctrl + (b * steps + t) * nu;
    std::copy(u, u + nu, d.ctrl.data());
    step(m, d);
    std::copy(d.qpos.data(), d.qpos.data() + nq, qpos_out + (b * steps + t) * nq);
    std::copy(d.qvel.data(), d.qvel.data() + nv, qvel_out + (b * steps + t) * nv);
  }
}

}  // namespace

void batch_rollout(const Model& m, long batch, long steps, const double* qpos0, const double* qvel0,
                   const double* ctrl, double* qpos_out, double* qvel_out, int threads) {
  threads = static_cast<int>(std::clamp<long>(threads, 1, std::max<long>(batch, 1)));
  if (threads == 1) {
    for (long b = 0; b < batch; ++b) roll_row(m, b, steps, qpos0, qvel0, ctrl, qpos_out, qvel_out);
    return;
  }
  // Row b goes to thread b % threads; each row is independent.
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::thread> workers;
  // A thread that cannot start ends the call with its error once the
  // started ones have finished (never with running threads destroyed).
  std::exception_ptr start_error;
  for (int k = 0; k < threads && !start_error; ++k) {
    try {
      workers.emplace_back([&, k] {
        try {
          for (long b = k; b < batch; b += threads) {
            roll_row(m, b, steps, qpos0, qvel0, ctrl, qpos_out, qvel_out);
          }
        } catch (...) {
          errors[k] = std::current_exception();
        }
      });
    } catch (...) {
      start_error = std::current_exception();
    }
  }
  for (std::thread& w : workers) w.join();
  if (start_error) std::rethrow_exception(start_error);
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace pliant::python
