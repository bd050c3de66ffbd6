#include "engine/collision/broadphase.h"

#include <algorithm>
#include <cmath>

#include "solvers/parallel_loop.h"

namespace pliant::collision {

// A rotated box's cube around its bounding sphere is up to 1.7 times wider
// than its tight box, and in a pile every box then reaches several
// neighbours it cannot touch.
Vector3d geom_half_extents(const Model& m, const Data& d, int g) {
  const double rbound = m.geoms.rbound[g];
  const Vector3d& size = m.geoms.size[g];
  const Matrix3d& r = d.geom_xmat[g];
  Vector3d half = Vector3d::Constant(rbound);
  switch (m.geoms.type[g]) {
    case GeomType::kSphere:
      half.setConstant(size[0]);
      break;
    case GeomType::kCapsule:
      // The segment of half length size[1] along the axis, plus the radius.
      for (int k = 0; k < 3; ++k) half[k] = size[0] + size[1] * std::abs(r(k, 2));
      break;
    case GeomType::kCylinder:
      // A disc of radius size[0] reaches sqrt(1 - axis_k^2) of it along k.
      for (int k = 0; k < 3; ++k) {
        const double a = r(k, 2);
        half[k] = size[1] * std::abs(a) + size[0] * std::sqrt(std::max(0.0, 1 - a * a));
      }
      break;
    case GeomType::kEllipsoid:
      // The support of an ellipsoid along e_k: |diag(size) R^T e_k|.
      for (int k = 0; k < 3; ++k) {
        half[k] = Vector3d(size[0] * r(k, 0), size[1] * r(k, 1), size[2] * r(k, 2)).norm();
      }
      break;
    case GeomType::kBox:
      half = r.cwiseAbs() * size;
      break;
    default:
      break;
  }
  // Never wider than the bounding sphere's cube (rounding aside).
  return half.cwiseMin(Vector3d::Constant(rbound));
}

namespace {

double geom_margin(const Model& m, int g) {
  return m.options.flags.override_contacts ? m.options.o_margin : m.geoms.margin[g];
}

// Bodies on one weld body never collide; nor does a weld body with the weld
// body of its parent, when the parent filter is on and neither is the world.
bool filtered_by_welds(const Model& m, const CollisionScratch& s, int b1, int b2) {
  const int w1 = m.bodies.weld[b1], w2 = m.bodies.weld[b2];
  if (w1 == w2) return true;
  if (m.options.flags.filterparent && w1 != 0 && w2 != 0 &&
      (w1 == s.weld_parent[b2] || s.weld_parent[b1] == w2)) {
    return true;
  }
  return false;
}

// Sweeping the cells on several threads: from this many bodies, in this many
// slices of cells a thread (their loads differ).
constexpr int kBodiesPerThread = 256;
// Up to this many bodies in the sweep, every pair is compared directly.
constexpr int kDirectBodies = 24;
constexpr int kCellTasksPerThread = 8;

// One axis of the grid: cells of `width` from `low`.
struct GridAxis {
  double low = 0, width = 0, spread = 0;
  int cells = 1;
  int cell_of(double v) const {
    if (cells == 1) return 0;
    return std::min(cells - 1, static_cast<int>((v - low) / width));
  }
};

// Cuts the boxes (in sweep order, s.sweep) into the cells of a grid across
// the two axes other than the sweep's (offsets 2 and 4 of each box's sweep
// entry), each cell at least as wide as the widest box along its axis; each
// box joins every cell it reaches (at most 4), keeping sweep order. Sweep
// and prune along one axis alone compares every box with all that overlap
// it there (in a pile, a whole slab of it); within a cell, only its
// neighbours. The grid has at most about 4 cells per box (cells widen when
// the boxes are sparse), and one cell, the plain sweep, when the boxes are
// not finite. Returns the grid's axes.
void grid_boxes(CollisionScratch& s, int nsap, GridAxis* axes) {
  bool finite = true;
  for (int t = 0; t < 2; ++t) {
    const int offset = 2 + 2 * t;
    double low = INFINITY, high = -INFINITY, widest = 0;
    for (int i = 0; i < nsap; ++i) {
      const double lo = s.sweep[6 * i + offset], hi = s.sweep[6 * i + offset + 1];
      finite = finite && std::isfinite(lo) && std::isfinite(hi);
      low = std::min(low, lo);
      high = std::max(high, hi);
      widest = std::max(widest, hi - lo);
    }
    axes[t].low = low;
    axes[t].spread = high - low;
    axes[t].width = std::max(widest, axes[t].spread / nsap);
  }
  auto count_cells = [&](GridAxis& axis) {
    axis.cells = 1;
    if (finite && std::isfinite(axis.spread) && axis.width > 0) {
      axis.cells = std::min(nsap, static_cast<int>(axis.spread / axis.width) + 1);
    }
  };
  count_cells(axes[0]);
  count_cells(axes[1]);
  while (static_cast<long>(axes[0].cells) * axes[1].cells > 4L * nsap) {
    GridAxis& finer = axes[0].cells >= axes[1].cells ? axes[0] : axes[1];
    finer.width *= 2;
    count_cells(finer);
  }
  const int cells = axes[0].cells * axes[1].cells;
  auto for_cells = [&](int i, auto&& visit) {
    const double* w = &s.sweep[6 * i];
    const int first0 = axes[0].cell_of(w[2]), last0 = axes[0].cell_of(w[3]);
    const int first1 = axes[1].cell_of(w[4]), last1 = axes[1].cell_of(w[5]);
    for (int c0 = first0; c0 <= last0; ++c0) {
      for (int c1 = first1; c1 <= last1; ++c1) visit(c0 * axes[1].cells + c1);
    }
  };
  s.cell_start.assign(cells + 1, 0);
  for (int i = 0; i < nsap; ++i) for_cells(i, [&](int k) { ++s.cell_start[k + 1]; });
  for (int k = 0; k < cells; ++k) s.cell_start[k + 1] += s.cell_start[k];
  s.cell_items.resize(s.cell_start[cells]);
  s.cell_cursor.assign(s.cell_start.begin(), s.cell_start.end() - 1);
  for (int i = 0; i < nsap; ++i) for_cells(i, [&](int k) { s.cell_items[s.cell_cursor[k]++] = i; });
}

}  // namespace

void prepare_collision_tables(const Model& m, CollisionScratch& s) {
  if (s.model == &m && s.geom_count == m.geoms.count() && s.body_count == m.body_count() &&
      s.pair_count == m.pairs.count() && s.exclude_count == m.excludes.count()) {
    return;
  }
  const int nbody = m.body_count();
  const Geoms& g = m.geoms;
  s.body_geom_adr.assign(nbody, 0);
  s.body_geom_count.assign(nbody, 0);
  s.body_geoms.clear();
  s.body_global.assign(nbody, 0);
  s.weld_parent.assign(nbody, 0);
  s.sap_bodies.clear();
  for (int b = 0; b < nbody; ++b) {
    s.body_geom_adr[b] = static_cast<int>(s.body_geoms.size());
    const int first = m.bodies.geom_adr[b];
    for (int k = first; k < first + m.bodies.geom_count[b]; ++k) {
      // Geoms with neither bit never collide.
      if (g.contype[k] == 0 && g.conaffinity[k] == 0) continue;
      s.body_geoms.push_back(k);
      if (g.type[k] == GeomType::kPlane) s.body_global[b] = 1;
    }
    s.body_geom_count[b] = static_cast<int>(s.body_geoms.size()) - s.body_geom_adr[b];
    // The world, and static bodies with a plane (unbounded), pair with every body.
    if (b == 0 && s.body_geom_count[b] > 0) s.body_global[b] = 1;
    const int weld = m.bodies.weld[b];
    s.weld_parent[b] = m.bodies.weld[m.bodies.parent[weld]];
    if (s.body_geom_count[b] > 0 && !s.body_global[b]) s.sap_bodies.push_back(b);
  }
  // The bounded geoms of global bodies (walls, posts, steps beside a floor).
  s.global_box_geoms.clear();
  s.global_boxed.assign(nbody, 0);
  for (int b = 0; b < nbody; ++b) {
    if (!s.body_global[b]) continue;
    const int adr = s.body_geom_adr[b];
    for (int i = adr; i < adr + s.body_geom_count[b]; ++i) {
      const int k = s.body_geoms[i];
      if (g.type[k] == GeomType::kPlane || g.type[k] == GeomType::kHfield) continue;
      s.global_box_geoms.push_back(k);
      s.global_boxed[b] = 1;
    }
  }
  // Each mesh's hull box, for the narrow phase's box test.
  const Meshes& meshes = m.meshes;
  const int nmesh = static_cast<int>(meshes.hull_vert_adr.size());
  s.mesh_box.assign(6 * static_cast<size_t>(nmesh), 0.0);
  for (int mesh = 0; mesh < nmesh; ++mesh) {
    const int adr = meshes.hull_vert_adr[mesh], count = meshes.hull_vert_count[mesh];
    if (count <= 0) continue;
    Vector3d lo = meshes.hull_vertices[adr], hi = lo;
    for (int i = adr + 1; i < adr + count; ++i) {
      lo = lo.cwiseMin(meshes.hull_vertices[i]);
      hi = hi.cwiseMax(meshes.hull_vertices[i]);
    }
    for (int k = 0; k < 3; ++k) {
      s.mesh_box[6 * mesh + k] = 0.5 * (lo[k] + hi[k]);
      s.mesh_box[6 * mesh + 3 + k] = 0.5 * (hi[k] - lo[k]);
    }
  }
  // Explicit pairs in signature order (stable: declaration order within a body pair).
  const int npair = m.pairs.count();
  s.pair_order.resize(npair);
  for (int i = 0; i < npair; ++i) s.pair_order[i] = i;
  auto pair_sig = [&](int i) {
    return body_pair_signature(g.body[m.pairs.geom1[i]], g.body[m.pairs.geom2[i]]);
  };
  std::stable_sort(s.pair_order.begin(), s.pair_order.end(),
                   [&](int x, int y) { return pair_sig(x) < pair_sig(y); });
  s.pair_signature.resize(npair);
  for (int i = 0; i < npair; ++i) s.pair_signature[i] = pair_sig(s.pair_order[i]);
  s.exclude_signature.clear();
  for (int i = 0; i < m.excludes.count(); ++i) {
    s.exclude_signature.push_back(body_pair_signature(m.excludes.body1[i], m.excludes.body2[i]));
  }
  std::sort(s.exclude_signature.begin(), s.exclude_signature.end());
  s.box_lo.assign(3 * static_cast<size_t>(nbody), 0);
  s.box_hi.assign(3 * static_cast<size_t>(nbody), 0);
  s.geom_box.resize(6 * static_cast<size_t>(g.count()));
  for (int k = 0; k < g.count(); ++k) {
    for (int i = 0; i < 3; ++i) {
      s.geom_box[6 * k + i] = -INFINITY;
      s.geom_box[6 * k + 3 + i] = INFINITY;
    }
  }
  s.model = &m;
  s.geom_count = g.count();
  s.body_count = nbody;
  s.pair_count = npair;
  s.exclude_count = m.excludes.count();
}

void broadphase(const Model& m, const Data& d, CollisionScratch& s, ParallelLoop* loop) {
  const int threads = loop ? loop->threads() : 1;
  s.body_pairs.clear();
  const int nbody = m.body_count();
  // Global bodies with everything that has collidable geoms.
  for (int b1 = 0; b1 < nbody; ++b1) {
    if (!s.body_global[b1]) continue;
    for (int b2 = 0; b2 < nbody; ++b2) {
      if (b2 == b1 || s.body_geom_count[b2] == 0) continue;
      if (s.body_global[b2] && b2 < b1) continue;  // counted from the other side
      if (filtered_by_welds(m, s, b1, b2)) continue;
      s.body_pairs.push_back(body_pair_signature(b1, b2));
    }
  }
  // The global bodies' bounded geoms get world boxes: the narrow phase
  // compares each with the box of the body it is paired with.
  for (const int g : s.global_box_geoms) {
    const Vector3d r = geom_half_extents(m, d, g).array() + geom_margin(m, g);
    const Vector3d& c = d.geom_xpos[g];
    double* box = &s.geom_box[6 * static_cast<size_t>(g)];
    for (int k = 0; k < 3; ++k) {
      box[k] = c[k] - r[k];
      box[3 + k] = c[k] + r[k];
    }
  }
  // Bounding boxes of the other bodies.
  const int nsap = static_cast<int>(s.sap_bodies.size());
  Vector3d mean(0, 0, 0), mean_sq(0, 0, 0);
  for (int b : s.sap_bodies) {
    double* lo = &s.box_lo[3 * b];
    double* hi = &s.box_hi[3 * b];
    for (int k = 0; k < 3; ++k) {
      lo[k] = INFINITY;
      hi[k] = -INFINITY;
    }
    const int adr = s.body_geom_adr[b];
    for (int i = adr; i < adr + s.body_geom_count[b]; ++i) {
      const int g = s.body_geoms[i];
      const Vector3d r = geom_half_extents(m, d, g).array() + geom_margin(m, g);
      const Vector3d& c = d.geom_xpos[g];
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], c[k] - r[k]);
        hi[k] = std::max(hi[k], c[k] + r[k]);
      }
    }
    for (int k = 0; k < 3; ++k) {
      const double c = 0.5 * (lo[k] + hi[k]);
      mean[k] += c;
      mean_sq[k] += c * c;
    }
  }
  if (nsap > 1 && nsap <= kDirectBodies) {
    // A few bodies (a robot, a gripper): every pair's boxes are compared,
    // which costs less than sorting them and building the grid.
    for (int i = 0; i < nsap; ++i) {
      const int b1 = s.sap_bodies[i];
      const double* lo1 = &s.box_lo[3 * b1];
      const double* hi1 = &s.box_hi[3 * b1];
      for (int j = i + 1; j < nsap; ++j) {
        const int b2 = s.sap_bodies[j];
        const double* lo2 = &s.box_lo[3 * b2];
        const double* hi2 = &s.box_hi[3 * b2];
        if (lo2[0] > hi1[0] || lo1[0] > hi2[0] || lo2[1] > hi1[1] || lo1[1] > hi2[1] ||
            lo2[2] > hi1[2] || lo1[2] > hi2[2]) {
          continue;
        }
        if (filtered_by_welds(m, s, b1, b2)) continue;
        s.body_pairs.push_back(body_pair_signature(b1, b2));
      }
    }
  } else if (nsap > 1) {
    // Sweep along the axis of largest spread of the box centres, within
    // the cells of a grid across the other two.
    const Vector3d variance = mean_sq - mean.cwiseProduct(mean) / nsap;
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
      if (variance[k] > variance[axis]) axis = k;
    }
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    s.order.assign(s.sap_bodies.begin(), s.sap_bodies.end());
    std::sort(s.order.begin(), s.order.end(),
              [&](int x, int y) { return s.box_lo[3 * x + axis] < s.box_lo[3 * y + axis]; });
    // The boxes in sweep order, contiguous: (lo, hi) along the sweep axis, a1, a2.
    s.sweep.resize(6 * static_cast<size_t>(nsap));
    for (int i = 0; i < nsap; ++i) {
      const int b = s.order[i];
      double* w = &s.sweep[6 * i];
      for (const int k : {axis, a1, a2}) {
        *w++ = s.box_lo[3 * b + k];
        *w++ = s.box_hi[3 * b + k];
      }
    }
    GridAxis grid[2];
    grid_boxes(s, nsap, grid);
    const int cells = static_cast<int>(s.cell_start.size()) - 1;
    const auto sweep_cells = [&](int first, int last, std::vector<uint64_t>& out) {
      for (int cell = first; cell < last; ++cell) {
        const int* items = s.cell_items.data() + s.cell_start[cell];
        const int count = s.cell_start[cell + 1] - s.cell_start[cell];
        for (int x = 0; x < count; ++x) {
          const double* w1 = &s.sweep[6 * items[x]];
          for (int y = x + 1; y < count; ++y) {
            const double* w2 = &s.sweep[6 * items[y]];
            if (w2[0] > w1[1]) break;
            if (w2[2] > w1[3] || w1[2] > w2[3] || w2[4] > w1[5] || w1[4] > w2[5]) continue;
            // Both boxes reach the cell of their overlap's low corner: the
            // pair is reported there only, once.
            const int home = grid[0].cell_of(std::max(w1[2], w2[2])) * grid[1].cells +
                             grid[1].cell_of(std::max(w1[4], w2[4]));
            if (home != cell) continue;
            const int b1 = s.order[items[x]], b2 = s.order[items[y]];
            if (filtered_by_welds(m, s, b1, b2)) continue;
            out.push_back(body_pair_signature(b1, b2));
          }
        }
      }
    };
    if (threads <= 1 || nsap < kBodiesPerThread) {
      sweep_cells(0, cells, s.body_pairs);
    } else {
      // Slices of the cells on several threads: the pairs are sorted below,
      // so the slices' order does not matter.
      const int tasks = std::min(cells, kCellTasksPerThread * threads);
      std::vector<std::vector<uint64_t>>& found = s.task_pairs.value;
      if (static_cast<int>(found.size()) < tasks) found.resize(tasks);
      parallel_for(loop, tasks, [&](int task, int) {
        found[task].clear();
        sweep_cells(static_cast<int>(static_cast<long>(cells) * task / tasks),
                    static_cast<int>(static_cast<long>(cells) * (task + 1) / tasks), found[task]);
      });
      for (int task = 0; task < tasks; ++task) {
        s.body_pairs.insert(s.body_pairs.end(), found[task].begin(), found[task].end());
      }
    }
  }
  // Order by signature: counting sort on the lower body (the high 32 bits),
  // then insertion sort within each body's (short) run. The vectors keep
  // their capacity, so steady state allocates nothing.
  s.pairs_unsorted.swap(s.body_pairs);
  s.pair_bucket.assign(static_cast<size_t>(nbody) + 1, 0);
  for (const uint64_t sig : s.pairs_unsorted) ++s.pair_bucket[(sig >> 32) + 1];
  for (int b = 0; b < nbody; ++b) s.pair_bucket[b + 1] += s.pair_bucket[b];
  s.body_pairs.resize(s.pairs_unsorted.size());
  for (const uint64_t sig : s.pairs_unsorted) s.body_pairs[s.pair_bucket[sig >> 32]++] = sig;
  // pair_bucket[b] is now the end of body b's run (and the start of b + 1's).
  int start = 0;
  for (int b = 0; b < nbody; ++b) {
    const int end = s.pair_bucket[b];
    for (int i = start + 1; i < end; ++i) {
      const uint64_t sig = s.body_pairs[i];
      int j = i;
      for (; j > start && s.body_pairs[j - 1] > sig; --j) s.body_pairs[j] = s.body_pairs[j - 1];
      s.body_pairs[j] = sig;
    }
    start = end;
  }
  s.body_pairs.erase(std::unique(s.body_pairs.begin(), s.body_pairs.end()), s.body_pairs.end());
}

}  // namespace pliant::collision
