#include "solvers/tree_ordering.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace pliant {
namespace {

// Five trees of two dofs each (a root and its child), in dof order
// 0-1, 2-3, ..., 8-9, coupled by one row per pair along the path
// 0 - 4 - 2 - 1 - 3 (tree indices): file order is far from the coupling.
struct PathProblem {
  std::vector<int> parent = {-1, 0, -1, 2, -1, 4, -1, 6, -1, 8};
  std::vector<int> row_nnz, row_adr, col;
  std::vector<double> jac;
  ConstraintProblem problem;

  PathProblem() {
    const int pairs[4][2] = {{0, 4}, {4, 2}, {2, 1}, {1, 3}};
    for (const auto& pair : pairs) {
      row_adr.push_back(static_cast<int>(col.size()));
      row_nnz.push_back(4);
      const int a = std::min(pair[0], pair[1]), b = std::max(pair[0], pair[1]);
      for (int dof : {2 * a, 2 * a + 1, 2 * b, 2 * b + 1}) {
        col.push_back(dof);
        jac.push_back(1.0);
      }
    }
    problem.nv = 10;
    problem.nefc = 4;
    problem.mass_tree.n = 10;
    problem.mass_tree.parent = parent.data();
    problem.row_nnz = row_nnz.data();
    problem.row_adr = row_adr.data();
    problem.col = col.data();
    problem.J = jac.data();
  }
};

TEST(TreeOrdering, IsAPermutationKeepingTreesWholeAndInOrder) {
  PathProblem path;
  TreeOrdering ordering;
  ordering.compute(path.problem);
  std::vector<int> seen(10, 0);
  for (int dof = 0; dof < 10; ++dof) ++seen[ordering.position(dof)];
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  // Each tree: root right before its child (ancestors first, contiguous).
  for (int tree = 0; tree < 5; ++tree) {
    EXPECT_EQ(ordering.position(2 * tree + 1), ordering.position(2 * tree) + 1) << tree;
    EXPECT_EQ(ordering.root_position(2 * tree + 1), ordering.position(2 * tree)) << tree;
    EXPECT_EQ(ordering.root_position(2 * tree), ordering.position(2 * tree)) << tree;
  }
}

TEST(TreeOrdering, CoupledTreesAreNeighbours) {
  PathProblem path;
  TreeOrdering ordering;
  ordering.compute(path.problem);
  // A path graph has a bandwidth-1 order, which Cuthill-McKee finds from an
  // end of the path: every coupled pair of trees is adjacent.
  auto slot = [&](int tree) { return ordering.position(2 * tree) / 2; };
  const int pairs[4][2] = {{0, 4}, {4, 2}, {2, 1}, {1, 3}};
  for (const auto& pair : pairs) {
    EXPECT_EQ(std::abs(slot(pair[0]) - slot(pair[1])), 1) << pair[0] << "-" << pair[1];
  }
}

TEST(TreeOrdering, MovesVectorsBothWays) {
  PathProblem path;
  TreeOrdering ordering;
  ordering.compute(path.problem);
  std::vector<double> x(10), factor(10), back(10);
  for (int k = 0; k < 10; ++k) x[k] = k + 0.5;
  ordering.to_factor(x.data(), factor.data());
  for (int k = 0; k < 10; ++k) EXPECT_EQ(factor[ordering.position(k)], x[k]);
  ordering.from_factor(factor.data(), back.data());
  EXPECT_EQ(back, x);
}

}  // namespace
}  // namespace pliant
