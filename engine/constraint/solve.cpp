#include "engine/constraint/solve.h"

#include <algorithm>

#include "engine/constraint/islands.h"
#include "engine/dynamics.h"
#include "engine/helped_loop.h"
#include "engine/workspace.h"
#include "solvers/cg_solver.h"
#include "solvers/cost.h"
#include "solvers/newton_solver.h"
#include "solvers/noslip.h"
#include "solvers/pgs_solver.h"
#include "solvers/workspace.h"

namespace pliant {

ConstraintProblem constraint_problem(const Model& m, Data& d) {
  ConstraintRows& efc = d.efc;
  SolverWorkspace& w = workspace(d).solver;
  const int nefc = efc.count();
  w.cone_of_row.assign(nefc, -1);
  w.cones.clear();
  for (const Contact& con : d.contacts) {
    const int first = con.efc_address;
    if (first < 0 || efc.type[first] != ConstraintType::kContactElliptic) continue;
    ConeGroup cone;
    cone.first_row = first;
    cone.dim = con.dim;
    cone.mu = con.mu;
    for (int j = 0; j < 5; ++j) cone.friction[j] = con.friction[j];
    for (int j = 0; j < con.dim; ++j) w.cone_of_row[first + j] = static_cast<int>(w.cones.size());
    w.cones.push_back(cone);
  }
  ConstraintProblem p;
  p.nv = m.nv;
  p.nefc = nefc;
  p.mass_tree = mass_sparsity(m);
  p.mass = d.qM.data();
  p.mass_factor = d.qLD.data();
  p.mass_inverse_diagonal = d.qLDiagInv.data();
  p.qacc_smooth = d.qacc_smooth.data();
  p.qfrc_smooth = d.qfrc_smooth.data();
  p.row_nnz = efc.row_nnz.data();
  p.row_adr = efc.row_adr.data();
  p.col = efc.col.data();
  p.J = efc.J.data();
  p.type = efc.type.data();
  p.R = efc.R.data();
  p.D = efc.D.data();
  p.aref = efc.aref.data();
  p.frictionloss = efc.frictionloss.data();
  p.cone_of_row = w.cone_of_row.data();
  p.cones = w.cones.data();
  p.ncone = static_cast<int>(w.cones.size());
  // scale = 1 / (meaninertia max(1, nv)).
  p.scale = 1 / (m.stat.meaninertia * std::max(1, m.nv));
  p.tolerance = m.options.tolerance;
  p.iterations = m.options.iterations;
  p.ls_iterations = m.options.ls_iterations;
  p.ls_tolerance = m.options.ls_tolerance;
  p.dense_hessian = efc.dense;
  p.factor = static_cast<ConstraintProblem::Factor>(m.options.hessian_factor);
  return p;
}

void solve_constraints(const Model& m, Data& d) {
  ConstraintRows& efc = d.efc;
  const int nefc = efc.count();
  SolverStatistics& stats = d.solver;
  stats.iterations = 0;
  stats.converged = true;
  stats.final_improvement = stats.final_gradient = stats.cost = 0;
  stats.per_iteration.clear();
  efc.force.assign(nefc, 0.0);
  if (nefc == 0) {
    d.qacc = d.qacc_smooth;
    d.qfrc_constraint.setZero();
    return;
  }
  SolverWorkspace& w = workspace(d).solver;
  ConstraintProblem p = constraint_problem(m, d);
  // The passes over rows (and a large island's solve) share the step's
  // threads; the results are the same on any number.
  PoolLoop loop(workspace(d).pool, d.threads);
  if (d.threads > 1) p.parallel = &loop;
  w.prepare(p);

  const bool primal = m.options.solver != SolverType::kPgs;
  IslandScratch& islands = workspace(d).islands;
  if (primal) {
    // Which rows repeat the columns of the row before, once for every pass
    // that asks (the islands', the solver's, the Hessian's pattern). The
    // rows of one contact or equality constraint are built over one list
    // of columns; other rows are compared.
    const auto same_constraint = [&efc](int i) {
      const ConstraintType type = efc.type[i];
      const bool shared = type == ConstraintType::kEquality ||
                          type == ConstraintType::kContactPyramidal ||
                          type == ConstraintType::kContactElliptic;
      return shared && i > 0 && type == efc.type[i - 1] && efc.id[i] == efc.id[i - 1];
    };
    islands.joined.resize(nefc);
    for_row_chunks(p, [&](int, int begin, int end, int) {
      for (int i = begin; i < end; ++i) {
        islands.joined[i] = same_constraint(i) || same_columns_as_previous(p, i);
      }
    });
    p.joins_previous = islands.joined.data();
  }

  // Warm start: the cheaper of qacc_warmstart and qacc_smooth by total
  // cost; PGS starts from the forces at that acceleration.
  // The primal solvers start from the winner's J a - aref and M a.
  const double* start = d.qacc_smooth.data();
  const bool warm = m.options.flags.warmstart;
  const double* jar_start = nullptr;
  const double* ma_start = nullptr;
  const auto warm_start = [&](ParallelLoop* loop) {
    ConstraintProblem q = p;
    q.parallel = loop;
    w.warm_jar.resize(nefc);
    w.smooth_jar.resize(nefc);
    w.warm_ma.resize(m.nv);
    w.smooth_ma.resize(m.nv);
    const double cost_warm = total_cost(q, d.qacc_warmstart.data(), w.warm_jar.data(),
                                        w.warm_ma.data(), w.state.data(), efc.force.data());
    const double cost_smooth = total_cost(q, d.qacc_smooth.data(), w.smooth_jar.data(),
                                          w.smooth_ma.data(), w.state.data(), efc.force.data());
    const bool from_warm = cost_warm < cost_smooth;
    if (from_warm) start = d.qacc_warmstart.data();
    jar_start = from_warm ? w.warm_jar.data() : w.smooth_jar.data();
    ma_start = from_warm ? w.warm_ma.data() : w.smooth_ma.data();
  };
  // Newton and CG solve island by island (MuJoCo 3.3.8's default); PGS and
  // noslip solve the whole problem.
  const bool try_islands = primal && m.options.flags.island && m.options.noslip_iterations == 0;
  int island_count = 0;
  if (warm && try_islands && d.threads > 1 && row_chunks(nefc) > 1) {
    // The islands (one thread's work) are found beside the warm start's
    // passes over rows, which the finder helps with once it is done.
    run_beside(workspace(d).pool, d.threads, warm_start,
               [&] { island_count = find_islands(p, islands); });
  } else {
    if (warm) warm_start(p.parallel);
    if (try_islands) island_count = find_islands(p, islands);
  }
  p.jar_start = jar_start;
  p.ma_start = ma_start;
  p.qacc_start = start;
  const bool by_island = island_count > 0;
  switch (m.options.solver) {
    case SolverType::kNewton:
      if (by_island) {
        solve_by_island(p, islands, w, solve_newton, workspace(d).pool);
      } else {
        solve_newton(p, w);
      }
      break;
    case SolverType::kCg:
      if (by_island) {
        solve_by_island(p, islands, w, solve_cg, workspace(d).pool);
      } else {
        solve_cg(p, w);
      }
      break;
    case SolverType::kPgs:
      if (warm) {
        total_cost(p, start, w.jar.data(), w.ma.data(), w.state.data(), efc.force.data());
        p.force_start = efc.force.data();
      }
      solve_pgs(p, w);
      break;
  }

  // The iteration limit speaks of the main solver; noslip's sweeps are
  // added to its count afterwards, as MuJoCo counts them.
  const bool hit_limit =
      !w.result.statistics.converged && w.result.statistics.iterations >= p.iterations;
  if (m.options.noslip_iterations > 0) {
    apply_noslip(p, w, m.options.noslip_iterations, m.options.noslip_tolerance);
  }

  const SolverResult& r = w.result;
  for (int k = 0; k < m.nv; ++k) {
    d.qacc[k] = r.qacc[k];
    d.qfrc_constraint[k] = r.qfrc_constraint[k];
  }
  for (int i = 0; i < nefc; ++i) efc.force[i] = r.force[i];
  stats = r.statistics;
  if (hit_limit) record_warning(d, WarningKind::kSolverLimit, stats.iterations);
}

void contact_force(const Model&, const Data& d, int c, double force[6]) {
  std::fill(force, force + 6, 0.0);
  const Contact& con = d.contacts[c];
  const int first = con.efc_address;
  if (first < 0 || static_cast<int>(d.efc.force.size()) <= first) return;
  const ConstraintRows& efc = d.efc;
  switch (efc.type[first]) {
    case ConstraintType::kContactPyramidal:
      // Edge pair j: normal += f+ + f-, friction j = mu_j (f+ - f-).
      for (int j = 0; j < con.dim - 1; ++j) {
        const double plus = efc.force[first + 2 * j], minus = efc.force[first + 2 * j + 1];
        force[0] += plus + minus;
        force[j + 1] = con.friction[j] * (plus - minus);
      }
      break;
    case ConstraintType::kContactElliptic:
      for (int j = 0; j < con.dim; ++j) force[j] = efc.force[first + j];
      break;
    default:
      force[0] = efc.force[first];
  }
}

void constraint_forces(const Model& m, Data& d) {
  ConstraintRows& efc = d.efc;
  const int nefc = efc.count();
  efc.force.assign(nefc, 0.0);
  if (nefc == 0) {
    d.qfrc_constraint.setZero();
    return;
  }
  const ConstraintProblem p = constraint_problem(m, d);
  SolverWorkspace& w = workspace(d).solver;
  grow(w.jar, nefc);
  grow(w.state, nefc);
  problem_jacobian_multiply(p, d.qacc.data(), w.jar.data());
  for (int i = 0; i < nefc; ++i) w.jar[i] -= efc.aref[i];
  evaluate_constraints(p, w.jar.data(), w.state.data(), efc.force.data(), nullptr);
  problem_jacobian_transpose_multiply(p, efc.force.data(), d.qfrc_constraint.data());
}

}  // namespace pliant
