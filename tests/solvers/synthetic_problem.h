#pragma once

// Random constraint problems for the solver unit tests: a tree-structured
// positive-definite M, random rows of every type (elliptic cones of
// dimension 3, 4 and 6 among them), random R and aref.

#include <cmath>
#include <random>
#include <vector>

#include "solvers/constraint_problem.h"
#include "solvers/tree_ldl.h"

namespace pliant::testing {

struct SyntheticProblem {
  int nv = 0;
  std::vector<int> parent, madr, mass_column;
  std::vector<double> mass, factor, inverse_diagonal;
  std::vector<double> qacc_smooth, qfrc_smooth;
  std::vector<int> row_nnz, row_adr, col;
  std::vector<double> J;
  std::vector<RowType> type;
  std::vector<double> R, D, aref, frictionloss;
  std::vector<int> cone_of_row;
  std::vector<ConeGroup> cones;
  ConstraintProblem problem;

  // nv dofs in two chains; `rows` describes the rows to make: one RowType
  // each, with kContactElliptic followed by the cone's dimension.
  SyntheticProblem(int dofs, const std::vector<int>& rows, unsigned seed, bool sparse_rows = false)
      : nv(dofs) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0, 1);
    std::uniform_real_distribution<double> uniform(0, 1);
    // Two chains: dofs [0, nv/2) and [nv/2, nv).
    parent.resize(nv);
    madr.resize(nv);
    int slots = 0;
    for (int i = 0; i < nv; ++i) {
      parent[i] = (i == 0 || i == nv / 2) ? -1 : i - 1;
      madr[i] = slots;
      int depth = 0;
      for (int k = i; k >= 0; k = parent[k]) ++depth;
      slots += depth;
    }
    mass_column = tree_columns(nv, parent.data());
    mass.assign(slots, 0.0);
    for (int i = 0; i < nv; ++i) {
      int slot = madr[i];
      mass[slot++] = 4 + 2 * uniform(rng);  // diagonally dominant
      for (int j = parent[i]; j >= 0; j = parent[j]) mass[slot++] = 0.3 * normal(rng);
    }
    factor = mass;
    inverse_diagonal.resize(nv);
    tree_ldl_factor(tree(), factor.data(), inverse_diagonal.data());
    qfrc_smooth.resize(nv);
    for (double& v : qfrc_smooth) v = 3 * normal(rng);
    qacc_smooth = qfrc_smooth;
    tree_ldl_solve(tree(), factor.data(), inverse_diagonal.data(), qacc_smooth.data());

    auto add_row = [&](RowType t, const std::vector<int>& columns, const std::vector<double>& v) {
      type.push_back(t);
      row_adr.push_back(static_cast<int>(J.size()));
      row_nnz.push_back(static_cast<int>(columns.size()));
      for (size_t k = 0; k < columns.size(); ++k) {
        col.push_back(columns[k]);
        J.push_back(v[k]);
      }
      const double r = 0.05 + uniform(rng);
      R.push_back(r);
      D.push_back(1 / r);
      aref.push_back(4 * normal(rng));
      frictionloss.push_back(t == RowType::kFrictionDof ? 0.5 + uniform(rng) : 0);
      cone_of_row.push_back(-1);
    };
    auto random_columns = [&] {
      std::vector<int> columns;
      for (int k = 0; k < nv; ++k) {
        if (!sparse_rows || uniform(rng) < 0.4) columns.push_back(k);
      }
      if (columns.empty()) columns.push_back(0);
      return columns;
    };
    for (size_t r = 0; r < rows.size(); ++r) {
      const RowType t = static_cast<RowType>(rows[r]);
      const std::vector<int> columns = random_columns();
      if (t == RowType::kContactElliptic) {
        const int dim = rows[++r];
        ConeGroup cone;
        cone.first_row = static_cast<int>(type.size());
        cone.dim = dim;
        for (int j = 0; j < 5; ++j) cone.friction[j] = 0.3 + uniform(rng);
        cone.mu = cone.friction[0] * (0.5 + uniform(rng));
        for (int j = 0; j < dim; ++j) {
          std::vector<double> v(columns.size());
          for (double& x : v) x = normal(rng);
          add_row(t, columns, v);
          cone_of_row.back() = static_cast<int>(cones.size());
        }
        // The cone's friction rows share the normal's R scaled as the
        // assembler does: R_j = R_0 / impratio (f_0 / f_j)^2, impratio
        // = (f_0 / mu)^2.
        const double impratio = std::pow(cone.friction[0] / cone.mu, 2);
        for (int j = 1; j < dim; ++j) {
          const int i = cone.first_row + j;
          R[i] =
              R[cone.first_row] / impratio * std::pow(cone.friction[0] / cone.friction[j - 1], 2);
          D[i] = 1 / R[i];
        }
        cones.push_back(cone);
        continue;
      }
      std::vector<double> v(columns.size());
      for (double& x : v) x = normal(rng);
      add_row(t, columns, v);
    }
    ConstraintProblem& p = problem;
    p.nv = nv;
    p.nefc = static_cast<int>(type.size());
    p.mass_tree = tree();
    p.mass = mass.data();
    p.mass_factor = factor.data();
    p.mass_inverse_diagonal = inverse_diagonal.data();
    p.qacc_smooth = qacc_smooth.data();
    p.qfrc_smooth = qfrc_smooth.data();
    p.row_nnz = row_nnz.data();
    p.row_adr = row_adr.data();
    p.col = col.data();
    p.J = J.data();
    p.type = type.data();
    p.R = R.data();
    p.D = D.data();
    p.aref = aref.data();
    p.frictionloss = frictionloss.data();
    p.cone_of_row = cone_of_row.data();
    p.cones = cones.data();
    p.ncone = static_cast<int>(cones.size());
    double meaninertia = 0;
    for (int i = 0; i < nv; ++i) meaninertia += mass[madr[i]] / nv;
    p.scale = 1 / (meaninertia * nv);
    p.tolerance = 1e-14;
    p.iterations = 1000;
  }

  SyntheticProblem(const SyntheticProblem&) = delete;
  SyntheticProblem& operator=(const SyntheticProblem&) = delete;

  TreeSparsity tree() const {
    return {nv, parent.data(), madr.data(), mass_column.data(),
            static_cast<int>(mass_column.size())};
  }
};

// A mix of every row type.
inline std::vector<int> every_row_type() {
  using T = RowType;
  auto c = [](T t) { return static_cast<int>(t); };
  return {c(T::kEquality),
          c(T::kEquality),
          c(T::kFrictionDof),
          c(T::kFrictionDof),
          c(T::kLimitJoint),
          c(T::kLimitTendon),
          c(T::kContactFrictionless),
          c(T::kContactPyramidal),
          c(T::kContactPyramidal),
          c(T::kContactElliptic),
          3,
          c(T::kContactElliptic),
          4,
          c(T::kContactElliptic),
          6};
}

}  // namespace pliant::testing
