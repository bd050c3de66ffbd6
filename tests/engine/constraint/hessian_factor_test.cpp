// Newton's two sparse Hessian factors, the envelope (reverse Cuthill-McKee
// order) and the tree blocks (minimum-degree order), give the same answer:
// the same iterations on the same problem, apart only by the factors'
// round-off.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/shared/scenes.h"
#include "tests/engine/constraint/test_corpus.h"

namespace pliant {
namespace {

// Layers of 4 x 4 turned boxes, each layer shifted a little.
std::string pile_xml(int count) {
  scenes::BoxStack stack;
  stack.count = count;
  stack.per_row = 4;
  stack.per_layer = 16;
  stack.layer_shift_x = 0.02;
  stack.tilt = 0.1;
  stack.yaw_step = 0.3;
  return scenes::box_stack_xml(stack);
}

double relative_distance(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const double scale = std::max({1.0, a.lpNorm<Eigen::Infinity>(), b.lpNorm<Eigen::Infinity>()});
  return (a - b).lpNorm<Eigen::Infinity>() / scale;
}

double relative_distance(const std::vector<double>& a, const std::vector<double>& b) {
  return relative_distance(Eigen::Map<const Eigen::VectorXd>(a.data(), a.size()),
                           Eigen::Map<const Eigen::VectorXd>(b.data(), b.size()));
}

// Every model of the test corpus with constraints, and a pile of 48 boxes,
// at 4 states along a 400-step trajectory: qacc and forces within 1e-10 of
// their largest magnitude (measured: at most 2e-13 so far).
TEST(HessianFactor, BlocksAndEnvelopeGiveTheSameAnswer) {
  std::vector<std::pair<std::string, Model>> cases = constraint_test_corpus();
  cases.emplace_back("pile of 48", load_model_from_string(pile_xml(48)));
  double worst = 0;
  int compared = 0, block_solves = 0;
  for (auto& [name, base] : cases) {
    Model envelope = base, blocks = base;
    envelope.options.solver = blocks.options.solver = SolverType::kNewton;
    envelope.options.hessian_factor = HessianFactor::kEnvelope;
    blocks.options.hessian_factor = HessianFactor::kBlocks;
    Data d(base);
    for (int s = 1; s <= 400; ++s) {
      for (int u = 0; u < base.nu; ++u) d.ctrl[u] = 0.5 * std::sin(0.05 * s + u);
      step(envelope, d);
      if (s % 100 != 0 || d.efc.count() == 0) continue;
      Data a = d, b = d;
      forward(envelope, a);
      forward(blocks, b);
      ASSERT_EQ(a.efc.count(), b.efc.count()) << name;
      const double qacc = relative_distance(a.qacc, b.qacc);
      const double force = relative_distance(a.efc.force, b.efc.force);
      EXPECT_LE(qacc, 1e-10) << name << " step " << s;
      EXPECT_LE(force, 1e-10) << name << " step " << s;
      EXPECT_EQ(a.solver.iterations, b.solver.iterations) << name << " step " << s;
      worst = std::max({worst, qacc, force});
      ++compared;
      block_solves += b.solver.iterations > 0;
    }
  }
  EXPECT_GE(compared, 40);
  EXPECT_GE(block_solves, 20);
  std::cout << compared << " states compared, worst relative distance " << worst << "\n";
}

// On a pile of many boxes the estimated work picks the blocks by itself.
TEST(HessianFactor, AutomaticChoiceFollowsTheWork) {
  Model m = load_model_from_string(pile_xml(96));
  Data d(m);
  for (int s = 0; s < 300; ++s) step(m, d);
  Model forced = m;
  forced.options.hessian_factor = HessianFactor::kBlocks;
  Data automatic = d, blocks = d;
  forward(m, automatic);
  forward(forced, blocks);
  // Bit-identical: the automatic choice took the same factor.
  EXPECT_EQ(automatic.qacc, blocks.qacc);
}

}  // namespace
}  // namespace pliant
