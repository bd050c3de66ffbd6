#include <Eigen/Cholesky>
#include <Eigen/SparseCore>
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/constraint/solve.h"
#include "engine/dynamics.h"
#include "engine/integrators.h"
#include "engine/sensors.h"
#include "pliant/derivatives.h"
#include "pliant/energy.h"
#include "pliant/forward.h"
#include "pliant/integrate_position.h"
#include "pliant/inverse.h"
#include "pliant/state.h"
#include "pliant/step.h"
#include "solvers/cost.h"

namespace pliant {
namespace {

// The first stage a nudge can change: a qpos nudge changes everything, a
// qvel nudge the velocity stage on, act and ctrl the actuation stage on.
enum class From { kPosition, kVelocity, kActuation };

// The constraint solve linearised at the centre point, for nudges that
// leave the position stage (J, the rows, M) as it is. At the optimum,
// M (a - a0) = J^T f(J a - aref); within the rows' active set,
//   (M + J^T Dact J) da = d(qfrc_smooth) + J^T Dact d(aref),
//   df = -Dact (J da - d(aref)),
// with Dact the constraint cost's Hessian in jar: D for quadratic rows,
// the cone's Hessian in an elliptic cone's middle zone, 0 for satisfied
// rows and saturated friction loss. Quadratic rows make this exact, not an
// approximation: the solve is linear in (a0, aref) while no row changes
// state.
//
// A qpos nudge moves the geometry (J, M, the rows' D and aref), so it runs
// every stage but the solve (apply_moved). Its solve starts at the centre's
// optimum a0 and takes chord steps, Newton steps with the centre's Hessian
// H, on the gradient of the nudged problem less the centre's own g0 (the
// solver's residual at the centre, which would otherwise show in the
// column):
//   a <- a - H^-1 (g'(a) - g0),   g'(a) = M' a - qfrc_smooth' - J'^T f'(J' a - aref').
// H changes little over a nudge but not by nothing (a contact's D moves
// with its depth across the solimp width), so one step leaves an error of
// the forward difference's own order: on a box resting on a plane, 7% of
// its height column. Each step shrinks the error by that relative change
// (1e-3 to 1e-5 over a 1e-6 nudge), so about three make the column the
// differenced solve's. A chord step costs a gradient (M a, J a, J^T f), a
// fraction of a solve.
class LinearisedSolve {
 public:
  // The chord steps of a qpos nudge stop when the error they leave (rate x
  // the last step) is kChordTolerance of the whole move, or a step is
  // kRoundOff of the acceleration. A nudge whose steps shrink by less than
  // kChordRate each, or that has not converged after kChordIterations, is
  // solved instead. Measured: 3.1 steps a column on the humanoid with
  // contacts; columns within 7e-9 of differencing full solves (a test).
  static constexpr double kChordTolerance = 1e-12;
  static constexpr int kChordIterations = 8;
  static constexpr double kChordRate = 0.1;
  static constexpr double kRoundOff = 1e-13;

  LinearisedSolve(const Model& m, Data& d) : nv_(m.nv), nefc_(d.efc.count()) {
    qacc_ = d.qacc;
    qfrc_smooth_ = d.qfrc_smooth;
    qfrc_constraint_ = d.qfrc_constraint;
    force_ = d.efc.force;
    aref_ = Eigen::Map<const VectorXd>(d.efc.aref.data(), nefc_);
    type_ = d.efc.type;
    id_ = d.efc.id;
    for (const Contact& c : d.contacts) pairs_.push_back({c.geom1, c.geom2, c.efc_address});
    Eigen::MatrixXd h = dense_mass_matrix(m, d);
    j_ = Eigen::MatrixXd::Zero(nefc_, nv_);
    dact_.resize(nefc_, nefc_);
    if (nefc_ > 0) {
      const ConstraintProblem p = constraint_problem(m, d);
      for (int i = 0; i < nefc_; ++i) {
        for (int k = 0; k < p.row_nnz[i]; ++k)
          j_(i, p.col[p.row_adr[i] + k]) = p.J[p.row_adr[i] + k];
      }
      const VectorXd jar = j_ * qacc_ - aref_;
      std::vector<RowState> state(nefc_);
      std::vector<double> force(nefc_),
          cones(static_cast<size_t>(p.ncone) * kMaxConeDim * kMaxConeDim);
      evaluate_constraints(p, jar.data(), state.data(), force.data(), cones.data());
      // Dact is block diagonal (one entry per quadratic row, one block per
      // cone in its middle zone): sparse.
      std::vector<Eigen::Triplet<double>> entries;
      for (int i = 0; i < nefc_; ++i) {
        if (state[i] == RowState::kQuadratic) entries.emplace_back(i, i, p.D[i]);
      }
      for (int c = 0; c < p.ncone; ++c) {
        const ConeGroup& cone = p.cones[c];
        if (state[cone.first_row] != RowState::kCone) continue;
        const double* block = cones.data() + static_cast<size_t>(c) * kMaxConeDim * kMaxConeDim;
        for (int r = 0; r < cone.dim; ++r) {
          for (int k = 0; k < cone.dim; ++k) {
            entries.emplace_back(cone.first_row + r, cone.first_row + k, block[r * cone.dim + k]);
          }
        }
      }
      dact_.setFromTriplets(entries.begin(), entries.end());
      dact_j_ = dact_ * j_;
      h += j_.transpose() * dact_j_;
    } else {
      dact_j_.resize(0, nv_);
    }
    // Every column solves with it: its inverse (nv x nv, dense) makes each
    // solve one product.
    inverse_ = h.llt().solve(Eigen::MatrixXd::Identity(nv_, nv_));
    centre_gradient_ = gradient(m, d, qacc_);
    qacc_norm_ = qacc_.norm();
  }

