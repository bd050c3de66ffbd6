// Newton's Hessian on settled box piles: Pliant's own factor against
// SuiteSparse's CHOLMOD (supernodal, AMD/METIS ordering), on the same
// matrix H = M + J^T diag(D) J over the rows the solver holds quadratic.
//
//   cholmod_bench [--sizes 300,1000] [--repetitions 9]
//
// Per pile: Pliant's build_hessian (ordering, pattern, assembly, factor: what
// Newton pays once per solve) and one solve; CHOLMOD's assembly of H from
// triplets, cholmod_analyze (ordering and symbolic factor), cholmod_factorize
// and cholmod_solve, and the factorisation alone with the analysis reused.
// Medians over the repetitions, with the range. The two solutions of H x = b
// are compared, so both engines factor the same matrix. Built only when
// libsuitesparse-dev is found; never used by the engine.

#include <suitesparse/cholmod.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "engine/constraint/solve.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/bench/workloads.h"
#include "solvers/envelope_cholesky.h"
#include "solvers/newton_hessian.h"
#include "solvers/newton_solver.h"
#include "solvers/workspace.h"

namespace {

using pliant::ConstraintProblem;
using pliant::Data;
using pliant::Model;

struct Timing {
  double median = 0, low = 0, high = 0;  // microseconds
};

Timing time_it(int repetitions, const std::function<void()>& run) {
  std::vector<double> us;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    const auto stop = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us.front(), us.back()};
}

// Lower triangle of H as CHOLMOD triplets (duplicates are summed when the
// triplets become a sparse matrix).
cholmod_triplet* hessian_triplets(const ConstraintProblem& p,
                                  const std::vector<pliant::RowState>& state,
                                  cholmod_common* common) {
  size_t count = 0;
  for (int i = 0; i < p.nv; ++i) {
    for (int j = i; j >= 0; j = p.mass_tree.parent[j]) ++count;
  }
  for (int r = 0; r < p.nefc; ++r) {
    if (state[r] == pliant::RowState::kQuadratic) {
      count += static_cast<size_t>(p.row_nnz[r]) * (p.row_nnz[r] + 1) / 2;
    }
  }
  cholmod_triplet* t = cholmod_allocate_triplet(p.nv, p.nv, count, -1, CHOLMOD_REAL, common);
  auto* ti = static_cast<int*>(t->i);
  auto* tj = static_cast<int*>(t->j);
  auto* tx = static_cast<double*>(t->x);
  size_t k = 0;
  const auto add = [&](int a, int b, double value) {
    ti[k] = std::max(a, b);
    tj[k] = std::min(a, b);
    tx[k++] = value;
  };
  for (int i = 0; i < p.nv; ++i) {
    int slot = p.mass_tree.address[i];
    for (int j = i; j >= 0; j = p.mass_tree.parent[j]) add(i, j, p.mass[slot++]);
  }
  for (int r = 0; r < p.nefc; ++r) {
    if (state[r] != pliant::RowState::kQuadratic) continue;
    const int adr = p.row_adr[r], n = p.row_nnz[r];
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b <= a; ++b) {
        add(p.col[adr + a], p.col[adr + b], p.D[r] * p.J[adr + a] * p.J[adr + b]);
      }
    }
  }
  t->nnz = k;
  return t;
}

