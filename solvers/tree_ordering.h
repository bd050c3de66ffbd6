#pragma once

// An ordering of the dofs for the envelope factor of Newton's Hessian
// H = M + J^T D J on large models. Each kinematic tree stays whole (its dofs
// contiguous and in their own order, so M's ancestor fill stays inside the
// tree's block), and the trees are ordered by reverse Cuthill-McKee on the
// graph in which two trees are adjacent when a constraint row couples them.
// Trees that touch one another end up close, which keeps the envelope
// narrow: a pile of free bodies factors in O(n w^2) for a pile width w
// instead of its index order's much wider profile.
//
// All memory is kept across calls: once sizes stop growing, compute() makes
// no heap allocation.

#include <utility>
#include <vector>

#include "solvers/constraint_problem.h"

namespace pliant {

class TreeOrdering {
 public:
  enum class Method {
    kReverseCuthillMcKee,  // a narrow envelope (EnvelopeCholesky)
    kMinimumDegree,        // little fill in a block factor (BlockCholesky)
  };
  // Orders the dofs of `p` (trees from p.mass_tree, coupling from its rows).
  void compute(const ConstraintProblem& p, Method method = Method::kReverseCuthillMcKee);
  // The same trees and coupling graph as `other` (computed for the same
  // problem), ordered by `method`: no second pass over the rows.
  void compute_like(const TreeOrdering& other, Method method);

  // Trees in the factor's order: tree_at(k) is the k-th, of tree_size dofs.
  int tree_count() const { return trees_; }
  int tree_at(int k) const { return order_[k]; }
  int tree_size(int tree) const { return tree_start_[tree + 1] - tree_start_[tree]; }

  // Index in the factor of dof k.
  int position(int dof) const { return position_[dof]; }
  const int* positions() const { return position_.data(); }
  // Index in the factor of the root of dof k's tree (its tree's first).
  int root_position(int dof) const { return position_[tree_dofs_[tree_start_[tree_of_dof_[dof]]]]; }
  // x_factor[position(k)] = x[k], and back.
  void to_factor(const double* x, double* out) const;
  void from_factor(const double* x, double* out) const;

 private:
  void add_row_edges(const ConstraintProblem& p, int row);
  void order(Method method);
  void reverse_cuthill_mckee();
  void minimum_degree();
  int breadth_first(int start, int* order);

  std::vector<int> position_;
  // Trees: tree_of_dof_ (nv), dofs of tree t at tree_dofs_[tree_start_[t] ...].
  std::vector<int> tree_of_dof_, tree_start_, tree_dofs_;
  int trees_ = 0;
  Method last_method_ = Method::kReverseCuthillMcKee;
  // Edges as pairs, then adjacency in CSR (adjacency_start_, adjacency_).
  std::vector<int> edge_a_, edge_b_, adjacency_start_, adjacency_, row_trees_;
  // Fill positions while bucketing dofs and edges.
  std::vector<int> cursor_;
  // Breadth-first search and the final tree order.
  std::vector<int> order_, level_order_, visited_;
  // Minimum degree: the elimination graph as one bit row per tree, each
  // tree's current degree, and the words of the eliminated tree's row that
  // hold neighbours.
  std::vector<unsigned long long> bits_;
  std::vector<int> degree_, row_words_;
  std::vector<std::pair<int, int>> heap_;  // (degree, tree) candidates
};

}  // namespace pliant