  // In place of the solver after a qpos nudge: data.qacc, efc.force and
  // qfrc_constraint by chord steps from the centre. False when the nudge
  // changed the rows (a contact came or went) or the steps converge
  // slowly: the caller then solves (which sets all three anew).
  bool apply_moved(const Model& m, Data& d) const {
    if (d.efc.type != type_ || d.efc.id != id_ || d.contacts.size() != pairs_.size()) return false;
    for (size_t i = 0; i < pairs_.size(); ++i) {
      const Contact& c = d.contacts[i];
      if (c.geom1 != pairs_[i][0] || c.geom2 != pairs_[i][1] || c.efc_address != pairs_[i][2]) {
        return false;
      }
    }
    // The chord method: Newton steps with the centre's Hessian. Each
    // shrinks the error by about |H^-1 (H' - H)| (the rate, estimated from
    // two steps), so the error left after a step is about rate * |step|.
    // Done when that is a small part of the move, or when a step is
    // round-off of the acceleration itself (a nudge that moves nothing).
    const double round_off = kRoundOff * (1 + qacc_norm_);
    VectorXd a = qacc_;
    double previous = 0;
    for (int iteration = 0;; ++iteration) {
      if (iteration == kChordIterations) return false;
      const VectorXd step = inverse_ * (gradient(m, d, a) - centre_gradient_);
      a -= step;
      const double size = step.norm();
      if (size <= round_off) break;
      if (iteration > 0) {
        const double rate = size / previous;
        if (rate > kChordRate) return false;  // too slow: solve instead
        if (rate * size <= kChordTolerance * (a - qacc_).norm()) break;
      }
      previous = size;
    }
    // The forces at the last qacc (the integrators read qfrc_constraint).
    d.qacc = a;
    constraint_forces(m, d);
    return true;
  }

  // data.qacc, efc.force and qfrc_constraint for data's (nudged) smooth
  // force and reference acceleration, in place of the solver.
  void apply(Data& d) const {
    const Eigen::Map<const VectorXd> aref(d.efc.aref.data(), nefc_);
    const VectorXd dact_daref = dact_ * (aref - aref_);
    const VectorXd da = inverse_ * (d.qfrc_smooth - qfrc_smooth_ + j_.transpose() * dact_daref);
    d.qacc = qacc_ + da;
    const VectorXd dforce = dact_daref - dact_j_ * da;
    for (int i = 0; i < nefc_; ++i) d.efc.force[i] = force_[i] + dforce[i];
    d.qfrc_constraint = qfrc_constraint_ + j_.transpose() * dforce;
  }

 private:
  // The cost's gradient at `a` for data's rows, M and smooth force,
  // M a - qfrc_smooth - J^T f(J a - aref); data.qacc becomes `a`, with its
  // efc.force and qfrc_constraint.
  VectorXd gradient(const Model& m, Data& d, const VectorXd& a) const {
    d.qacc = a;
    constraint_forces(m, d);
    VectorXd g(nv_);
    multiply_mass(m, d, a.data(), g.data());
    return g - d.qfrc_smooth - d.qfrc_constraint;
  }

