#include "solvers/tree_ordering.h"

#include <algorithm>
#include <functional>

namespace pliant {
namespace {

// Rows coupling more trees than this join them as a path instead of a
// clique: enough to keep the trees together without a quadratic number of
// edges.
constexpr int kMaxClique = 8;

// Set bits of a word, inline: the portable build has no popcnt instruction,
// and the library call it would make cost a call per word.
inline int bit_count(unsigned long long x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

}  // namespace

void TreeOrdering::compute(const ConstraintProblem& p, Method method) {
  // The trees and rows of the last problem ordered (a settled scene): the
  // same order, a function of them alone.
  if (input_.repeats_or_keep(p) && method == last_method_) return;
  const int nv = p.nv;
  // Trees: the root of each dof; tree ids in order of first appearance.
  tree_of_dof_.resize(nv);
  trees_ = 0;
  for (int i = 0; i < nv; ++i) {
    const int parent = p.mass_tree.parent[i];
    tree_of_dof_[i] = parent < 0 ? trees_++ : tree_of_dof_[parent];
  }
  tree_start_.assign(trees_ + 1, 0);
  for (int i = 0; i < nv; ++i) ++tree_start_[tree_of_dof_[i] + 1];
  for (int t = 0; t < trees_; ++t) tree_start_[t + 1] += tree_start_[t];
  tree_dofs_.resize(nv);
  cursor_.assign(tree_start_.begin(), tree_start_.end() - 1);
  for (int i = 0; i < nv; ++i) tree_dofs_[cursor_[tree_of_dof_[i]]++] = i;
  subtree_.assign(nv, 1);
  for (int i = nv - 1; i >= 0; --i) {
    if (p.mass_tree.parent[i] >= 0) subtree_[p.mass_tree.parent[i]] += subtree_[i];
  }
  leaves_first_.resize(trees_);
  for (int t = 0; t < trees_; ++t) {
    const int first = tree_dofs_[tree_start_[t]], count = tree_size(t);
    // A tree's dofs as one contiguous range (each dof's parent before it).
    const bool contiguous = tree_dofs_[tree_start_[t] + count - 1] == first + count - 1;
    const double entries = contiguous ? leaves_first_entries(p.mass_tree.parent, first, count) : 0;
    leaves_first_[t] = entries > 0;
  }

  // The coupling graph between trees (none when there is one tree: an
  // island of one robot or one body).
  edge_a_.clear();
  edge_b_.clear();
  for (int i = 0; i < p.nefc && trees_ > 1; ++i) {
    if (!same_columns_as_previous(p, i)) add_row_edges(p, i);
  }
  adjacency_start_.assign(trees_ + 1, 0);
  for (size_t e = 0; e < edge_a_.size(); ++e) {
    ++adjacency_start_[edge_a_[e] + 1];
    ++adjacency_start_[edge_b_[e] + 1];
  }
  for (int t = 0; t < trees_; ++t) adjacency_start_[t + 1] += adjacency_start_[t];
  adjacency_.resize(adjacency_start_[trees_]);
  cursor_.assign(adjacency_start_.begin(), adjacency_start_.end() - 1);
  for (size_t e = 0; e < edge_a_.size(); ++e) {
    adjacency_[cursor_[edge_a_[e]]++] = edge_b_[e];
    adjacency_[cursor_[edge_b_[e]]++] = edge_a_[e];
  }
  // Sort each list and drop repeats (many contacts join the same pair);
  // lists shrink in place, so the starts are rewritten as we go.
  int write = 0;
  for (int t = 0; t < trees_; ++t) {
    const int begin = adjacency_start_[t], end = adjacency_start_[t + 1];
    std::sort(adjacency_.begin() + begin, adjacency_.begin() + end);
    adjacency_start_[t] = write;
    for (int k = begin; k < end; ++k) {
      if (k == begin || adjacency_[k] != adjacency_[k - 1]) adjacency_[write++] = adjacency_[k];
    }
  }
  adjacency_start_[trees_] = write;

  order(method);
}

void TreeOrdering::compute_like(const TreeOrdering& other, Method method) {
  input_.forget();  // ordered from `other`'s graph, not from a problem
  // The same graph as last time (a settled scene): the same order, without
  // ordering again (the order is a function of the graph alone).
  const bool same = trees_ == other.trees_ && method == last_method_ &&
                    static_cast<int>(order_.size()) == trees_ && tree_dofs_ == other.tree_dofs_ &&
                    tree_start_ == other.tree_start_ &&
                    adjacency_start_ == other.adjacency_start_ &&
                    std::equal(other.adjacency_.begin(),
                               other.adjacency_.begin() + other.adjacency_start_[trees_],
                               adjacency_.begin(), adjacency_.begin() + adjacency_start_[trees_]);
  if (same) return;
  trees_ = other.trees_;
  tree_of_dof_.assign(other.tree_of_dof_.begin(), other.tree_of_dof_.end());
  tree_start_.assign(other.tree_start_.begin(), other.tree_start_.end());
  tree_dofs_.assign(other.tree_dofs_.begin(), other.tree_dofs_.end());
  subtree_.assign(other.subtree_.begin(), other.subtree_.end());
  leaves_first_.assign(other.leaves_first_.begin(), other.leaves_first_.end());
  adjacency_start_.assign(other.adjacency_start_.begin(), other.adjacency_start_.end());
  adjacency_.assign(other.adjacency_.begin(), other.adjacency_.begin() + adjacency_start_[trees_]);
  order(method);
}

void TreeOrdering::order(Method method) {
  last_method_ = method;
  if (method == Method::kMinimumDegree) {
    minimum_degree();
  } else {
    reverse_cuthill_mckee();
  }
  position_.resize(tree_of_dof_.size());
  envelope_start_.resize(tree_of_dof_.size());
  int next = 0;
  for (int t : order_) {
    const int begin = tree_start_[t], end = tree_start_[t + 1];
    if (method == Method::kReverseCuthillMcKee && leaves_first_[t]) {
      for (int k = end - 1; k >= begin; --k) {
        const int dof = tree_dofs_[k];
        envelope_start_[dof] = next - subtree_[dof] + 1;
        position_[dof] = next++;
      }
    } else {
      for (int k = begin; k < end; ++k) {
        envelope_start_[tree_dofs_[k]] = next - (k - begin);
        position_[tree_dofs_[k]] = next++;
      }
    }
  }
}

double TreeOrdering::leaves_first_entries(const int* parent, int first, int count) {
  // Dof order is depth first: a dof's parent is the previous dof or one of
  // its ancestors (so every subtree is contiguous); a parent other than the
  // previous dof is a branch. A dof is in its own subtree and in each of
  // its ancestors': the entries are the sum of the depths.
  if (static_cast<int>(depth_.size()) < count) depth_.resize(count);
  int* depth = depth_.data();  // depth[i - first]
  bool branch = false;
  double entries = 1;
  depth[0] = 1;
  for (int i = first + 1; i < first + count; ++i) {
    if (parent[i] != i - 1) {
      int a = i - 1;
      while (a >= first && a != parent[i]) a = parent[a];
      if (a != parent[i]) return 0;  // not depth first
      branch = true;
    }
    depth[i - first] = depth[parent[i] - first] + 1;
    entries += depth[i - first];
  }
  return branch ? entries : 0;
}

void TreeOrdering::add_row_edges(const ConstraintProblem& p, int row) {
  row_trees_.clear();
  const int adr = p.row_adr[row];
  for (int k = 0; k < p.row_nnz[row]; ++k) {
    const int tree = tree_of_dof_[p.col[adr + k]];
    // A tree's dofs are usually adjacent columns: most repeats are the last.
    if (!row_trees_.empty() && row_trees_.back() == tree) continue;
    if (std::find(row_trees_.begin(), row_trees_.end(), tree) == row_trees_.end()) {
      row_trees_.push_back(tree);
    }
  }
  const int n = static_cast<int>(row_trees_.size());
  for (int a = 0; a < n; ++a) {
    const int last = n > kMaxClique ? std::min(n, a + 2) : n;
    for (int b = a + 1; b < last; ++b) {
      edge_a_.push_back(row_trees_[a]);
      edge_b_.push_back(row_trees_[b]);
    }
  }
}

// Breadth-first from `start` over unvisited trees, neighbours in order of
// increasing degree; appends to `order` and returns how many were added.
int TreeOrdering::breadth_first(int start, int* order) {
  auto degree = [this](int t) { return adjacency_start_[t + 1] - adjacency_start_[t]; };
  int head = 0, tail = 0;
  order[tail++] = start;
  visited_[start] = 1;
  while (head < tail) {
    const int t = order[head++];
    const int first_new = tail;
    for (int k = adjacency_start_[t]; k < adjacency_start_[t + 1]; ++k) {
      const int u = adjacency_[k];
      if (visited_[u]) continue;
      visited_[u] = 1;
      order[tail++] = u;
    }
    std::sort(order + first_new, order + tail,
              [&](int a, int b) { return degree(a) != degree(b) ? degree(a) < degree(b) : a < b; });
  }
  return tail;
}

// Per connected component: a breadth-first search from its lowest-degree
// tree finds a far tree, the search from there gives the Cuthill-McKee order
// (a pseudo-peripheral start); the whole order is then reversed.
void TreeOrdering::reverse_cuthill_mckee() {
  order_.resize(trees_);
  level_order_.resize(trees_);
  visited_.assign(trees_, 0);
  int placed = 0;
  for (int seed = 0; seed < trees_; ++seed) {
    if (visited_[seed]) continue;
    // Lowest-degree tree of the component, by a first search.
    const int size = breadth_first(seed, level_order_.data());
    int start = seed;
    for (int k = 0; k < size; ++k) {
      const int t = level_order_[k];
      const int d = adjacency_start_[t + 1] - adjacency_start_[t];
      if (d < adjacency_start_[start + 1] - adjacency_start_[start]) start = t;
    }
    for (int k = 0; k < size; ++k) visited_[level_order_[k]] = 0;
    if (size > 2) {
      breadth_first(start, level_order_.data());
      start = level_order_[size - 1];  // the last reached: far from the first
      for (int k = 0; k < size; ++k) visited_[level_order_[k]] = 0;
    }
    placed += breadth_first(start, order_.data() + placed);
  }
  std::reverse(order_.begin(), order_.end());
}

// Greedy minimum degree on the tree graph: repeatedly eliminate the tree
// with the fewest neighbours (ties: the lowest index), joining its
// neighbours into a clique. The graph is kept as bit rows (trees^2 / 8
// bytes, symmetric, no tree its own neighbour). An elimination visits only
// the words of its row that hold neighbours, and a neighbour's degree
// changes by the bits it gains there, so it costs its degree times those
// few words; the choice is a heap operation per changed degree.
void TreeOrdering::minimum_degree() {
  const int words = (trees_ + 63) / 64;
  bits_.assign(static_cast<size_t>(trees_) * words, 0);
  auto row = [&](int t) { return bits_.data() + static_cast<size_t>(t) * words; };
  for (int t = 0; t < trees_; ++t) {
    for (int k = adjacency_start_[t]; k < adjacency_start_[t + 1]; ++k) {
      const int u = adjacency_[k];
      row(t)[u / 64] |= 1ull << (u % 64);
    }
  }
  degree_.resize(trees_);
  for (int t = 0; t < trees_; ++t) degree_[t] = adjacency_start_[t + 1] - adjacency_start_[t];
  order_.resize(trees_);
  visited_.assign(trees_, 0);
  // Candidates as (degree, tree) in a min-heap: its top is the scan's
  // choice, fewest neighbours and then lowest index. A tree whose degree
  // changes is pushed again; entries that no longer match are dropped when
  // they reach the top.
  heap_.clear();
  for (int t = 0; t < trees_; ++t) heap_.push_back({degree_[t], t});
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  for (int placed = 0; placed < trees_; ++placed) {
    int v = -1;
    while (v < 0) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      const auto [degree, t] = heap_.back();
      heap_.pop_back();
      if (!visited_[t] && degree == degree_[t]) v = t;
    }
    order_[placed] = v;
    visited_[v] = 1;
    unsigned long long* rv = row(v);
    row_words_.clear();
    for (int w = 0; w < words; ++w) {
      if (rv[w] != 0) row_words_.push_back(w);
    }
    for (int w : row_words_) {
      for (unsigned long long word = rv[w]; word != 0; word &= word - 1) {
        const int u = w * 64 + __builtin_ctzll(word);
        unsigned long long* ru = row(u);
        // u gains v's other neighbours and loses v; its own bit, gained
        // from v's row, is cleared again.
        int degree = degree_[u] - 2;
        for (int x : row_words_) {
          const unsigned long long gained = rv[x] & ~ru[x];
          if (gained == 0) continue;
          ru[x] |= gained;
          degree += bit_count(gained);
        }
        ru[v / 64] &= ~(1ull << (v % 64));
        ru[u / 64] &= ~(1ull << (u % 64));
        degree_[u] = degree;
        heap_.push_back({degree, u});
        std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
      }
    }
    // v leaves the graph: clear it from its neighbours' rows (done above)
    // and its own row.
    for (int w : row_words_) rv[w] = 0;
  }
}

void TreeOrdering::to_factor(const double* x, double* out) const {
  for (size_t k = 0; k < position_.size(); ++k) out[position_[k]] = x[k];
}

void TreeOrdering::from_factor(const double* x, double* out) const {
  for (size_t k = 0; k < position_.size(); ++k) out[k] = x[position_[k]];
}

}  // namespace pliant
