#pragma once

// Derivatives of the step and of inverse dynamics by finite differences, as
// MuJoCo's mjd_transitionFD and mjd_inverseFD define them.
//
// The state is x = (qpos in the tangent space, qvel, act): 2 nv + na
// values. A position column is a nudge along one dof (the joint's own
// coordinate, or a body-frame rotation of a ball or free joint), and a
// difference of positions is taken on the configuration manifold
// (differentiate_position, pliant/integrate_position.h). For a step x' = f(x, u) and its sensors
// s = g(x, u):
//
//   A = dx'/dx   (2nv+na) x (2nv+na)     B = dx'/du   (2nv+na) x nu
//   C = ds/dx    nsensordata x (2nv+na)  D = ds/du    nsensordata x nu
//
// Matrices are in the usual orientation (row = output); MuJoCo's C arrays
// hold the same numbers row-major. A nudge of a limited control that would
// leave its ctrlrange is taken on the other side only (one-sided
// difference), as MuJoCo does.
//
//   pliant::Data data(model);
//   ... set qpos, qvel, ctrl ...
//   const pliant::TransitionDerivatives d = pliant::transition_derivatives(model, data);
//   // d.A, d.B: the linearised step, e.g. for LQR

#include "pliant/data.h"

namespace pliant {

struct DifferenceOptions {
  double eps = 1e-6;     // nudge size (m, rad, m/s, ..., in each input's unit)
  bool centred = false;  // centred differences (two steps per column) or forward
  bool sensors = true;   // compute C and D (and the sensor rows of inverse derivatives)
  // Reuse the stages a nudge cannot change (a velocity nudge skips the
  // position stage; act and ctrl nudges skip position and velocity), as
  // MuJoCo does. The results are bit-identical either way (a test checks).
  bool skip_stages = true;
  // Beyond MuJoCo: no column runs the constraint solver. A qvel, act or
  // ctrl nudge changes no geometry, so the rows, J and M stay; the solve's
  // optimum moves by implicit differentiation of the convex problem within
  // its active set (Newton's Hessian M + J^T Dact J, inverted once). Equal
  // to differencing where no row changes state (a test compares with
  // centred differences). A qpos nudge runs every stage but the solve,
  // whose optimum is found by chord steps from the centre's (Newton steps
  // with the centre's Hessian), about three gradients instead of a solve;
  // equal to differencing full solves within 1e-8 (a test). A nudge that
  // makes or breaks a contact, or whose steps converge slowly, is solved.
  // The smooth forces, activations and the integrator are differenced as
  // before. Not with noslip.
  bool linearise_solve = false;
  // Beyond MuJoCo: the position columns (a whole step each, the bulk of the
  // work) are shared among this many threads, each stepping a copy of the
  // data. The results do not depend on the count (a test checks, bit for
  // bit).
  int threads = 1;
};

struct TransitionDerivatives {
  Eigen::MatrixXd A, B, C, D;
};

// The transition derivatives at data's state and controls. data's state
// (time, qpos, qvel, act, warm start, ctrl) is restored on return; the
// other results are those of the last nudged step run on data (with
// threads > 1, the copies step the last position columns). RK4 throws
// std::invalid_argument (MuJoCo does not support it either).
TransitionDerivatives transition_derivatives(const Model& model, Data& data,
                                             const DifferenceOptions& options = {});

// Derivatives of inverse dynamics (pliant/inverse.h) at data.qpos, qvel and
// qacc, each nv x nv (row = output): of the force f = qfrc_inverse (minus
// qfrc_actuator when `subtract_actuation`), of the sensors (nsensordata x
// nv) and of the mass matrix's nM stored entries (nM x nv, DmDq), with
// respect to qpos (tangent), qvel and qacc. Forward differences, as MuJoCo's
// mjd_inverseFD (`centred` is not used). data.qpos, qvel and qacc are
// restored; the other results are those of the last nudge.
struct InverseDerivatives {
  Eigen::MatrixXd DfDq, DfDv, DfDa, DsDq, DsDv, DsDa, DmDq;
};
InverseDerivatives inverse_derivatives(const Model& model, Data& data, bool subtract_actuation,
                                       const DifferenceOptions& options = {});

}  // namespace pliant
