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
  // Each tree: root right before its child (ancestors first, contiguous),
  // and both rows reaching back to the root.
  for (int tree = 0; tree < 5; ++tree) {
    EXPECT_EQ(ordering.position(2 * tree + 1), ordering.position(2 * tree) + 1) << tree;
    EXPECT_EQ(ordering.envelope_start(2 * tree + 1), ordering.position(2 * tree)) << tree;
    EXPECT_EQ(ordering.envelope_start(2 * tree), ordering.position(2 * tree)) << tree;
  }
}

// Two trees: a chain of 3 dofs (0-1-2) and a branching tree of 8, a trunk
// (3, 4) with three limbs (5-6, 7-8, 9-10), as a humanoid's root and limbs.
TEST(TreeOrdering, LaysBranchingTreesOutLeavesFirst) {
  std::vector<int> parent = {-1, 0, 1, -1, 3, 4, 5, 4, 7, 4, 9};
  ConstraintProblem problem;
  problem.nv = 11;
  problem.mass_tree.n = 11;
  problem.mass_tree.parent = parent.data();
  TreeOrdering ordering;
  ordering.compute(problem);
  // The chain keeps its order; every row reaches back to its root.
  for (int dof = 1; dof < 3; ++dof) {
    EXPECT_EQ(ordering.position(dof), ordering.position(dof - 1) + 1);
    EXPECT_EQ(ordering.envelope_start(dof), ordering.position(0));
  }
  // The branching tree is reversed: each dof after its whole subtree, its
  // row reaching back over that subtree only.
  const int subtree[11] = {0, 0, 0, 8, 7, 2, 1, 2, 1, 2, 1};
  for (int dof = 3; dof < 11; ++dof) {
    if (dof > 3) {
      EXPECT_EQ(ordering.position(dof), ordering.position(dof - 1) - 1) << dof;
    }
    EXPECT_EQ(ordering.envelope_start(dof), ordering.position(dof) - subtree[dof] + 1) << dof;
  }
  // M's envelope entries leaves first: the sum of the subtrees (8 + 7 + ...
  // = 24 of the triangle's 36); a chain has none to gain.
  EXPECT_EQ(ordering.leaves_first_entries(parent.data(), 3, 8), 24);
  EXPECT_EQ(ordering.leaves_first_entries(parent.data(), 0, 3), 0);
}

// An ordering keeps its order while the problem's trees and rows repeat,
// and orders again when they change (or after compute_like): each order
// equals a fresh ordering's.
TEST(TreeOrdering, KeptOnlyWhileTheProblemRepeats) {
  PathProblem path;
  std::vector<unsigned char> joins(4, 0);
  path.problem.joins_previous = joins.data();
  path.problem.dense_hessian = false;  // the sparse layout, where orders are kept
  const auto positions = [](const TreeOrdering& o) {
    std::vector<int> out;
    for (int dof = 0; dof < 10; ++dof) out.push_back(o.position(dof));
    return out;
  };
  const auto fresh = [&] {
    TreeOrdering o;
    o.compute(path.problem);
    return positions(o);
  };
  TreeOrdering kept;
  kept.compute(path.problem);
  const std::vector<int> first = positions(kept);
  kept.compute(path.problem);
  EXPECT_EQ(positions(kept), first);
  // Couple trees 0-1, 1-2, 2-3, 3-4 instead: a different order.
  const int pairs[4][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}};
  for (int r = 0; r < 4; ++r) {
    const int a = pairs[r][0], b = pairs[r][1];
    int* cols = path.col.data() + path.row_adr[r];
    cols[0] = 2 * a, cols[1] = 2 * a + 1, cols[2] = 2 * b, cols[3] = 2 * b + 1;
  }
  kept.compute(path.problem);
  EXPECT_EQ(positions(kept), fresh());
  EXPECT_NE(positions(kept), first);
  // Ordered like another ordering, then asked for this problem again.
  PathProblem other;
  TreeOrdering from;
  from.compute(other.problem);
  kept.compute_like(from, TreeOrdering::Method::kReverseCuthillMcKee);
  EXPECT_EQ(positions(kept), positions(from));
  kept.compute(path.problem);
  EXPECT_EQ(positions(kept), fresh());
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
