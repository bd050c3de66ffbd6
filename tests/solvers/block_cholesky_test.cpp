#include "solvers/block_cholesky.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "solvers/tree_ordering.h"

namespace pliant {
namespace {

// Chains of three dofs (one tree each), and rows coupling two random trees
// over all their dofs: the structure of a pile of bodies in contact.
struct CoupledTrees {
  static constexpr int kTreeDofs = 3;
  int nv = 0, nefc = 0;
  std::vector<int> parent, address, column, row_nnz, row_adr, col;
  std::vector<double> J, D;
  Eigen::MatrixXd base;  // block diagonal, one SPD block per tree (dof order)
  ConstraintProblem p;
  TreeOrdering order;

  CoupledTrees(int trees, int rows, std::mt19937_64& rng) : nv(trees * kTreeDofs), nefc(rows) {
    std::normal_distribution<double> normal(0, 1);
    std::uniform_real_distribution<double> uniform(0, 1);
    int slots = 0;
    for (int k = 0; k < nv; ++k) {
      parent.push_back(k % kTreeDofs == 0 ? -1 : k - 1);
      address.push_back(slots);
      slots += k % kTreeDofs + 1;
    }
    address.push_back(slots);
    base = Eigen::MatrixXd::Zero(nv, nv);
    for (int t = 0; t < trees; ++t) {
      const Eigen::MatrixXd a =
          Eigen::MatrixXd::NullaryExpr(kTreeDofs, kTreeDofs, [&] { return 0.5 * normal(rng); });
      base.block(t * kTreeDofs, t * kTreeDofs, kTreeDofs, kTreeDofs) =
          a * a.transpose() + 3 * Eigen::MatrixXd::Identity(kTreeDofs, kTreeDofs);
    }
    for (int i = 0; i < rows; ++i) {
      const int a = static_cast<int>(rng() % trees);
      int b = static_cast<int>(rng() % (trees - 1));
      b += b >= a ? 1 : 0;
      row_adr.push_back(static_cast<int>(col.size()));
      row_nnz.push_back(2 * kTreeDofs);
      for (int t : {std::min(a, b), std::max(a, b)}) {
        for (int k = 0; k < kTreeDofs; ++k) {
          col.push_back(t * kTreeDofs + k);
          J.push_back(normal(rng));
        }
      }
      D.push_back(0.2 + uniform(rng));
    }
    p.nv = nv;
    p.nefc = nefc;
    column = tree_columns(nv, parent.data());
    p.mass_tree = {nv, parent.data(), address.data(), column.data(),
                   static_cast<int>(column.size())};
    p.row_nnz = row_nnz.data();
    p.row_adr = row_adr.data();
    p.col = col.data();
    p.J = J.data();
    p.D = D.data();
    order.compute(p, TreeOrdering::Method::kMinimumDegree);
  }

  // sqrt(D_i) J_i in the factor's order, and its first non-zero.
  std::vector<double> row_vector(int i, int* first) const {
    std::vector<double> v(nv, 0.0);
    *first = nv;
    for (int k = 0; k < row_nnz[i]; ++k) {
      const int at = order.position(col[row_adr[i] + k]);
      v[at] = std::sqrt(D[i]) * J[row_adr[i] + k];
      *first = std::min(*first, at);
    }
    return v;
  }

  // base + sum of D_i J_i J_i^T over the active rows, in the factor's order.
  Eigen::MatrixXd hessian(const std::vector<bool>& active) const {
    Eigen::MatrixXd h = Eigen::MatrixXd::Zero(nv, nv);
    for (int i = 0; i < nv; ++i) {
      for (int j = 0; j < nv; ++j) h(order.position(i), order.position(j)) = base(i, j);
    }
    for (int i = 0; i < nefc; ++i) {
      if (!active[i]) continue;
      int first;
      const std::vector<double> row = row_vector(i, &first);
      const Eigen::Map<const Eigen::VectorXd> v(row.data(), nv);
      h += v * v.transpose();
    }
    return h;
  }

  // A factor analysed for every row, holding `h` (factor order).
  void load(const Eigen::MatrixXd& h, BlockCholesky& factor) const {
    factor.analyse(p, order);
    factor.clear_values();
    for (int i = 0; i < nv; ++i) {
      for (int j = 0; j <= i; ++j) {
        if (h(i, j) != 0) factor.at(i, j) = h(i, j);
      }
    }
  }
};

Eigen::VectorXd solve(const BlockCholesky& factor, const Eigen::VectorXd& b) {
  Eigen::VectorXd x = b;
  factor.solve(x.data());
  return x;
}

TEST(BlockCholesky, SolvesLikeADenseFactorisation) {
  std::mt19937_64 rng(3);
  for (int trees : {2, 9, 40}) {
    const CoupledTrees c(trees, 2 * trees, rng);
    const Eigen::MatrixXd h = c.hessian(std::vector<bool>(c.nefc, true));
    BlockCholesky factor;
    c.load(h, factor);
    ASSERT_TRUE(factor.factor());
    const Eigen::VectorXd b = Eigen::VectorXd::Random(c.nv);
    EXPECT_LT((h * solve(factor, b) - b).norm(), 1e-12 * b.norm()) << trees << " trees";
  }
}

// A loop that runs its tasks last first, on the calling thread, each as a
// different worker: the parallel factor's answer may depend neither on the
// order its subtrees finish in nor on the thread count.
class ReversedLoop final : public ParallelLoop {
 public:
  explicit ReversedLoop(int threads) : threads_(threads) {}
  int threads() const override { return threads_; }
  void run(int count, Call call, void* context) override {
    for (int i = count - 1; i >= 0; --i) call(context, i, i % threads_);
  }

