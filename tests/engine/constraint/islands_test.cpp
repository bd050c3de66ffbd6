// Constraint islands: which trees a problem's rows join, and that solving
// island by island reaches the whole problem's solution.

#include "engine/constraint/islands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/forward.h"
#include "engine/load.h"

namespace pliant {
namespace {

// Four trees: dofs 0-1 (a chain), 2, 3-5 (a chain), 6. Rows join trees 0
// and 2 (through dof 1 and dof 4), one row touches tree 1 alone, and tree 3
// has none.
TEST(Islands, RowsJoinTheTreesTheyTouch) {
  const std::vector<int> parent = {-1, 0, -1, -1, 3, 4, -1};
  const std::vector<int> address = {0, 1, 3, 4, 5, 7, 10};
  std::vector<double> mass(10, 0.0);
  const std::vector<int> row_nnz = {2, 1, 1};
  const std::vector<int> row_adr = {0, 2, 3};
  const std::vector<int> col = {1, 4, 2, 5};
  const std::vector<double> J = {1, -1, 1, 1};
  ConstraintProblem p;
  p.nv = 7;
  p.nefc = 3;
  p.mass_tree = {7, parent.data(), address.data()};
  p.mass = mass.data();
  p.row_nnz = row_nnz.data();
  p.row_adr = row_adr.data();
  p.col = col.data();
  p.J = J.data();
  p.dense_hessian = false;
  IslandScratch s;
  ASSERT_EQ(find_islands(p, s), 2);
  // Islands are numbered by their first row.
  EXPECT_EQ(s.island_of_row, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(s.island_of_dof, (std::vector<int>{0, 0, 1, 0, 0, 0, -1}));
  EXPECT_EQ(s.dof_order, (std::vector<int>{0, 1, 3, 4, 5, 2}));
  EXPECT_EQ(s.row_order, (std::vector<int>{0, 2, 1}));
}

// Solved island by island or whole, Newton and CG reach the same minimum
// (the problem is strictly convex): the same total cost to 1e-12, and the
// same acceleration and forces to 1e-8 (Newton) or 1e-7 (CG) of their
// largest magnitude. The solvers stop on the cost's decrease, and near the
// minimum a change of the cost at round-off (1e-16 of it) moves the
// acceleration by about its square root, so that is as close as two stops
// can agree (measured: Newton 2.3e-9, CG 1.5e-8).
// Scenes: boxes resting apart (one island each) with a limited pendulum, a
// pile whose boxes touch, the dm_control humanoid lying on the floor, and
// the planar manipulator, whose elliptic contacts have a friction row no dof
// can move (it must stay with its cone).
TEST(Islands, SameSolutionAsTheWholeProblem) {
  std::string apart = "<mujoco><worldbody><geom type='plane' size='5 5 .1'/>";
  for (int i = 0; i < 5; ++i) {
    apart += "<body pos='" + std::to_string(0.5 * i) + " 0 0.11'><freejoint/>" +
             "<geom type='box' size='.1 .1 .1'/></body>";
  }
  apart +=
      "<body pos='0 2 1'><joint type='hinge' axis='1 0 0' range='-10 10'/>"
      "<geom type='capsule' fromto='0 0 0 0 0.3 -0.3' size='0.02'/></body>"
      "</worldbody></mujoco>";
  std::string pile = "<mujoco><worldbody><geom type='plane' size='5 5 .1'/>";
  for (int i = 0; i < 12; ++i) {
    pile += "<body pos='" + std::to_string(0.25 * (i % 6)) + " " + std::to_string(0.03 * (i / 6)) +
            " " + std::to_string(0.1 + 0.21 * (i / 6)) + "'><freejoint/>" +
            "<geom type='box' size='.1 .1 .1'/></body>";
  }
  pile += "</worldbody></mujoco>";
  const std::vector<Model> models = {
      load_model_from_string(apart), load_model_from_string(pile),
      load_model(std::string(PLIANT_TEST_MODELS) + "/dm_control/humanoid.xml"),
      load_model(std::string(PLIANT_TEST_MODELS) + "/dm_control/manipulator.xml")};
  for (size_t c = 0; c < models.size(); ++c) {
    const Model& base = models[c];
    for (SolverType solver : {SolverType::kNewton, SolverType::kCg}) {
      Model m = base;
      m.options.solver = solver;
      m.options.tolerance = 1e-14;
      m.options.iterations = 1000;
      Data d(m);
      for (int s = 0; s < 300; ++s) step(m, d);
      ASSERT_GT(d.efc.count(), 0);
      Data islands = d, whole = d;
      forward(m, islands);
      Model monolithic = m;
      monolithic.options.flags.island = false;
      forward(monolithic, whole);
      // One minimum: the same total cost (the cost separates over islands).
      EXPECT_NEAR(islands.solver.cost, whole.solver.cost, 1e-12 * std::abs(whole.solver.cost))
          << "model " << c;
      // Newton stops within round-off of the minimum; CG, whose steps shrink
      // only linearly, within 1.5e-8 of it here (measured on the pile).
      const double tol = solver == SolverType::kNewton ? 1e-8 : 1e-7;
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

}  // namespace
}  // namespace pliant
