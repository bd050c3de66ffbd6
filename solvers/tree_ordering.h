#pragma once

// An ordering of the dofs for the envelope factor of Newton's Hessian
// H = M + J^T D J on large models. Each kinematic tree stays whole (its dofs
// contiguous, so M's ancestor fill stays inside the tree's block), and the
// trees are ordered by reverse Cuthill-McKee on the graph in which two trees
// are adjacent when a constraint row couples them. Trees that touch one
// another end up close, which keeps the envelope narrow: a pile of free
// bodies factors in O(n w^2) for a pile width w instead of its index order's
// much wider profile.
//
// For the envelope, a tree that branches (a humanoid) is laid out leaves
// first: its dofs in reverse, so that each dof's row reaches back only over
// its own subtree (contiguous in dof order) instead of to the root, and M's
// pattern is the envelope exactly. A rank-1 update of a contact row then
// walks the contact's chain and its ancestors' columns, not the whole tree.
// A chain (a free body, an arm) gains nothing and keeps its own order. The
// dense square (one tree alone) gains too: the factor keeps M's zeros, which
// its loops skip.
//
// All memory is kept across calls: once sizes stop growing, compute() makes
// no heap allocation. A problem whose trees and rows repeat the last one's
// (RowPattern) keeps its order.

#include <utility>
#include <vector>

#include "solvers/constraint_problem.h"
#include "solvers/row_pattern.h"

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
  // The first factor index M's row of dof k reaches: its tree's root (own
  // order) or the end of its subtree (a tree laid out leaves first).
  int envelope_start(int dof) const { return envelope_start_[dof]; }
  // The entries of M's envelope for the tree of dofs first .. first +
  // count - 1 (`parent` as TreeSparsity's) laid out leaves first: the sum
  // of its subtrees' sizes. 0 when the tree does not branch or its subtrees
  // are not contiguous: the trees the envelope keeps in their own order.
  double leaves_first_entries(const int* parent, int first, int count);
  // x_factor[position(k)] = x[k], and back.
  void to_factor(const double* x, double* out) const;
  void from_factor(const double* x, double* out) const;

 private:
  void add_row_edges(const ConstraintProblem& p, int row);
  void order(Method method);
  void reverse_cuthill_mckee();
  void minimum_degree();
  int breadth_first(int start, int* order);

  std::vector<int> position_, envelope_start_;
  // Dofs in each dof's subtree (itself included); trees laid out leaves
  // first (for the envelope order).
  std::vector<int> subtree_;
  std::vector<unsigned char> leaves_first_;
  std::vector<int> depth_;  // leaves_first_entries(): each dof's depth in its tree
  // Trees: tree_of_dof_ (nv), dofs of tree t at tree_dofs_[tree_start_[t] ...].
  std::vector<int> tree_of_dof_, tree_start_, tree_dofs_;
  int trees_ = 0;
  Method last_method_ = Method::kReverseCuthillMcKee;
  RowPattern input_;  // the problem compute() last ordered
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