  int nv_, nefc_;
  double qacc_norm_ = 0;
  VectorXd qacc_, qfrc_smooth_, qfrc_constraint_, aref_, centre_gradient_;
  std::vector<ConstraintType> type_;
  std::vector<int> id_;
  std::vector<std::array<int, 3>> pairs_;  // geom1, geom2, efc_address per contact
  std::vector<double> force_;
  Eigen::MatrixXd j_, dact_j_;        // J and Dact J, dense (nefc x nv)
  Eigen::SparseMatrix<double> dact_;  // nefc x nefc
  Eigen::MatrixXd inverse_;           // (M + J^T Dact J)^-1, positive definite
};

// One step from data's state, recomputing the stages from `from` on. The
// stages before it must hold the results of the unnudged state (the step
// of the centre point computed them; the integrators leave them). With
// `linear`, the constraint solve is linearised at the centre: a velocity,
// act or ctrl nudge takes its derivative, a qpos nudge chord steps where
// the rows kept their structure.
void step_from(const Model& m, Data& d, From from, bool sensors,
               const LinearisedSolve* linear = nullptr) {
  if (from == From::kPosition && !linear) {
    if (sensors) {
      const long steps = d.step_count;
      step(m, d);
      d.step_count = steps;
      return;
    }
    // step() without its sensors, which no one reads here (as MuJoCo's
    // skipsensor).
    forward(m, d, false);
    if (m.options.flags.fwdinv) compare_forward_inverse(m, d);
    integrate(m, d);
    return;
  }
  if (from == From::kPosition) {
    forward_position(m, d);
    if (sensors) sensors_position(m, d);
  }
  if (from != From::kActuation) {
    forward_velocity(m, d);
    if (sensors) sensors_velocity(m, d);
  }
  forward_actuation(m, d);
  forward_acceleration(m, d);
  if (!linear) {
    forward_constraint(m, d);
  } else if (from != From::kPosition) {
    linear->apply(d);
  } else if (!linear->apply_moved(m, d)) {
    forward_constraint(m, d);
  }
  if (sensors) sensors_acceleration(m, d);
  if (m.options.flags.energy) compute_energy(m, d);
  if (m.options.flags.fwdinv) compare_forward_inverse(m, d);  // as step()
  integrate(m, d);
}

// Output of one step: the next state (qpos, qvel, act) and sensordata.
struct Output {
  std::vector<double> state;
  Eigen::VectorXd sensors;
};

class Differencer {
 public:
  Differencer(const Model& m, Data& d, const DifferenceOptions& o)
      : m_(m), d_(d), o_(o), ndx_(2 * m.nv + m.na) {
    if (m.options.integrator == Integrator::kRk4) {
      throw std::invalid_argument(
          "transition derivatives: the RK4 integrator is not supported (its step reruns every "
          "stage); accepted: Euler, implicit, implicitfast");
    }
    mask_ = kStateFullPhysics | kStateCtrl | (m.options.flags.warmstart ? kStateWarmstart : 0u);
    saved_.resize(state_size(m, mask_));
    get_state(m, d, saved_.data(), mask_);
  }

  // Steps from the saved state with `nudge` applied to data, reads the
  // output and restores the state.
  // Linearises the solve at data's current forward() results (the centre).
  void linearise() { linear_ = std::make_shared<const LinearisedSolve>(m_, d_); }
  // Uses `other`'s linearisation (it only reads it; each uses its own data).
  void share_linearisation(const Differencer& other) { linear_ = other.linear_; }

  template <typename Nudge>
  Output run(From from, Nudge nudge) {
    nudge();
    step_from(m_, d_, o_.skip_stages || linear_ ? from : From::kPosition, o_.sensors,
              linear_.get());
    Output out;
    out.state.resize(m_.nq + m_.nv + m_.na);
    get_state(m_, d_, out.state.data(), kStatePhysics);
    if (o_.sensors) out.sensors = d_.sensordata;
    set_state(m_, d_, saved_.data(), mask_);
    return out;
  }

  // (b - a) / h for the state part (positions on the manifold).
  Eigen::VectorXd state_difference(const Output& a, const Output& b, double h) const {
    Eigen::VectorXd ds(ndx_);
    differentiate_position(m_, ds.data(), h, a.state.data(), b.state.data());
    const int nq = m_.nq, nv = m_.nv;
    for (int i = 0; i < nv + m_.na; ++i) ds[nv + i] = (b.state[nq + i] - a.state[nq + i]) / h;
    return ds;
  }

