#include "engine/collision/broadphase.h"

#include <algorithm>
#include <cmath>

namespace pliant::collision {
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

// Cuts the boxes (in sweep order, s.sweep) into strips across one axis
// (the interval at offset `across` of each box's sweep entry), at least as
// wide as the widest box, so that two boxes overlapping across share a
// strip; each box joins every strip it reaches, keeping sweep order. A
// pair met in two strips is reported twice and merged with the rest. Sweep
// and prune along one axis alone compares every box with all that overlap
// it there (a whole row of a wide pile); within a strip, only its
// neighbours. One strip, the plain sweep, when the boxes are not finite or
// a box is as wide as the spread.
void strip_boxes(CollisionScratch& s, int nsap, int across) {
  double low = INFINITY, high = -INFINITY, widest = 0;
  bool finite = true;
  for (int i = 0; i < nsap; ++i) {
    const double lo = s.sweep[6 * i + across], hi = s.sweep[6 * i + across + 1];
    finite = finite && std::isfinite(lo) && std::isfinite(hi);
    low = std::min(low, lo);
    high = std::max(high, hi);
    widest = std::max(widest, hi - lo);
  }
  const double spread = high - low;
  const double width = std::max(widest, spread / nsap);
  int strips = 1;
  if (finite && std::isfinite(spread) && width > 0) {
    strips = std::min(nsap, static_cast<int>(spread / width) + 1);
  }
  auto strip_of = [&](double v) {
    if (strips == 1) return 0;
    return std::min(strips - 1, static_cast<int>((v - low) / width));
  };
  s.strip_start.assign(strips + 1, 0);
  for (int i = 0; i < nsap; ++i) {
    const int first = strip_of(s.sweep[6 * i + across]);
    const int last = strip_of(s.sweep[6 * i + across + 1]);
    for (int k = first; k <= last; ++k) ++s.strip_start[k + 1];
  }
  for (int k = 0; k < strips; ++k) s.strip_start[k + 1] += s.strip_start[k];
  s.strip_items.resize(s.strip_start[strips]);
  s.strip_cursor.assign(s.strip_start.begin(), s.strip_start.end() - 1);
  for (int i = 0; i < nsap; ++i) {
    const int first = strip_of(s.sweep[6 * i + across]);
    const int last = strip_of(s.sweep[6 * i + across + 1]);
    for (int k = first; k <= last; ++k) s.strip_items[s.strip_cursor[k]++] = i;
  }
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
  s.model = &m;
  s.geom_count = g.count();
  s.body_count = nbody;
  s.pair_count = npair;
  s.exclude_count = m.excludes.count();
}

void broadphase(const Model& m, const Data& d, CollisionScratch& s) {
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
      const double r = m.geoms.rbound[g] + geom_margin(m, g);
      const Vector3d& c = d.geom_xpos[g];
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], c[k] - r);
        hi[k] = std::max(hi[k], c[k] + r);
      }
    }
    for (int k = 0; k < 3; ++k) {
      const double c = 0.5 * (lo[k] + hi[k]);
      mean[k] += c;
      mean_sq[k] += c * c;
    }
  }
  if (nsap > 1) {
    // Sweep along the axis of largest spread of the box centres, within
    // strips across the axis of second largest spread.
    const Vector3d variance = mean_sq - mean.cwiseProduct(mean) / nsap;
    int axis = 0;
    for (int k = 1; k < 3; ++k) {
      if (variance[k] > variance[axis]) axis = k;
    }
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    const int across = variance[a1] >= variance[a2] ? a1 : a2;
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
    strip_boxes(s, nsap, across == a1 ? 2 : 4);
    const int strips = static_cast<int>(s.strip_start.size()) - 1;
    for (int strip = 0; strip < strips; ++strip) {
      const int* items = s.strip_items.data() + s.strip_start[strip];
      const int count = s.strip_start[strip + 1] - s.strip_start[strip];
      for (int x = 0; x < count; ++x) {
        const double* w1 = &s.sweep[6 * items[x]];
        for (int y = x + 1; y < count; ++y) {
          const double* w2 = &s.sweep[6 * items[y]];
          if (w2[0] > w1[1]) break;
          if (w2[2] > w1[3] || w1[2] > w2[3] || w2[4] > w1[5] || w1[4] > w2[5]) continue;
          const int b1 = s.order[items[x]], b2 = s.order[items[y]];
          if (filtered_by_welds(m, s, b1, b2)) continue;
          s.body_pairs.push_back(body_pair_signature(b1, b2));
        }
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