// H as CHOLMOD assembles it with sparse products: F = J^T sqrt(D) over the
// quadratic rows (nv x rows, a column per row), H = F F^T + M, kept as its
// lower triangle.
cholmod_sparse* hessian_by_products(const ConstraintProblem& p,
                                    const std::vector<pliant::RowState>& state,
                                    cholmod_common* common) {
  size_t nnz = 0;
  int rows = 0;
  for (int r = 0; r < p.nefc; ++r) {
    if (state[r] != pliant::RowState::kQuadratic) continue;
    nnz += p.row_nnz[r];
    ++rows;
  }
  cholmod_sparse* f =
      cholmod_allocate_sparse(p.nv, rows, nnz, false, true, 0, CHOLMOD_REAL, common);
  auto* fp = static_cast<int*>(f->p);
  auto* fi = static_cast<int*>(f->i);
  auto* fx = static_cast<double*>(f->x);
  int column = 0, k = 0;
  for (int r = 0; r < p.nefc; ++r) {
    if (state[r] != pliant::RowState::kQuadratic) continue;
    fp[column++] = k;
    const double weight = std::sqrt(p.D[r]);
    for (int e = 0; e < p.row_nnz[r]; ++e) {
      fi[k] = p.col[p.row_adr[r] + e];
      fx[k++] = weight * p.J[p.row_adr[r] + e];
    }
  }
  fp[column] = k;
  cholmod_sparse* ff = cholmod_aat(f, nullptr, 0, 1, common);
  // M with both triangles, as the product has them.
  cholmod_triplet* mt = cholmod_allocate_triplet(p.nv, p.nv, 2 * static_cast<size_t>(p.nv) * 8, 0,
                                                 CHOLMOD_REAL, common);
  auto* ti = static_cast<int*>(mt->i);
  auto* tj = static_cast<int*>(mt->j);
  auto* tx = static_cast<double*>(mt->x);
  size_t t = 0;
  for (int i = 0; i < p.nv; ++i) {
    int slot = p.mass_tree.address[i];
    for (int j = i; j >= 0; j = p.mass_tree.parent[j], ++slot) {
      if (t + 2 > mt->nzmax) cholmod_reallocate_triplet(2 * mt->nzmax, mt, common);
      ti = static_cast<int*>(mt->i);
      tj = static_cast<int*>(mt->j);
      tx = static_cast<double*>(mt->x);
      ti[t] = i, tj[t] = j, tx[t++] = p.mass[slot];
      if (i != j) ti[t] = j, tj[t] = i, tx[t++] = p.mass[slot];
    }
  }
  mt->nnz = t;
  cholmod_sparse* m = cholmod_triplet_to_sparse(mt, t, common);
  double one[2] = {1, 0};
  cholmod_sparse* sum = cholmod_add(ff, m, one, one, true, true, common);
  cholmod_sparse* lower = cholmod_copy(sum, -1, 1, common);
  cholmod_free_sparse(&sum, common);
  cholmod_free_sparse(&m, common);
  cholmod_free_triplet(&mt, common);
  cholmod_free_sparse(&ff, common);
  cholmod_free_sparse(&f, common);
  return lower;
}

void print_timing(const char* what, const Timing& t) {
  std::printf("| %s | %.1f | %.1f-%.1f |\n", what, t.median, t.low, t.high);
}

