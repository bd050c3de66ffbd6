// RowPattern: which changes to a problem's structure it sees.

#include "solvers/row_pattern.h"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

namespace pliant {
namespace {

// Two trees (dofs 0-1 and 2), two rows joined (one contact's) over dofs 1
// and 2, and a third row over dof 0 alone.
struct SmallProblem {
  std::vector<int> parent = {-1, 0, -1};
  std::vector<int> row_nnz = {2, 2, 1};
  std::vector<int> row_adr = {0, 2, 4};
  std::vector<int> col = {1, 2, 1, 2, 0};
  std::vector<unsigned char> joins = {0, 1, 0};
  std::vector<double> jac = {1, -1, 1, -1, 1};
  std::vector<ConeGroup> cones;
  ConstraintProblem problem;

  SmallProblem() { point(); }
  void point() {
    problem.nv = static_cast<int>(parent.size());
    problem.nefc = static_cast<int>(row_nnz.size());
    problem.mass_tree.n = problem.nv;
    problem.mass_tree.parent = parent.data();
    problem.row_nnz = row_nnz.data();
    problem.row_adr = row_adr.data();
    problem.col = col.data();
    problem.J = jac.data();
    problem.joins_previous = joins.data();
    problem.cones = cones.data();
    problem.ncone = static_cast<int>(cones.size());
    problem.dense_hessian = false;
  }
};

TEST(RowPattern, RepeatsOnlyTheKeptStructure) {
  SmallProblem kept;
  RowPattern pattern;
  EXPECT_FALSE(pattern.repeats_or_keep(kept.problem));  // nothing kept yet: keeps it
  EXPECT_TRUE(pattern.repeats_or_keep(kept.problem));
  // Values other than the structure do not matter.
  SmallProblem values;
  values.jac = {3, 4, 5, 6, 7};
  values.point();
  EXPECT_TRUE(pattern.repeats_or_keep(values.problem));

  // Each change of structure is seen (after each, the original is kept
  // again: a hit resets the wait between copies).
  const std::vector<std::function<void(SmallProblem&)>> changes = {
      [](SmallProblem& q) { q.col[3] = 0; },    // a column
      [](SmallProblem& q) { q.joins[1] = 0; },  // a join
      [](SmallProblem& q) {
        q.parent = {-1, -1, -1};
      },  // the trees
      [](SmallProblem& q) {
        q.row_adr = {0, 2, 5}, q.col.push_back(0);
      },                     // an address
      [](SmallProblem& q) {  // a row more
        q.row_nnz.push_back(1), q.row_adr.push_back(5), q.col.push_back(2);
        q.joins.push_back(0), q.jac.push_back(1);
      },
      [](SmallProblem& q) {
        q.row_nnz = {2, 2, 0};
      },                                                        // a size, the same total
      [](SmallProblem& q) { q.cones.push_back(ConeGroup{}); },  // a cone
      [](SmallProblem& q) { q.problem.dense_hessian = true; },  // the dense layout
      [](SmallProblem& q) { q.problem.joins_previous = nullptr; },
  };
  for (size_t k = 0; k < changes.size(); ++k) {
    SmallProblem changed;
    changes[k](changed);
    if (k + 2 < changes.size()) changed.point();
    EXPECT_FALSE(pattern.repeats_or_keep(changed.problem)) << "change " << k;
    // The changed structure was kept (a first miss copies at once) ...
    if (k + 2 < changes.size()) {
      EXPECT_TRUE(pattern.repeats_or_keep(changed.problem)) << k;
    }
    // ... and the original is seen as a change, then kept again.
    EXPECT_FALSE(pattern.repeats_or_keep(kept.problem)) << "change " << k;
    while (!pattern.repeats_or_keep(kept.problem)) {
    }
  }
  pattern.forget();
  EXPECT_FALSE(pattern.repeats_or_keep(kept.problem));
  EXPECT_TRUE(pattern.repeats_or_keep(kept.problem));
}

// A structure that changes at every call is copied at calls further and
// further apart; once it settles, it repeats within 64 calls.
TEST(RowPattern, CopiesSeldomWhileTheStructureKeepsChanging) {
  RowPattern pattern;
  int hits = 0;
  for (int call = 0; call < 200; ++call) {
    SmallProblem changing;
    changing.col[4] = call % 2;  // the third row's column, alternating
    changing.point();
    hits += pattern.repeats_or_keep(changing.problem);
  }
  EXPECT_EQ(hits, 0);
  SmallProblem settled;
  int calls = 1;
  while (!pattern.repeats_or_keep(settled.problem)) ++calls;
  EXPECT_LE(calls, 65);
  EXPECT_GT(calls, 2);  // it waited: it did not copy at every call
  for (int call = 0; call < 10; ++call) EXPECT_TRUE(pattern.repeats_or_keep(settled.problem));
}

}  // namespace
}  // namespace pliant