 private:
  int threads_;
};

// A factor on several threads holds one thread's entries to the bit, and
// its solve on the loop gives one thread's x to the bit.
void expect_same_bits(const CoupledTrees& c, const Eigen::MatrixXd& h, BlockCholesky& one,
                      BlockCholesky& many, ParallelLoop& loop) {
  const int threads = loop.threads();
  for (int i = 0; i < c.nv; ++i) {
    for (int j = 0; j <= i; ++j) {
      if (h(i, j) == 0) continue;
      ASSERT_EQ(many.at(i, j), one.at(i, j)) << threads << ": " << i << ", " << j;
    }
  }
  const Eigen::VectorXd b = Eigen::VectorXd::Random(c.nv);
  const Eigen::VectorXd x_one = solve(one, b);
  Eigen::VectorXd x = b;
  many.solve(x.data(), &loop);
  EXPECT_EQ(std::memcmp(x.data(), x_one.data(), sizeof(double) * c.nv), 0) << threads;
}

TEST(BlockCholesky, FactorsAndSolvesTheSameOnAnyThreadCount) {
  std::mt19937_64 rng(7);
  const CoupledTrees c(80, 200, rng);
  const Eigen::MatrixXd h = c.hessian(std::vector<bool>(c.nefc, true));
  const Eigen::VectorXd b = Eigen::VectorXd::Random(c.nv);
  BlockCholesky one;
  c.load(h, one);
  ASSERT_TRUE(one.factor());
  const Eigen::VectorXd x_one = solve(one, b);
  EXPECT_LT((h * x_one - b).norm(), 1e-12 * b.norm());
  for (int threads : {2, 3, 5}) {
    ReversedLoop loop(threads);
    BlockCholesky many;
    c.load(h, many);
    ASSERT_TRUE(many.factor(&loop));
    EXPECT_GT(many.side_by_side_blocks(), c.nv / CoupledTrees::kTreeDofs / 2) << threads;
    expect_same_bits(c, h, one, many, loop);
  }
}

// A larger scene: the blocks above the subtrees share their updates of
// the later ones among the threads, and the factor stays the same to the bit.
TEST(BlockCholesky, TopBlocksShareTheirUpdatesBitIdentically) {
  std::mt19937_64 rng(11);
  const CoupledTrees c(200, 800, rng);
  const Eigen::MatrixXd h = c.hessian(std::vector<bool>(c.nefc, true));
  BlockCholesky one;
  c.load(h, one);
  ASSERT_TRUE(one.factor());
  for (int threads : {2, 3}) {
    ReversedLoop loop(threads);
    BlockCholesky many;
    c.load(h, many);
    ASSERT_TRUE(many.factor(&loop));
    EXPECT_GT(many.shared_top_rounds(), 0) << threads;
    expect_same_bits(c, h, one, many, loop);
  }
}

// Rows entering (updates) and leaving (downdates) give the factor of the
// new matrix: its solves match a fresh factorisation's, and v is returned
// zero.
TEST(BlockCholesky, RankOneUpdatesMatchAFreshFactorisation) {
  std::mt19937_64 rng(4);
  const CoupledTrees c(30, 70, rng);
  std::vector<bool> active(c.nefc, false);
  for (int i = 0; i < c.nefc; i += 2) active[i] = true;
  BlockCholesky factor;
  c.load(c.hessian(active), factor);
  ASSERT_TRUE(factor.factor());
  for (int step = 0; step < 40; ++step) {
    const int row = static_cast<int>(rng() % c.nefc);
    const bool downdate = active[row];
    active[row] = !active[row];
    int first;
    std::vector<double> v = c.row_vector(row, &first);
    ASSERT_TRUE(factor.rank_one(v.data(), downdate, step % 2 == 0 ? first : 0)) << step;
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double x) { return x == 0; })) << step;

    const Eigen::MatrixXd h = c.hessian(active);
    BlockCholesky fresh;
    c.load(h, fresh);
    ASSERT_TRUE(fresh.factor());
    const Eigen::VectorXd b = Eigen::VectorXd::Random(c.nv);
    const Eigen::VectorXd x = solve(factor, b), expected = solve(fresh, b);
    EXPECT_LT((x - expected).norm(), 1e-11 * expected.norm()) << "step " << step;
    EXPECT_LT((h * x - b).norm(), 1e-11 * b.norm()) << "step " << step;
  }
}

