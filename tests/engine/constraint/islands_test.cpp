// Constraint islands: which trees a problem's rows join, and that solving
// island by island reaches the whole problem's solution.

#include "engine/constraint/islands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/shared/scenes.h"
#include "tests/engine/constraint/test_corpus.h"

namespace pliant {
namespace {

// Four trees: dofs 0-1 (a chain), 2, 3-5 (a chain), 6. Rows join trees 0
// and 2 (through dof 1 and dof 4), one row touches tree 1 alone, and tree 3
// has none. Sparse rows, none joining the row before.
struct FourTrees {
  std::vector<int> parent = {-1, 0, -1, -1, 3, 4, -1};
  std::vector<int> address = {0, 1, 3, 4, 5, 7, 10};
  std::vector<double> mass = std::vector<double>(10, 0.0);
  std::vector<int> row_nnz = {2, 1, 1};
  std::vector<int> row_adr = {0, 2, 3};
  std::vector<unsigned char> joins = {0, 0, 0};
  std::vector<int> col = {1, 4, 2, 5};
  std::vector<double> J = {1, -1, 1, 1};
  std::vector<int> column = tree_columns(7, parent.data());
  ConstraintProblem p;

  FourTrees() {
    p.nv = 7;
    p.nefc = 3;
    p.mass_tree = {7, parent.data(), address.data(), column.data(),
                   static_cast<int>(column.size())};
    p.mass = mass.data();
    p.row_nnz = row_nnz.data();
    p.row_adr = row_adr.data();
    p.col = col.data();
    p.J = J.data();
    p.dense_hessian = false;
  }
};

TEST(Islands, RowsJoinTheTreesTheyTouch) {
  FourTrees trees;
  IslandScratch s;
  ASSERT_EQ(find_islands(trees.p, s), 2);
  // Islands are numbered by their first row.
  EXPECT_EQ(s.island_of_row, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(s.island_of_dof, (std::vector<int>{0, 0, 1, 0, 0, 0, -1}));
  EXPECT_EQ(s.dof_order, (std::vector<int>{0, 1, 3, 4, 5, 2}));
  EXPECT_EQ(s.row_order, (std::vector<int>{0, 2, 1}));
}

// A scratch keeps its islands while the rows repeat the last call's, and
// finds them again when any column changes with the rows' sizes unchanged:
// each call gives what a fresh scratch finds.
TEST(Islands, KeptOnlyWhileTheRowsRepeat) {
  FourTrees trees;
  trees.p.joins_previous = trees.joins.data();  // the sparse layout's joins: islands are kept
  const ConstraintProblem& p = trees.p;
  std::vector<int>& col = trees.col;
  IslandScratch kept;
  const auto expect_fresh = [&](int expected_count) {
    IslandScratch fresh;
    ASSERT_EQ(find_islands(p, fresh), expected_count);
    ASSERT_EQ(find_islands(p, kept), expected_count);
    EXPECT_EQ(kept.island_of_row, fresh.island_of_row);
    EXPECT_EQ(kept.island_of_dof, fresh.island_of_dof);
    EXPECT_EQ(kept.dof_order, fresh.dof_order);
    EXPECT_EQ(kept.row_order, fresh.row_order);
    EXPECT_EQ(kept.dof_start, fresh.dof_start);
    EXPECT_EQ(kept.row_start, fresh.row_start);
  };
  expect_fresh(2);
  expect_fresh(2);  // repeated: kept
  // Row 0 now joins trees 0 and 1 (dof 2 for dof 4): one island with row
  // 1, another with row 2; tree 3 still has none.
  col[1] = 2;
  expect_fresh(2);
  EXPECT_EQ(kept.island_of_row, (std::vector<int>{0, 0, 1}));
  // Row 2 joins the last tree too (dof 6 for dof 5): still two islands,
  // now of other dofs.
  col[3] = 6;
  expect_fresh(2);
  EXPECT_EQ(kept.island_of_dof, (std::vector<int>{0, 0, 0, -1, -1, -1, 1}));
  col = {1, 4, 2, 5};
  expect_fresh(2);
}

// Solved island by island or whole, Newton and CG reach the same minimum
// (the problem is strictly convex): the same total cost to 1e-12, and the
// same acceleration and forces to 1e-10 of their largest magnitude. With
// the default stop (a decrease of the cost below the tolerance) two solves
// agree only to about the square root of round-off (1e-8), since near the
// minimum the cost no longer resolves the acceleration; so here each solve
// runs until its line search can go no further (a negative tolerance never
// stops it earlier), which reaches the minimum to round-off (measured:
// 1.4e-15 at worst, CG on the pile; 9.2e-16 Newton).
// Scenes: boxes resting apart (one island each) with a limited pendulum, a
// pile whose boxes touch, boxes apart of unequal masses, the dm_control humanoid lying on the
// floor, the planar manipulator, whose elliptic contacts have a friction row no dof can move (it
// must stay with its cone), and the sample incline scene (two bodies resting on a slope).
TEST(Islands, SameSolutionAsTheWholeProblem) {
  scenes::BoxStack row;
  row.count = row.per_row = row.per_layer = 5;
  row.pitch_x = 0.5;
  row.bottom = 0.11;
  row.extra_bodies =
      "<body pos='0 2 1'><joint type='hinge' axis='1 0 0' range='-10 10'/>"
      "<geom type='capsule' fromto='0 0 0 0 0.3 -0.3' size='0.02'/></body>";
  const std::string apart = scenes::box_stack_xml(row);
  const std::string pile = scenes::box_stack_xml(scenes::two_layers_of_six());
  // Boxes apart whose masses and inertias all differ, with a hinged body
  // between them: each box's island is a contiguous range of dofs and rows
  // (solved in place, without a copy), at its own offset.
  const std::string unequal =
      "<mujoco><worldbody><geom type='plane' size='5 5 0.1'/>"
      "<body pos='0 0 0.1'><freejoint/><geom type='box' size='0.1 0.1 0.1' density='500'/></body>"
      "<body pos='0 2 1'><joint type='hinge' axis='1 0 0'/>"
      "<geom type='capsule' fromto='0 0 0 0 0.3 0' size='0.02'/></body>"
      "<body pos='1 0 0.15'><freejoint/>"
      "<geom type='box' size='0.2 0.1 0.15' density='2000'/></body>"
      "<body pos='-1.5 0 0.05' euler='0 0 30'><freejoint/>"
      "<geom type='box' size='0.3 0.2 0.05' density='800'/></body>"
      "</worldbody></mujoco>";
  const std::vector<Model> models = {
      load_model_from_string(apart),
      load_model_from_string(pile),
      load_model_from_string(unequal),
      load_model(std::string(PLIANT_TEST_MODELS) + "/dm_control/humanoid.xml"),
      load_model(std::string(PLIANT_TEST_MODELS) + "/dm_control/manipulator.xml"),
      load_model(std::string(PLIANT_SCENES) + "/incline.xml")};
  for (size_t c = 0; c < models.size(); ++c) {
    const Model& base = models[c];
    for (SolverType solver : {SolverType::kNewton, SolverType::kCg}) {
      Model m = base;
      m.options.solver = solver;
      Data d(m);
      for (int s = 0; s < 300; ++s) step(m, d);
      ASSERT_GT(d.efc.count(), 0) << "model " << c;
      m.options.tolerance = -1;
      m.options.iterations = 1000;
      Data islands = d, whole = d;
      forward(m, islands);
      Model monolithic = m;
      monolithic.options.flags.island = false;
      forward(monolithic, whole);
      // One minimum: the same total cost (the cost separates over islands).
      EXPECT_NEAR(islands.solver.cost, whole.solver.cost, 1e-12 * std::abs(whole.solver.cost))
          << "model " << c;
      const double tol = 1e-10;
      double scale = 1;
      for (int k = 0; k < m.nv; ++k) scale = std::max(scale, std::abs(whole.qacc[k]));
      for (int k = 0; k < m.nv; ++k) {
        EXPECT_NEAR(islands.qacc[k], whole.qacc[k], tol * scale) << "model " << c << " dof " << k;
      }
      double force_scale = 1;
      for (double f : whole.efc.force) force_scale = std::max(force_scale, std::abs(f));
      ASSERT_EQ(islands.efc.count(), whole.efc.count());
      for (int i = 0; i < whole.efc.count(); ++i) {
        EXPECT_NEAR(islands.efc.force[i], whole.efc.force[i], tol * force_scale)
            << "model " << c << " row " << i;
      }
    }
  }
}

// The same comparison over the test corpus (every dm_control model and the
// two Menagerie scenes) at 4 states along a 400-step trajectory with
// changing controls: qacc and forces of the islands within 1e-10 of the
// whole problem's, each solve run to its line search's end.
TEST(Islands, SameSolutionOnTheCorpus) {
  std::vector<std::pair<std::string, Model>> cases = constraint_test_corpus();
  int compared = 0;
  for (auto& [name, base] : cases) {
    for (SolverType solver : {SolverType::kNewton, SolverType::kCg}) {
      Model m = base;
      m.options.solver = solver;
      Model precise = m;
      precise.options.tolerance = -1;
      precise.options.iterations = 1000;
      Model whole = precise;
      whole.options.flags.island = false;
      Data d(m);
      for (int s = 1; s <= 400; ++s) {
        for (int u = 0; u < m.nu; ++u) d.ctrl[u] = 0.5 * std::sin(0.05 * s + u);
        step(m, d);
        if (s % 100 != 0 || d.efc.count() == 0) continue;
        Data a = d, b = d;
        forward(precise, a);
        forward(whole, b);
        ASSERT_EQ(a.efc.count(), b.efc.count()) << name;
        const auto distance = [](const auto& x, const auto& y) {
          double scale = 1, worst = 0;
          for (size_t k = 0; k < static_cast<size_t>(x.size()); ++k) {
            scale = std::max({scale, std::abs(x[k]), std::abs(y[k])});
            worst = std::max(worst, std::abs(x[k] - y[k]));
          }
          return worst / scale;
        };
        EXPECT_LE(distance(a.qacc, b.qacc), 1e-10)
            << name << " solver " << int(solver) << " step " << s;
        EXPECT_LE(distance(a.efc.force, b.efc.force), 1e-10)
            << name << " solver " << int(solver) << " step " << s;
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 80);
}

}  // namespace
}  // namespace pliant
