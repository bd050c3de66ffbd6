// A step on several threads (Data::threads): the narrow phase and the
// constraint islands shared among threads give the state of one thread, bit
// for bit; and the pool that runs them. Run under ThreadSanitizer by the
// tsan preset.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/helped_loop.h"
#include "engine/thread_pool.h"
#include "engine/workspace.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "samples/shared/scenes.h"

namespace pliant {
namespace {

template <class V>
bool same_bits(const V& a, const V& b) {
  return a.size() == b.size() &&
         std::equal(a.data(), a.data() + a.size(), b.data(),
                    [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; });
}

// Steps one Data per thread count side by side and compares them after
// every step, rows included; notes the most islands and narrow-phase
// candidates seen.
struct Seen {
  int islands = 0, candidates = 0, contacts = 0;
};

void expect_same_steps(const Model& model, const std::vector<int>& thread_counts, int steps,
                       Seen& seen) {
  std::vector<Data> datas;
  for (int threads : thread_counts) {
    datas.emplace_back(model);
    datas.back().threads = threads;
  }
  for (int s = 0; s < steps; ++s) {
    for (Data& d : datas) step(model, d);
    const Data& one = datas.front();
    for (size_t k = 1; k < datas.size(); ++k) {
      const Data& d = datas[k];
      SCOPED_TRACE("threads " + std::to_string(d.threads) + ", step " + std::to_string(s));
      ASSERT_EQ(d.contacts.size(), one.contacts.size());
      for (size_t c = 0; c < d.contacts.size(); ++c) {
        ASSERT_EQ(d.contacts[c].geom1, one.contacts[c].geom1);
        ASSERT_EQ(d.contacts[c].geom2, one.contacts[c].geom2);
        ASSERT_EQ(d.contacts[c].dist, one.contacts[c].dist);
        ASSERT_EQ(d.contacts[c].efc_address, one.contacts[c].efc_address);
      }
      ASSERT_EQ(d.efc.type, one.efc.type);
      ASSERT_EQ(d.efc.id, one.efc.id);
      ASSERT_EQ(d.efc.row_adr, one.efc.row_adr);
      ASSERT_EQ(d.efc.col, one.efc.col);
      ASSERT_TRUE(same_bits(d.efc.J, one.efc.J));
      ASSERT_TRUE(same_bits(d.efc.R, one.efc.R));
      ASSERT_TRUE(same_bits(d.efc.aref, one.efc.aref));
      ASSERT_TRUE(same_bits(d.qpos, one.qpos));
      ASSERT_TRUE(same_bits(d.qvel, one.qvel));
      ASSERT_TRUE(same_bits(d.qacc, one.qacc));
      ASSERT_TRUE(same_bits(d.efc.force, one.efc.force));
      ASSERT_EQ(d.solver.iterations, one.solver.iterations);
      ASSERT_EQ(d.solver.cost, one.solver.cost);
    }
    Workspace& w = workspace(datas.back());
    seen.islands = std::max(seen.islands, static_cast<int>(w.islands.dof_start.size()) - 1);
    seen.candidates = std::max(seen.candidates, static_cast<int>(w.collision.candidates.size()));
    seen.contacts = std::max(seen.contacts, static_cast<int>(datas.back().contacts.size()));
  }
  for (size_t k = 1; k < datas.size(); ++k) {
    EXPECT_EQ(workspace(datas[k]).pool.workers(), datas[k].threads - 1);
  }
}

// A pile of 90 boxes from its drop to its first settling: several islands,
// some hundred candidate pairs and contacts (several slices of the narrow
// phase and of the contact rows).
TEST(StepThreads, PileIsBitIdenticalOnAnyThreadCount) {
  const Model model = load_model_from_string(scenes::box_pile_xml(90));
  Seen seen;
  expect_same_steps(model, {1, 2, 3}, 250, seen);
  EXPECT_GT(seen.islands, 4);
  EXPECT_GT(seen.candidates, 3 * 64);
  EXPECT_GT(seen.contacts, 2 * 128);
}

// Two touching layers of 10 x 10 cubes beside four lone cubes: an island of
// thousands of rows, which one thread solves with the others helping on its
// passes over rows and columns (row chunks, J^T f by column ranges, the line
// search, the gathering, the Hessian's assembly) between the small ones.
TEST(StepThreads, OneLargeIslandIsBitIdenticalOnAnyThreadCount) {
  scenes::BoxStack stack;
  stack.count = 200;
  stack.per_row = 10;
  stack.per_layer = 100;
  stack.pitch_x = stack.pitch_y = stack.layer_height = 0.199;
  stack.bottom = 0.0995;
  stack.plane = 4;
  // Lone cubes: small islands, solved beside the large one.
  for (int k = 0; k < 4; ++k) {
    stack.extra_bodies += "<body pos='-1 " + std::to_string(-1 + 0.5 * k) +
                          " 0.0995'><freejoint/><geom type='box' size='.1 .1 .1'/></body>";
  }
  const Model model = load_model_from_string(scenes::box_stack_xml(stack));
  Seen seen;
  expect_same_steps(model, {1, 2, 3}, 20, seen);
  EXPECT_GE(seen.islands, 2);
  // The largest island holds most rows, enough for several chunks.
  Data d(model);
  d.threads = 2;
  step(model, d);
  const IslandScratch& islands = workspace(d).islands;
  int largest = 0;
  for (size_t g = 0; g + 1 < islands.row_start.size(); ++g) {
    largest = std::max(largest, islands.row_start[g + 1] - islands.row_start[g]);
  }
  EXPECT_GT(2 * largest, d.efc.count());
  EXPECT_GT(largest, 3 * kRowsPerChunk);
}

// From 256 bodies the broadphase sweeps its cells on several threads too:
// the same body pairs, in the same order.
TEST(StepThreads, BroadphaseOfManyBodiesFindsTheSamePairs) {
  const Model model = load_model_from_string(scenes::box_pile_xml(300));
  Data one(model), two(model);
  two.threads = 2;
  size_t most_pairs = 0;
  for (int s = 0; s < 40; ++s) {
    step(model, one);
    step(model, two);
    const CollisionScratch& a = workspace(one).collision;
    const CollisionScratch& b = workspace(two).collision;
    ASSERT_EQ(a.body_pairs, b.body_pairs) << "step " << s;
    most_pairs = std::max(most_pairs, a.body_pairs.size());
  }
  EXPECT_GT(most_pairs, 300u);
  EXPECT_GT(workspace(two).collision.task_pairs.value.size(), 1u);
  EXPECT_TRUE(same_bits(one.qpos, two.qpos));
  EXPECT_TRUE(same_bits(one.qvel, two.qvel));
}

TEST(StepThreads, ConjugateGradientIsBitIdentical) {
  std::string xml = scenes::box_pile_xml(40);
  const std::string option = "<option timestep=\"0.002\"";
  ASSERT_NE(xml.find(option), std::string::npos);
  xml.replace(xml.find(option), option.size(), option + " solver=\"CG\"");
  const Model model = load_model_from_string(xml);
  ASSERT_EQ(model.options.solver, SolverType::kCg);
  Seen seen;
  expect_same_steps(model, {1, 2}, 200, seen);
  EXPECT_GT(seen.islands, 2);
}

// A reset keeps the caller's thread count, and the step after it is one
// thread's step.
TEST(StepThreads, ResetKeepsTheThreadCount) {
  const Model model = load_model_from_string(scenes::box_pile_xml(30));
  Data one(model), two(model);
  two.threads = 2;
  for (int s = 0; s < 150; ++s) step(model, two);
  reset_data(model, two);
  EXPECT_EQ(two.threads, 2);
  for (int s = 0; s < 150; ++s) {
    step(model, one);
    step(model, two);
  }
  EXPECT_TRUE(same_bits(one.qpos, two.qpos));
  EXPECT_TRUE(same_bits(one.qvel, two.qvel));
}

TEST(ThreadPool, RunsEveryTaskOnceOnItsThreads) {
  ThreadPool pool;
  for (int threads : {1, 2, 4}) {
    std::vector<std::atomic<int>> runs(1000);
    std::atomic<int> bad_worker{0};
    pool.run(threads, 1000, [&](int task, int worker) {
      runs[task].fetch_add(1);
      if (worker < 0 || worker >= threads) bad_worker.fetch_add(1);
    });
    for (const std::atomic<int>& r : runs) ASSERT_EQ(r.load(), 1);
    EXPECT_EQ(bad_worker.load(), 0);
  }
  EXPECT_EQ(pool.workers(), 3);
  // Loops on fewer threads than the pool has (the others pass them), one
  // after another without a pause.
  for (int round = 0; round < 200; ++round) {
    const int threads = 2 + round % 3;
    std::atomic<int> sum{0};
    pool.run(threads, 50, [&](int task, int) { sum.fetch_add(task); });
    ASSERT_EQ(sum.load(), 1225);
  }
  // A copy (as of a copied Data) starts with no workers of its own.
  ThreadPool copy(pool);
  EXPECT_EQ(copy.workers(), 0);
}

TEST(ThreadPool, RethrowsATasksExceptionAndStaysUsable) {
  ThreadPool pool;
  EXPECT_THROW(pool.run(2, 100,
                        [](int task, int) {
                          if (task == 37) throw std::runtime_error("task 37");
                        }),
               std::runtime_error);
  std::atomic<int> total{0};
  pool.run(2, 100, [&](int task, int) { total.fetch_add(task); });
  EXPECT_EQ(total.load(), 4950);
}

// A driver's loops, one after another, helped by threads that are busy
// between them (as the threads solving small islands beside a large one):
// every task of every loop runs once, on a worker the loop names.
TEST(HelpedLoop, RunsEveryTaskOnceWhoeverHelps) {
  ThreadPool pool;
  for (int threads : {2, 3}) {
    HelpedLoop loop(threads);
    constexpr int kLoops = 300, kTasks = 64;
    std::vector<std::atomic<int>> runs(kLoops * kTasks);
    std::atomic<int> bad_worker{0}, other_work{0};
    pool.run(threads, threads, [&](int role, int) {
      if (role == 0) {
        for (int l = 0; l < kLoops; ++l) {
          parallel_for(&loop, kTasks, [&](int task, int worker) {
            runs[l * kTasks + task].fetch_add(1);
            if (worker < 0 || worker >= threads) bad_worker.fetch_add(1);
          });
        }
        loop.finish();
        return;
      }
      // Work of its own between loops, then help until the driver is done.
      for (int k = 0; k < 50; ++k) {
        loop.help(role);
        other_work.fetch_add(1);
      }
      loop.help_until_finished(role);
    });
    for (const std::atomic<int>& r : runs) ASSERT_EQ(r.load(), 1);
    EXPECT_EQ(bad_worker.load(), 0);
    EXPECT_EQ(other_work.load(), 50 * (threads - 1));
  }
  // An exception in a loop's task reaches the driver, after the loop.
  HelpedLoop alone(2);
  EXPECT_THROW(parallel_for(&alone, 4,
                            [](int task, int) {
                              if (task == 2) throw std::runtime_error("the driver's task");
                            }),
               std::runtime_error);
}

}  // namespace
}  // namespace pliant