// Row `row`'s vector, times `scale`, as the next update of `batch`.
void add_update(const CoupledTrees& c, int row, double scale, bool downdate,
                BlockCholesky::UpdateBatch& batch) {
  int first;
  const std::vector<double> v = c.row_vector(row, &first);
  for (int i = 0; i < c.nv; ++i) {
    if (v[i] == 0) continue;
    batch.index.push_back(i);
    batch.value.push_back(scale * v[i]);
  }
  batch.start.push_back(static_cast<int>(batch.index.size()));
  batch.downdate.push_back(downdate);
}

// A batch of updates and downdates run as a pipeline (any number of
// stages, taken by any number of threads side by side) leaves the factor
// of rank_one() one by one, to the bit, and the same solves.
TEST(BlockCholesky, PipelinedUpdatesMatchOneByOneToTheBit) {
  std::mt19937_64 rng(13);
  const CoupledTrees c(200, 800, rng);
  std::vector<bool> active(c.nefc, false);
  for (int i = 0; i < c.nefc; i += 3) active[i] = true;
  const Eigen::MatrixXd h = c.hessian(active);
  // Rows changing state: entering first, then leaving (a downdate of a row
  // added in the same batch stays positive definite).
  BlockCholesky::UpdateBatch batch;
  std::vector<std::pair<int, bool>> changes;
  std::vector<bool> changing(c.nefc, false);
  for (int t = 0; t < 150; ++t) {
    const int row = static_cast<int>(rng() % c.nefc);
    if (!active[row] && !changing[row]) changes.push_back({row, false});
    changing[row] = true;
  }
  for (int t = 0; t < 60; ++t) {
    const int row = 3 * static_cast<int>(rng() % (c.nefc / 3));
    if (!changing[row]) changes.push_back({row, true});
    changing[row] = true;
  }
  for (const auto& [row, downdate] : changes) add_update(c, row, 1, downdate, batch);
  // The same rows back (updates become downdates): a second batch on the
  // same factor finds its stages ready again.
  BlockCholesky::UpdateBatch back = batch;
  for (unsigned char& downdate : back.downdate) downdate = !downdate;
  BlockCholesky one, one_back;
  c.load(h, one);
  ASSERT_TRUE(one.factor());
  for (const auto& [row, downdate] : changes) {
    int first;
    std::vector<double> v = c.row_vector(row, &first);
    ASSERT_TRUE(one.rank_one(v.data(), downdate, first));
  }
  one_back = one;
  for (const auto& [row, downdate] : changes) {
    int first;
    std::vector<double> v = c.row_vector(row, &first);
    ASSERT_TRUE(one_back.rank_one(v.data(), !downdate, first));
  }
  for (const int stages : {1, 2, 3, 7}) {
    for (const int threads : {1, 2, 3}) {
      BlockCholesky many;
      c.load(h, many);
      ASSERT_TRUE(many.factor());
      for (const auto& [updates, expected] :
           {std::pair{&batch, &one}, std::pair{&back, &one_back}}) {
        many.begin_updates(*updates, stages);
        std::vector<std::thread> others;
        for (int t = 1; t < threads; ++t) others.emplace_back([&many] { many.take_updates(); });
        many.take_updates();
        for (std::thread& other : others) other.join();
        ASSERT_TRUE(many.updates_ok()) << stages << " stages, " << threads << " threads";
        for (int i = 0; i < c.nv; ++i) {
          for (int j = 0; j <= i; ++j) {
            if (h(i, j) == 0) continue;
            ASSERT_EQ(many.at(i, j), expected->at(i, j))
                << stages << " stages, " << threads << " threads";
          }
        }
      }
    }
  }
}

// A pipelined downdate losing rank reports it, whatever stage meets it.
TEST(BlockCholesky, PipelinedDowndateReportsRankLoss) {
  std::mt19937_64 rng(5);
  const CoupledTrees c(40, 80, rng);
  BlockCholesky factor;
  c.load(c.hessian(std::vector<bool>(c.nefc, false)), factor);
  ASSERT_TRUE(factor.factor());
  BlockCholesky::UpdateBatch batch;
  for (int row : {3, 0, 5}) add_update(c, row, row == 0 ? 100 : 1, row == 0, batch);
  factor.begin_updates(batch, 3);
  std::thread other([&factor] { factor.take_updates(); });
  factor.take_updates();
  other.join();
  EXPECT_FALSE(factor.updates_ok());
}

// A downdate removing more than the matrix holds reports rank loss and
// still returns v zero (the caller refactorises).
TEST(BlockCholesky, DowndateReportsRankLossAndClearsTheVector) {
  std::mt19937_64 rng(5);
  const CoupledTrees c(12, 20, rng);
  BlockCholesky factor;
  c.load(c.hessian(std::vector<bool>(c.nefc, false)), factor);
  ASSERT_TRUE(factor.factor());
  int first;
  std::vector<double> v = c.row_vector(0, &first);
  for (double& x : v) x *= 100;
  EXPECT_FALSE(factor.rank_one(v.data(), true, first));
  EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](double x) { return x == 0; }));
}

}  // namespace
}  // namespace pliant