  // Writes column `c` of `state_jac` and `sensor_jac` from the centre and
  // the nudged outputs (either nudge may be absent: one-sided).
  void column(const Output& centre, const Output* plus, const Output* minus, int c,
              Eigen::MatrixXd& state_jac, Eigen::MatrixXd& sensor_jac) const {
    const double eps = o_.eps;
    const Output* low = minus ? minus : &centre;
    const Output* high = plus ? plus : &centre;
    const double h = (plus && minus) ? 2 * eps : eps;
    if (!plus && !minus) {
      state_jac.col(c).setZero();
      if (o_.sensors) sensor_jac.col(c).setZero();
      return;
    }
    state_jac.col(c) = state_difference(*low, *high, h);
    if (o_.sensors) sensor_jac.col(c) = (high->sensors - low->sensors) / h;
  }

 private:
  const Model& m_;
  Data& d_;
  const DifferenceOptions& o_;
  const int ndx_;
  unsigned mask_ = 0;
  std::vector<double> saved_;
  std::shared_ptr<const LinearisedSolve> linear_;
};

}  // namespace

TransitionDerivatives transition_derivatives(const Model& m, Data& d, const DifferenceOptions& o) {
  check_data_matches(m, d);
  const int nv = m.nv, na = m.na, nu = m.nu, ns = m.sensors.data_size;
  const int ndx = 2 * nv + na;
  const double eps = o.eps;
  Differencer diff(m, d, o);
  TransitionDerivatives out;
  out.A.resize(ndx, ndx);
  out.B.resize(ndx, nu);
  if (o.sensors) {
    out.C.resize(ns, ndx);
    out.D.resize(ns, nu);
  }
  const Output centre = diff.run(From::kPosition, [] {});
  if (o.linearise_solve) {
    // The centre step left data with forward()'s results at the centre
    // (the integrators change only the state, which run() restored).
    if (m.options.noslip_iterations > 0) {
      throw std::invalid_argument(
          "transition derivatives: linearise_solve does not cover the noslip pass; set "
          "noslip_iterations to 0 or difference the solve");
    }
    diff.linearise();
  }

  // Position columns: each a whole step, the bulk of the work. Threads
  // beyond the caller's take them from a shared counter from the start, each
  // on its own copy of the data (restored to the same state after each
  // column, as data is), while the caller does the cheap columns and then
  // joins in; every column sees exactly the inputs it sees on one thread.
  const int workers = std::clamp(o.threads, 1, std::max(nv, 1));
  std::atomic<int> next_position{0};
  const auto position_columns = [&](Data& data, Differencer& differ) {
    Eigen::VectorXd unit = Eigen::VectorXd::Zero(nv);
    for (int i = next_position++; i < nv; i = next_position++) {
      unit.setZero();
      unit[i] = 1;
      const auto nudge = [&](double h) { integrate_position(m, data.qpos.data(), unit.data(), h); };
      const Output plus = differ.run(From::kPosition, [&] { nudge(eps); });
      if (!o.centred) {
        differ.column(centre, &plus, nullptr, i, out.A, out.C);
        continue;
      }
      const Output minus = differ.run(From::kPosition, [&] { nudge(-eps); });
      differ.column(centre, &plus, &minus, i, out.A, out.C);
    }
  };
  std::vector<std::unique_ptr<Data>> copies;
  std::vector<std::unique_ptr<Differencer>> differs;
  for (int k = 1; k < workers; ++k) {
    copies.push_back(std::make_unique<Data>(d));  // one allocation, buffers already sized
    differs.push_back(std::make_unique<Differencer>(m, *copies.back(), o));
    differs.back()->share_linearisation(diff);
  }
  std::vector<std::exception_ptr> errors(workers);
  std::vector<std::thread> threads;
  for (int k = 1; k < workers; ++k) {
    threads.emplace_back([&, k] {
      try {
        position_columns(*copies[k - 1], *differs[k - 1]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    });
  }

  try {
    // Controls: a limited control is nudged only within its range.
    const std::vector<double> ctrl(d.ctrl.data(), d.ctrl.data() + nu);
    for (int i = 0; i < nu; ++i) {
      const bool limited = m.actuators.ctrl_limited[i];
      const Vector2d range = m.actuators.ctrl_range[i];
      const auto inside = [&](double a, double b) {
        return !limited || (a >= range[0] && a <= range[1] && b >= range[0] && b <= range[1]);
      };
      const bool forward = inside(ctrl[i], ctrl[i] + eps);
      const bool backward = (o.centred || !forward) && inside(ctrl[i] - eps, ctrl[i]);
      Output plus, minus;
      if (forward) plus = diff.run(From::kActuation, [&] { d.ctrl[i] += eps; });
      if (backward) minus = diff.run(From::kActuation, [&] { d.ctrl[i] -= eps; });
      diff.column(centre, forward ? &plus : nullptr, backward ? &minus : nullptr, i, out.B, out.D);
    }

    // One state column: forward, or centred, differences of `nudge(+-eps)`.
    const auto state_column = [&](int c, From from, auto nudge) {
      const Output plus = diff.run(from, [&] { nudge(eps); });
      if (!o.centred) return diff.column(centre, &plus, nullptr, c, out.A, out.C);
      const Output minus = diff.run(from, [&] { nudge(-eps); });
      diff.column(centre, &plus, &minus, c, out.A, out.C);
    };
    for (int i = 0; i < na; ++i) {
      state_column(2 * nv + i, From::kActuation, [&](double h) { d.act[i] += h; });
    }
    for (int i = 0; i < nv; ++i) {
      state_column(nv + i, From::kVelocity, [&](double h) { d.qvel[i] += h; });
    }
    position_columns(d, diff);
  } catch (...) {
    errors[0] = std::current_exception();
    next_position = nv;  // the workers stop after their current column
  }
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  return out;
}

InverseDerivatives inverse_derivatives(const Model& m, Data& d, bool subtract_actuation,
                                       const DifferenceOptions& o) {
  check_data_matches(m, d);
  if (m.options.integrator == Integrator::kRk4) {
    throw std::invalid_argument(
        "inverse derivatives: the RK4 integrator is not supported; accepted: Euler, implicit, "
        "implicitfast");
  }
  if (m.options.noslip_iterations > 0) {
    throw std::invalid_argument(
        "inverse derivatives: the noslip solver is not supported (inverse dynamics has no "
        "noslip pass); set noslip_iterations to 0");
  }
  const int nv = m.nv, ns = m.sensors.data_size, nm = static_cast<int>(d.qM.size());
  const double eps = o.eps;
  InverseDerivatives out;
  out.DfDq.resize(nv, nv);
  out.DfDv.resize(nv, nv);
  out.DfDa.resize(nv, nv);
  out.DmDq.resize(nm, nv);
  if (o.sensors) {
    out.DsDq.resize(ns, nv);
    out.DsDv.resize(ns, nv);
    out.DsDa.resize(ns, nv);
  }
  // The force of inverse dynamics from the stage `from` on.
  const auto force = [&](From from) {
    if (from == From::kPosition || !o.skip_stages) {
      forward_position(m, d);
      if (o.sensors) sensors_position(m, d);
    }
    if (from != From::kActuation || !o.skip_stages) {
      forward_velocity(m, d);
      if (o.sensors) sensors_velocity(m, d);
    }
    inverse_from_velocity(m, d, o.sensors);
    Eigen::VectorXd f = d.qfrc_inverse;
    if (subtract_actuation) {
      forward_actuation(m, d);
      f -= d.qfrc_actuator;
    }
    return f;
  };
  const Eigen::VectorXd qpos = d.qpos;
  const Eigen::VectorXd f0 = force(From::kPosition);
  const Eigen::VectorXd s0 = d.sensordata;
  const Eigen::VectorXd m0 = d.qM;
  const auto record = [&](int c, Eigen::MatrixXd& dfd, Eigen::MatrixXd& dsd,
                          const Eigen::VectorXd& f) {
    dfd.col(c) = (f - f0) / eps;
    if (o.sensors) dsd.col(c) = (d.sensordata - s0) / eps;
  };
  // Acceleration and velocity columns: nudge one entry, restore it.
  const auto nudge_each = [&](VectorXd& input, From from, Eigen::MatrixXd& dfd,
                              Eigen::MatrixXd& dsd) {
    for (int i = 0; i < nv; ++i) {
      const double saved = input[i];
      input[i] += eps;
      const Eigen::VectorXd f = force(from);
      input[i] = saved;
      record(i, dfd, dsd, f);
    }
  };
  nudge_each(d.qacc, From::kActuation, out.DfDa, out.DsDa);
  nudge_each(d.qvel, From::kVelocity, out.DfDv, out.DsDv);
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(nv);
  for (int i = 0; i < nv; ++i) {
    unit.setZero();
    unit[i] = 1;
    integrate_position(m, d.qpos.data(), unit.data(), eps);
    const Eigen::VectorXd f = force(From::kPosition);
    d.qpos = qpos;
    record(i, out.DfDq, out.DsDq, f);
    out.DmDq.col(i) = (d.qM - m0) / eps;
  }
  return out;
}

}  // namespace pliant
