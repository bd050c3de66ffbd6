#include "solvers/cost.h"

#include <cmath>

namespace pliant {

namespace {

// row_cost, inlined into the passes over rows.
[[gnu::always_inline]] inline double one_row_cost(RowType type, double jar, double r, double d,
                                                  double frictionloss, double* force,
                                                  RowState* state) {
  switch (type) {
    case RowType::kEquality:
      break;
    case RowType::kFrictionDof:
    case RowType::kFrictionTendon:
      // Huber: linear beyond |jar| = R fl, where the force saturates at fl.
      if (jar <= -r * frictionloss) {
        *state = RowState::kLinearNeg;
        *force = frictionloss;
        return -0.5 * r * frictionloss * frictionloss - frictionloss * jar;
      }
      if (jar >= r * frictionloss) {
        *state = RowState::kLinearPos;
        *force = -frictionloss;
        return -0.5 * r * frictionloss * frictionloss + frictionloss * jar;
      }
      break;
    default:
      // One-sided rows: no force once the row separates (jar >= 0).
      if (jar >= 0) {
        *state = RowState::kSatisfied;
        *force = 0;
        return 0;
      }
  }
  *state = RowState::kQuadratic;
  *force = -d * jar;
  return 0.5 * d * jar * jar;
}

}  // namespace

double row_cost(RowType type, double jar, double r, double d, double frictionloss, double* force,
                RowState* state) {
  return one_row_cost(type, jar, r, d, frictionloss, force, state);
}

double elliptic_cone_cost(const ConeGroup& cone, const double* d, const double* jar, double* force,
                          RowState* state, double* hessian) {
  const int dim = cone.dim;
  const double mu = cone.mu;
  // U0 = mu jar0, Uj = friction[j-1] jar_j; N = U0, T = |U_1:|.
  double u[kMaxConeDim];
  u[0] = mu * jar[0];
  double t2 = 0;
  for (int j = 1; j < dim; ++j) {
    u[j] = cone.friction[j - 1] * jar[j];
    t2 += u[j] * u[j];
  }
  const double n = u[0], t = std::sqrt(t2);
  // Top zone: inside the cone, satisfied.
  if (n >= mu * t || (t <= 0 && n >= 0)) {
    for (int j = 0; j < dim; ++j) {
      force[j] = 0;
      state[j] = RowState::kSatisfied;
    }
    return 0;
  }
  // Bottom zone: inside the dual cone, every row quadratic.
  if (mu * n + t <= 0 || (t <= 0 && n < 0)) {
    double cost = 0;
    for (int j = 0; j < dim; ++j) {
      force[j] = -d[j] * jar[j];
      state[j] = RowState::kQuadratic;
      cost += 0.5 * d[j] * jar[j] * jar[j];
    }
    return cost;
  }
  // Middle zone: cost 0.5 Dm (N - mu T)^2, Dm = D0 / (mu^2 (1 + mu^2));
  // f0 = -Dm (N - mu T) mu, fj = -f0 Uj friction[j-1] / T.
  const double dm = d[0] / (mu * mu * (1 + mu * mu));
  const double nmt = n - mu * t;
  force[0] = -dm * nmt * mu;
  for (int j = 1; j < dim; ++j) force[j] = -force[0] * u[j] * cone.friction[j - 1] / t;
  for (int j = 0; j < dim; ++j) state[j] = RowState::kCone;
  if (hessian) {
    // cost = 0.5 Dm mu^2 e^2 with e = jar0 - T: Hessian
    // Dm mu^2 (g g^T - e d2T), g = (1, -w_j U_j / T),
    // d2T_ik = w_i w_k (delta_ik / T - U_i U_k / T^3), w_j = friction[j-1].
    const double e = nmt / mu;
    const double c = dm * mu * mu;
    double g[kMaxConeDim], w[kMaxConeDim];
    g[0] = 1;
    w[0] = 0;
    for (int j = 1; j < dim; ++j) {
      w[j] = cone.friction[j - 1];
      g[j] = -w[j] * u[j] / t;
    }
    for (int i = 0; i < dim; ++i) {
      for (int k = 0; k < dim; ++k) {
        double d2t = 0;
        if (i > 0 && k > 0) d2t = w[i] * w[k] * ((i == k ? 1 / t : 0) - u[i] * u[k] / (t * t * t));
        hessian[i * dim + k] = c * (g[i] * g[k] - e * d2t);
      }
    }
  }
  return 0.5 * dm * nmt * nmt;
}

namespace {

// Whether rows of `type` are one-sided: limits, frictionless contacts and
// pyramid edges (the codes from kLimitJoint to kContactPyramidal).
bool one_sided(RowType type) {
  return type >= RowType::kLimitJoint && type <= RowType::kContactPyramidal;
}

// evaluate_constraints over rows [begin, end) (whole cones).
double evaluate_rows(const ConstraintProblem& p, int begin, int end, const double* jar,
                     RowState* state, double* force, double* cone_hessian) {
  double cost = 0;
  for (int i = begin; i < end;) {
    if (one_sided(p.type[i])) {
      // A run of one-sided rows (a pile's contacts) in a loop of its own,
      // each row as one_row_cost finds it, its cost added in row order.
      do {
        const double jar_i = jar[i], d = p.D[i];
        const bool quadratic = !(jar_i >= 0);
        state[i] = quadratic ? RowState::kQuadratic : RowState::kSatisfied;
        force[i] = quadratic ? -d * jar_i : 0.0;
        cost += quadratic ? 0.5 * d * jar_i * jar_i : 0.0;
        ++i;
      } while (i < end && one_sided(p.type[i]));
      continue;
    }
    if (p.type[i] == RowType::kContactElliptic) {
      const int c = p.cone_of_row[i];
      const ConeGroup& cone = p.cones[c];
      cost +=
          elliptic_cone_cost(cone, p.D + i, jar + i, force + i, state + i,
                             cone_hessian ? cone_hessian + c * kMaxConeDim * kMaxConeDim : nullptr);
      i += cone.dim;
      continue;
    }
    cost +=
        one_row_cost(p.type[i], jar[i], p.R[i], p.D[i], p.frictionloss[i], force + i, state + i);
    ++i;
  }
  return cost;
}

}  // namespace

// Chunk by chunk (on the problem's parallel loop), the chunks' costs then
// summed in order: the same sum on any number of threads.
double evaluate_constraints(const ConstraintProblem& p, const double* jar, RowState* state,
                            double* force, double* cone_hessian) {
  double partial[kMaxRowChunks];
  for_row_chunks(p, [&](int c, int begin, int end, int) {
    partial[c] = evaluate_rows(p, begin, end, jar, state, force, cone_hessian);
  });
  double cost = partial[0];
  for (int c = 1; c < row_chunks(p.nefc); ++c) cost += partial[c];
  return cost;
}

double gauss_cost(const ConstraintProblem& p, const double* qacc, const double* ma) {
  double sum = 0;
  for (int k = 0; k < p.nv; ++k) sum += (ma[k] - p.qfrc_smooth[k]) * (qacc[k] - p.qacc_smooth[k]);
  return 0.5 * sum;
}

double total_cost(const ConstraintProblem& p, const double* qacc, double* jar, double* ma,
                  RowState* state, double* force) {
  problem_jacobian_multiply(p, qacc, jar);
  for_row_chunks(p, [&](int, int begin, int end, int) {
    for (int i = begin; i < end; ++i) jar[i] -= p.aref[i];
  });
  problem_mass_multiply(p, qacc, ma);
  return gauss_cost(p, qacc, ma) + evaluate_constraints(p, jar, state, force, nullptr);
}

}  // namespace pliant