void run_pile(int boxes, int repetitions) {
  const Model model = pliant::load_model_from_string(pliant::scenes::box_pile_xml(boxes));
  Data data(model);
  for (int s = 0; s < 600; ++s) pliant::step(model, data);
  pliant::forward(model, data);
  const ConstraintProblem p = pliant::constraint_problem(model, data);
  pliant::SolverWorkspace w;
  w.prepare(p);
  int quadratic = 0;
  for (int r = 0; r < p.nefc; ++r) {
    const bool active = data.efc.force[r] != 0;
    w.state[r] = active ? pliant::RowState::kQuadratic : pliant::RowState::kSatisfied;
    quadratic += active;
  }
  std::vector<double> rhs(p.nv);
  for (int i = 0; i < p.nv; ++i) rhs[i] = std::sin(0.7 * i + 0.3);

  // Pliant: what Newton does once per solve, and one solve.
  const Timing pliant_build = time_it(repetitions, [&] { pliant::build_hessian(p, w); });
  std::vector<double> x_pliant = rhs;
  const Timing pliant_solve = time_it(repetitions, [&] {
    x_pliant = rhs;
    pliant::solve_hessian(w, x_pliant.data());
  });

  // CHOLMOD on the same matrix.
  cholmod_common common;
  cholmod_start(&common);
  cholmod_sparse* a = nullptr;
  const Timing assemble = time_it(repetitions, [&] {
    if (a) cholmod_free_sparse(&a, &common);
    a = hessian_by_products(p, w.state, &common);
  });
  // The same matrix entry by entry, as a check of the products.
  cholmod_triplet* triplets = hessian_triplets(p, w.state, &common);
  cholmod_sparse* check = cholmod_triplet_to_sparse(triplets, triplets->nnz, &common);
  double minus_one[2] = {-1, 0}, one[2] = {1, 0};
  cholmod_sparse* residual = cholmod_add(a, check, one, minus_one, true, true, &common);
  const double assembly_error = cholmod_norm_sparse(residual, 0, &common) /
                                std::max(cholmod_norm_sparse(check, 0, &common), 1e-300);
  cholmod_free_sparse(&residual, &common);
  cholmod_free_sparse(&check, &common);
  cholmod_free_triplet(&triplets, &common);
  cholmod_factor* factor = nullptr;
  const Timing analyse_factor = time_it(repetitions, [&] {
    if (factor) cholmod_free_factor(&factor, &common);
    factor = cholmod_analyze(a, &common);
    cholmod_factorize(a, factor, &common);
  });
  const Timing factor_only = time_it(repetitions, [&] { cholmod_factorize(a, factor, &common); });
  cholmod_dense* b = cholmod_allocate_dense(p.nv, 1, p.nv, CHOLMOD_REAL, &common);
  std::copy(rhs.begin(), rhs.end(), static_cast<double*>(b->x));
  cholmod_dense* x = nullptr;
  const Timing solve = time_it(repetitions, [&] {
    if (x) cholmod_free_dense(&x, &common);
    x = cholmod_solve(CHOLMOD_A, factor, b, &common);
  });
  double difference = 0, scale = 0;
  for (int i = 0; i < p.nv; ++i) {
    const double xi = static_cast<double*>(x->x)[i];
    difference = std::max(difference, std::abs(xi - x_pliant[i]));
    scale = std::max(scale, std::abs(xi));
  }

  std::printf(
      "\n### Pile of %d boxes: nv %d, %d rows, %d quadratic; H %zu non-zeros "
      "(lower)\n\n",
      boxes, p.nv, p.nefc, quadratic, static_cast<size_t>(cholmod_nnz(a, &common)));
  std::printf(
      "Pliant's factor: %s. CHOLMOD: %s, L %.0f non-zeros, ordering %s. "
      "Solutions of H x = b agree to %.1e (relative); CHOLMOD's H by products "
      "equals H entry by entry to %.1e.\n\n",
      w.hessian_blocks ? "blocks (minimum degree)" : "envelope",
      factor->is_super ? "supernodal" : "simplicial", common.lnz,
      common.selected >= 0 && common.method[common.selected].ordering == CHOLMOD_METIS ? "METIS"
                                                                                       : "AMD",
      difference / std::max(scale, 1e-300), assembly_error);
  std::printf("| step | median us | range us |\n|---|---:|---:|\n");
  print_timing("Pliant: order, pattern, assemble, factor (per Newton solve)", pliant_build);
  print_timing("Pliant: solve", pliant_solve);
  print_timing("CHOLMOD: assemble H (J^T sqrt(D) product, aat, add M)", assemble);
  print_timing("CHOLMOD: analyse (order, symbolic) and factorise", analyse_factor);
  print_timing("CHOLMOD: factorise with the analysis reused", factor_only);
  print_timing("CHOLMOD: solve", solve);
  std::printf("| CHOLMOD per Newton solve (assemble + analyse and factorise) | %.1f | |\n",
              assemble.median + analyse_factor.median);

  cholmod_free_dense(&x, &common);
  cholmod_free_dense(&b, &common);
  cholmod_free_factor(&factor, &common);
  cholmod_free_sparse(&a, &common);
  cholmod_finish(&common);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes = {300, 1000};
  int repetitions = 9;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--sizes") {
      sizes.clear();
      std::stringstream list(argv[i + 1]);
      std::string item;
      while (std::getline(list, item, ',')) sizes.push_back(std::atoi(item.c_str()));
    } else if (flag == "--repetitions") {
      repetitions = std::max(1, std::atoi(argv[i + 1]));
    } else {
      std::fprintf(stderr, "usage: cholmod_bench [--sizes 300,1000] [--repetitions 9]\n");
      return 2;
    }
  }
  std::printf("## Newton's Hessian factor: Pliant against CHOLMOD (samples/bench/cholmod_bench)\n");
  for (int boxes : sizes) run_pile(boxes, repetitions);
  return 0;
}
