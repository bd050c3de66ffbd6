#include "solvers/tree_ldl.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

namespace pliant {
namespace {

// A random SPD matrix with the sparsity of a random tree, in row-ancestor
// storage, and its dense twin.
struct TreeMatrix {
  std::vector<int> parent, address;
  std::vector<double> values;
  Eigen::MatrixXd dense;
};

TreeMatrix random_tree_matrix(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(-1, 1);
  TreeMatrix t;
  for (int i = 0; i < n; ++i) {
    t.parent.push_back(i == 0 || rng() % 5 == 0 ? -1 : static_cast<int>(rng() % i));
  }
  // B has the tree pattern; B^T B would fill in, so use M = L^T D L with a
  // random unit L on the ancestor pattern: exactly the pattern M has.
  Eigen::MatrixXd l = Eigen::MatrixXd::Identity(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = t.parent[i]; j >= 0; j = t.parent[j]) l(i, j) = uniform(rng);
  }
  Eigen::VectorXd d(n);
  for (int i = 0; i < n; ++i) d[i] = 1.5 + uniform(rng);
  t.dense = l.transpose() * d.asDiagonal() * l;
  for (int i = 0; i < n; ++i) {
    t.address.push_back(static_cast<int>(t.values.size()));
    for (int j = i; j >= 0; j = t.parent[j]) t.values.push_back(t.dense(i, j));
  }
  return t;
}

TEST(TreeLdl, SolveMatchesDenseSolve) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    TreeMatrix t = random_tree_matrix(40, seed);
    const std::vector<int> column = tree_columns(40, t.parent.data());
    const TreeSparsity tree{40, t.parent.data(), t.address.data(), column.data(),
                            static_cast<int>(column.size())};
    // Entries outside the ancestor pattern are zero: the layout is exact.
    for (int i = 0; i < 40; ++i) {
      for (int j = 0; j < i; ++j) {
        bool ancestor = false;
        for (int k = t.parent[i]; k >= 0; k = t.parent[k]) ancestor = ancestor || k == j;
        if (!ancestor) {
          EXPECT_NEAR(t.dense(i, j), 0.0, 1e-12);
        }
      }
    }
    Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(40, -1, 2);
    Eigen::VectorXd y(40);
    tree_multiply(tree, t.values.data(), b.data(), y.data());
    EXPECT_LT((y - t.dense * b).norm(), 1e-12);
    std::vector<double> factor = t.values, inverse_diagonal(40);
    tree_ldl_factor(tree, factor.data(), inverse_diagonal.data());
    Eigen::VectorXd x = b;
    tree_ldl_solve(tree, factor.data(), inverse_diagonal.data(), x.data());
    const Eigen::VectorXd expected = t.dense.ldlt().solve(b);
    EXPECT_LT((x - expected).norm(), 1e-10 * expected.norm()) << "seed " << seed;
  }
}

TEST(TreeLdl, ColumnsListEachRowThenItsAncestors) {
  // Two trees: 0 <- 1 <- 2 and 0 <- 3; 4 alone.
  const std::vector<int> parent = {-1, 0, 1, 0, -1};
  EXPECT_EQ(tree_columns(5, parent.data()), (std::vector<int>{0, 1, 0, 2, 1, 0, 3, 0, 4}));
}

TEST(TreeLdl, ChainAndForestAreSpecialCases) {
  // A single chain is a dense matrix; independent roots are diagonal blocks.
  for (bool chain : {true, false}) {
    const int n = 6;
    std::vector<int> parent(n), address(n);
    std::vector<double> values;
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      parent[i] = chain ? i - 1 : -1;
      address[i] = static_cast<int>(values.size());
      for (int j = i; j >= 0; j = parent[j]) {
        const double v = (i == j) ? 10.0 + i : 1.0 / (1 + i + j);
        values.push_back(v);
        dense(i, j) = dense(j, i) = v;
      }
    }
    const std::vector<int> column = tree_columns(n, parent.data());
    const TreeSparsity tree{n, parent.data(), address.data(), column.data(),
                            static_cast<int>(column.size())};
    std::vector<double> inverse_diagonal(n);
    tree_ldl_factor(tree, values.data(), inverse_diagonal.data());
    Eigen::VectorXd x = Eigen::VectorXd::Ones(n);
    tree_ldl_solve(tree, values.data(), inverse_diagonal.data(), x.data());
    EXPECT_LT((dense * x - Eigen::VectorXd::Ones(n)).norm(), 1e-13);
  }
}

// Rows flagged simple (MuJoCo's simple dofs) count their entries off the
// diagonal as zero: a forest of a general tree and a root chain of three
// flagged dofs with round-off coupling behaves as the matrix whose flagged
// block is its diagonal, in the product, the factor and the solve, and the
// factor's flagged slots off the diagonal are zero.
TEST(TreeLdl, SimpleRowsLeaveTheirOffDiagonalOut) {
  TreeMatrix t = random_tree_matrix(12, 7);
  const int first = 12;  // three flagged dofs 12 <- 13 <- 14, a root chain
  const std::vector<double> diagonal = {2.0, 3.0, 0.5};
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(15, 15);
  dense.topLeftCorner(12, 12) = t.dense;
  for (int k = 0; k < 3; ++k) {
    const int i = first + k;
    t.parent.push_back(k == 0 ? -1 : i - 1);
    t.address.push_back(static_cast<int>(t.values.size()));
    t.values.push_back(diagonal[k]);
    dense(i, i) = diagonal[k];
    for (int j = 0; j < k; ++j) t.values.push_back(1e-3 * (j + 1));  // left out
  }
  std::vector<int> simple(15, 0);
  simple[12] = 3;
  simple[13] = 2;
  simple[14] = 1;
  const std::vector<int> column = tree_columns(15, t.parent.data());
  const TreeSparsity tree{15,
                          t.parent.data(),
                          t.address.data(),
                          column.data(),
                          static_cast<int>(column.size()),
                          simple.data()};
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(15, -1, 2);
  Eigen::VectorXd y(15);
  tree_multiply(tree, t.values.data(), b.data(), y.data());
  EXPECT_LT((y - dense * b).norm(), 1e-12);
  std::vector<double> factor = t.values, inverse_diagonal(15);
  tree_ldl_factor(tree, factor.data(), inverse_diagonal.data());
  for (int i = first; i < 15; ++i) {
    for (int slot = t.address[i] + 1; slot < tree.row_end(i); ++slot) EXPECT_EQ(factor[slot], 0);
  }
  Eigen::VectorXd x = b;
  tree_ldl_solve(tree, factor.data(), inverse_diagonal.data(), x.data());
  EXPECT_LT((dense * x - b).norm(), 1e-10 * b.norm());
  // Without the flags the coupling counts, and the solution moves.
  TreeSparsity general = tree;
  general.simple = nullptr;
  std::vector<double> general_factor = t.values;
  tree_ldl_factor(general, general_factor.data(), inverse_diagonal.data());
  Eigen::VectorXd z = b;
  tree_ldl_solve(general, general_factor.data(), inverse_diagonal.data(), z.data());
  EXPECT_GT((z - x).norm(), 1e-6);
}

}  // namespace
}  // namespace pliant
