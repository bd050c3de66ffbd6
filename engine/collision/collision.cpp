// The collision stage: broadphase, filters, narrowphase dispatch, parameter
// mixing and contact frames (docs/physics.md §4 and §7).
//
// Contact order, as MuJoCo 2.2.2 produces it: body pairs in increasing
// (body1, body2) order; within a body pair, geoms of body1 (outer loop) and of
// body2 (inner loop) in id order; within a geom pair, the order of the pair
// function. In the default collision mode the explicit <pair>s are merged in by
// the signature of their bodies: all pairs whose signature is not greater than
// a body pair's come before it, and geom pairs that an explicit pair covers
// are skipped in the dynamic loop.

#include "engine/collision/collision.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/collision/broadphase.h"
#include "engine/collision/pair.h"
#include "engine/workspace.h"

namespace pliant {
namespace collision {

PairFunction pair_function(GeomType type1, GeomType type2) {
  using T = GeomType;
  if (type1 > type2) std::swap(type1, type2);
  // A height field meets every convex geom, not planes or other fields.
  if (type2 == T::kHfield) return nullptr;
  if (type1 == T::kHfield) return hfield_convex;
  if (type1 == T::kPlane) {
    switch (type2) {
      case T::kSphere:
        return plane_sphere;
      case T::kCapsule:
        return plane_capsule;
      case T::kCylinder:
        return plane_cylinder;
      case T::kBox:
        return plane_box;
      case T::kEllipsoid:
        return plane_convex;
      case T::kMesh:
        return plane_mesh;
      default:
        return nullptr;
    }
  }
  if (type1 == T::kSphere) {
    if (type2 == T::kSphere) return sphere_sphere;
    if (type2 == T::kCapsule) return sphere_capsule;
    if (type2 == T::kCylinder) return sphere_cylinder;
    if (type2 == T::kBox) return sphere_box;
  }
  if (type1 == T::kCapsule) {
    if (type2 == T::kCapsule) return capsule_capsule;
    if (type2 == T::kBox) return capsule_box;
  }
  if (type1 == T::kBox && type2 == T::kBox) return box_box;
  return convex_convex;
}

// Dot products in MuJoCo 3.3.8's order and normalisations by the reciprocal
// (the rest is element by element): the frame's last bits are its Jacobian
// rows'.
Matrix3d contact_frame(Vector3d n, const Vector3d& proposed) {
  normalize_or_x(n);
  Vector3d t1 = dot3(proposed, proposed) >= 0.25 ? proposed
                : n[1] < 0.5 && n[1] > -0.5      ? Vector3d(0, 1, 0)
                                                 : Vector3d(0, 0, 1);
  t1 -= n * dot3(n, t1);
  normalize_or_x(t1);
  Matrix3d frame;
  frame.row(0) = n;
  frame.row(1) = t1;
  frame.row(2) = n.cross(t1);
  return frame;
}

namespace {

constexpr double kMinFriction = 1e-5;  // MuJoCo's mjMINMU

GeomShape shape_of(const Model& m, const Data& d, int g) {
  GeomShape s;
  s.type = m.geoms.type[g];
  s.size = m.geoms.size[g];
  s.pos = d.geom_xpos[g];
  s.mat = d.geom_xmat[g];
  s.rbound = m.geoms.rbound[g];
  s.native_ccd = m.options.flags.nativeccd;
  s.multiccd = m.options.flags.multiccd;
  s.mpr_tolerance = m.options.mpr_tolerance;
  s.mpr_iterations = m.options.mpr_iterations;
  if (s.type == GeomType::kMesh) {
    const Meshes& me = m.meshes;
    const int mesh = m.geoms.data_id[g];
    if (mesh >= 0 && mesh < static_cast<int>(me.hull_vert_adr.size())) {
      const int adr = me.hull_vert_adr[mesh];
      s.hull.vertices = me.hull_vertices.data() + adr;
      s.hull.vertex_count = me.hull_vert_count[mesh];
      s.hull.neighbour_adr = me.hull_neighbour_adr.data() + adr;
      s.hull.neighbour_count = me.hull_neighbour_count.data() + adr;
      s.hull.neighbours = me.hull_neighbours.data();
      if (me.vert_count[mesh] < kHillClimbMin) {
        s.hull.scan_vertices = me.vertices.data() + me.vert_adr[mesh];
        s.hull.scan_count = me.vert_count[mesh];
      }
      // Only multi-contact collision reads the polygons.
      if (s.multiccd && !me.hull_vertex_id.empty()) {
        s.hull.vertex_id = me.hull_vertex_id.data() + adr;
      }
      if (s.multiccd && mesh < static_cast<int>(me.poly_adr.size())) {
        MeshPolygons& p = s.polygons;
        const int poly = me.poly_adr[mesh], vert = me.vert_adr[mesh];
        p.normal = me.poly_normal.data() + poly;
        p.vert_adr = me.poly_vert_adr.data() + poly;
        p.vert_num = me.poly_vert_num.data() + poly;
        p.vert = me.poly_vert.data();
        p.map_adr = me.polymap_adr.data() + vert;
        p.map_num = me.polymap_num.data() + vert;
        p.map = me.polymap.data();
        p.vertices = me.vertices.data() + vert;
      }
    }
  }
  if (s.type == GeomType::kHfield) {
    const Hfields& h = m.hfields;
    const int field = m.geoms.data_id[g];
    if (field >= 0 && field < h.count()) {
      s.hfield.elevation = h.data.data() + h.adr[field];
      s.hfield.nrow = h.nrow[field];
      s.hfield.ncol = h.ncol[field];
      s.hfield.size = h.size[field];
    }
  }
  return s;
}

struct ContactParams {
  int condim;
  Vector5d friction;
  SolRef solref;
  SolImp solimp;
  double margin, gap;
  SolRef solreffriction{0, 0};  // explicit pairs only
};

// Mixing of two geoms' parameters (docs/physics.md §4): the higher priority
// wins; equal priority takes the larger condim and frictions, and averages
// solref and solimp weighted by solmix (element-wise minimum of solref when
// either uses the direct form).
ContactParams mix_params(const Model& m, int g1, int g2) {
  const Geoms& g = m.geoms;
  ContactParams p;
  p.margin = std::max(g.margin[g1], g.margin[g2]);
  p.gap = std::max(g.gap[g1], g.gap[g2]);
  Vector3d f;
  if (g.priority[g1] != g.priority[g2]) {
    const int w = g.priority[g1] > g.priority[g2] ? g1 : g2;
    p.condim = g.condim[w];
    f = g.friction[w];
    p.solref = g.solref[w];
    p.solimp = g.solimp[w];
  } else {
    p.condim = std::max(g.condim[g1], g.condim[g2]);
    f = g.friction[g1].cwiseMax(g.friction[g2]);
    const double s1 = g.solmix[g1], s2 = g.solmix[g2];
    double mix;
    if (s1 >= kMinValue && s2 >= kMinValue) {
      mix = s1 / (s1 + s2);
    } else if (s1 < kMinValue && s2 < kMinValue) {
      mix = 0.5;
    } else {
      mix = s1 < kMinValue ? 0.0 : 1.0;
    }
    const SolRef& r1 = g.solref[g1];
    const SolRef& r2 = g.solref[g2];
    if (r1.timeconst > 0 && r2.timeconst > 0) {
      p.solref = {mix * r1.timeconst + (1 - mix) * r2.timeconst,
                  mix * r1.dampratio + (1 - mix) * r2.dampratio};
    } else {
      p.solref = {std::min(r1.timeconst, r2.timeconst), std::min(r1.dampratio, r2.dampratio)};
    }
    const SolImp& i1 = g.solimp[g1];
    const SolImp& i2 = g.solimp[g2];
    p.solimp = {mix * i1.dmin + (1 - mix) * i2.dmin, mix * i1.dmax + (1 - mix) * i2.dmax,
                mix * i1.width + (1 - mix) * i2.width, mix * i1.midpoint + (1 - mix) * i2.midpoint,
                mix * i1.power + (1 - mix) * i2.power};
  }
  p.friction << f[0], f[0], f[1], f[2], f[2];
  return p;
}

ContactParams pair_params(const Model& m, int ipair) {
  const Pairs& p = m.pairs;
  return {p.condim[ipair], p.friction[ipair], p.solref[ipair],        p.solimp[ipair],
          p.margin[ipair], p.gap[ipair],      p.solreffriction[ipair]};
}

// The box around geom g in its own frame (centre and half extents), or
// false for a plane or height field (unbounded, or left to its own test).
bool local_box(const Model& m, const CollisionScratch& s, int g, Vector3d& centre, Vector3d& half) {
  const Vector3d& size = m.geoms.size[g];
  centre.setZero();
  switch (m.geoms.type[g]) {
    case GeomType::kSphere:
      half.setConstant(size[0]);
      return true;
    case GeomType::kCapsule:
      half = Vector3d(size[0], size[0], size[0] + size[1]);
      return true;
    case GeomType::kCylinder:
      half = Vector3d(size[0], size[0], size[1]);
      return true;
    case GeomType::kEllipsoid:
    case GeomType::kBox:
      half = size;
      return true;
    case GeomType::kMesh: {
      const int mesh = m.geoms.data_id[g];
      if (mesh < 0 || 6 * static_cast<size_t>(mesh) >= s.mesh_box.size()) return false;
      const double* box = s.mesh_box.data() + 6 * mesh;
      centre = Vector3d(box[0], box[1], box[2]);
      half = Vector3d(box[3], box[4], box[5]);
      return true;
    }
    default:
      return false;
  }
}

// Whether the boxes of geoms g1 and g2 (local_box, placed by the geoms'
// frames) are farther apart than `margin` along one of their six face
// axes, or g2's box lies above the plane g1 by more than `margin`: the
// geoms then make no contact. A mesh's pair functions find that
// out by GJK, which costs tens of support searches; this costs a few dot
// products.
bool boxes_apart(const Model& m, const Data& d, const CollisionScratch& s, int g1, int g2,
                 double margin) {
  Vector3d c1, h1, c2, h2;
  if (m.geoms.type[g1] == GeomType::kPlane) {
    // The plane's half space (unbounded across) against g2's box.
    if (!local_box(m, s, g2, c2, h2)) return false;
    const Vector3d normal = d.geom_xmat[g1].col(2);
    const Matrix3d& r2 = d.geom_xmat[g2];
    const double height = normal.dot(d.geom_xpos[g2] + r2 * c2 - d.geom_xpos[g1]);
    const double reach = (r2.transpose() * normal).cwiseAbs().dot(h2);
    return height - reach > margin + 1e-12 * h2.sum();
  }
  if (!local_box(m, s, g1, c1, h1) || !local_box(m, s, g2, c2, h2)) return false;
  const Matrix3d& r1 = d.geom_xmat[g1];
  const Matrix3d& r2 = d.geom_xmat[g2];
  const Vector3d between = d.geom_xpos[g2] + r2 * c2 - d.geom_xpos[g1] - r1 * c1;
  const Matrix3d turn = (r1.transpose() * r2).cwiseAbs();
  const Vector3d in1 = r1.transpose() * between, in2 = r2.transpose() * between;
  const Vector3d reach1 = h1 + turn * h2, reach2 = h2 + turn.transpose() * h1;
  // A hair of slack keeps a pair whose boxes touch within rounding.
  const double slack = margin + 1e-12 * (h1.sum() + h2.sum());
  for (int k = 0; k < 3; ++k) {
    if (std::abs(in1[k]) > reach1[k] + slack || std::abs(in2[k]) > reach2[k] + slack) return true;
  }
  return false;
}

// Narrowphase of one geom pair with its parameters (ipair >= 0: explicit
// pair): its contacts are appended to `out`.
void collide_geoms(const Model& m, const Data& d, const CollisionScratch& s, int g1, int g2,
                   int ipair, std::vector<Contact>& out) {
  if (m.geoms.type[g1] > m.geoms.type[g2]) std::swap(g1, g2);
  const PairFunction fn = pair_function(m.geoms.type[g1], m.geoms.type[g2]);
  if (fn == nullptr) return;
  // The margin first (an explicit pair's own, else the larger geom margin);
  // the other parameters are mixed only for pairs that make contacts.
  double margin =
      ipair >= 0 ? m.pairs.margin[ipair] : std::max(m.geoms.margin[g1], m.geoms.margin[g2]);
  if (m.options.flags.override_contacts) margin = m.options.o_margin;
  // Bounding spheres (planes have none).
  const double rb1 = m.geoms.rbound[g1], rb2 = m.geoms.rbound[g2];
  if (rb1 > 0 && rb2 > 0 && (d.geom_xpos[g1] - d.geom_xpos[g2]).norm() > margin + rb1 + rb2) {
    return;
  }
  // Boxes, for pairs with a mesh (the costly ones).
  const bool has_mesh = m.geoms.type[g1] == GeomType::kMesh || m.geoms.type[g2] == GeomType::kMesh;
  if (has_mesh && boxes_apart(m, d, s, g1, g2, margin)) return;
  // One buffer per thread: a local array would be value-initialised (4 kB)
  // for every pair the broadphase passes. Pair functions that propose no
  // tangent leave it untouched, so used entries get a zero tangent back below.
  static thread_local RawContact raw[kMaxPairContacts];
  const int count = fn(shape_of(m, d, g1), shape_of(m, d, g2), margin, raw);
  if (count == 0) return;
  ContactParams p = ipair >= 0 ? pair_params(m, ipair) : mix_params(m, g1, g2);
  p.margin = margin;
  // The override flag replaces every contact's parameters with the
  // option's o_margin, o_solref, o_solimp and (MuJoCo 3.x) o_friction.
  if (m.options.flags.override_contacts) {
    p.solref = m.options.o_solref;
    p.solreffriction = m.options.o_solref;  // as MuJoCo 3.3.8 assigns both
    p.solimp = m.options.o_solimp;
    p.friction = m.options.o_friction;
  }
  // A pair's contacts often share their normal and proposed tangent (a box
  // on a plane: all four): the frame, a function of the two, is kept while
  // they repeat bit for bit (so -0 is never taken for 0).
  const auto same_bits = [](const Vector3d& a, const Vector3d& b) {
    return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0;
  };
  int framed = -1;
  Matrix3d frame = Matrix3d::Identity();
  for (int k = 0; k < count; ++k) {
    // Never hand out non-finite contacts (degenerate input such as NaN poses).
    if (!std::isfinite(raw[k].dist) || !raw[k].pos.allFinite() || !raw[k].normal.allFinite()) {
      continue;
    }
    if (framed < 0 || !same_bits(raw[k].normal, raw[framed].normal) ||
        !same_bits(raw[k].tangent, raw[framed].tangent)) {
      frame = contact_frame(raw[k].normal, raw[k].tangent);
      framed = k;
    }
    Contact& c = out.emplace_back();
    c.dist = raw[k].dist;
    c.pos = raw[k].pos;
    c.frame = frame;
    c.includemargin = p.margin - p.gap;
    for (int i = 0; i < 5; ++i) c.friction[i] = std::max(p.friction[i], kMinFriction);
    c.solref = p.solref;
    c.solreffriction = p.solreffriction;
    c.solimp = p.solimp;
    c.mu = 0;
    c.dim = p.condim;
    c.geom1 = g1;
    c.geom2 = g2;
    c.efc_address = -1;
  }
  for (int k = 0; k < count; ++k) raw[k].tangent.setZero();
}

// Whether the world box of geom g of a global body (CollisionScratch::
// geom_box) and the box of body b (box_lo, box_hi: the union of its geoms'
// boxes), each grown by its geoms' margins, are apart: g then makes no
// contact with any geom of b. The world and the static bodies with a plane
// pair with every body, and a few comparisons here spare each of their
// other geoms (walls, posts, steps) the narrow phase with every body of the
// scene.
bool geom_apart_from_body(const CollisionScratch& s, int g, int b) {
  const double* box = &s.geom_box[6 * static_cast<size_t>(g)];
  const double* lo = &s.box_lo[3 * static_cast<size_t>(b)];
  const double* hi = &s.box_hi[3 * static_cast<size_t>(b)];
  return lo[0] > box[3] || box[0] > hi[0] || lo[1] > box[4] || box[1] > hi[1] || lo[2] > box[5] ||
         box[2] > hi[2];
}

bool bits_match(const Model& m, int g1, int g2) {
  const Geoms& g = m.geoms;
  return (g.contype[g1] & g.conaffinity[g2]) || (g.contype[g2] & g.conaffinity[g1]);
}

// Whether (g1, g2) is an explicit pair among the sorted pairs [first, last).
bool is_explicit(const Model& m, const CollisionScratch& s, int first, int last, int g1, int g2) {
  for (int i = first; i < last; ++i) {
    const int p = s.pair_order[i];
    const int a = m.pairs.geom1[p], b = m.pairs.geom2[p];
    if ((a == g1 && b == g2) || (a == g2 && b == g1)) return true;
  }
  return false;
}

// The geom pairs the narrow phase examines, in contact order:
// visit(g1, g2, ipair) for each (ipair >= 0: an explicit pair).
template <class Visit>
void for_each_candidate(const Model& m, const Data& d, Workspace& w, ParallelLoop* loop,
                        Visit&& visit) {
  CollisionScratch& s = w.collision;
  const int npair = m.pairs.count();
  if (m.options.collision == CollisionMode::kPair) {
    for (int i = 0; i < npair; ++i) {
      const int p = s.pair_order[i];
      visit(m.pairs.geom1[p], m.pairs.geom2[p], p);
    }
    return;
  }
  broadphase(m, d, s, loop);
  const bool merge = m.options.collision == CollisionMode::kAll && npair > 0;
  int next_pair = 0;
  size_t next_exclude = 0;
  const size_t nexclude = s.exclude_signature.size();
  const bool any_boxed = !s.global_box_geoms.empty();
  for (const uint64_t signature : s.body_pairs) {
    // Explicit pairs up to this signature come first.
    int same_first = next_pair;
    if (merge) {
      while (next_pair < npair && s.pair_signature[next_pair] <= signature) {
        if (s.pair_signature[next_pair] < signature) same_first = next_pair + 1;
        const int p = s.pair_order[next_pair++];
        visit(m.pairs.geom1[p], m.pairs.geom2[p], p);
      }
    }
    const bool merged = merge && same_first < next_pair;
    while (next_exclude < nexclude && s.exclude_signature[next_exclude] < signature) {
      ++next_exclude;
    }
    if (next_exclude < nexclude && s.exclude_signature[next_exclude] == signature) continue;
    const int b1 = static_cast<int>(signature >> 32);
    const int b2 = static_cast<int>(signature & 0xffffffffu);
    const int adr1 = s.body_geom_adr[b1], adr2 = s.body_geom_adr[b2];
    // A global body with geoms of bounded shape, paired with a body of the
    // sweep (which has a box): each such geom against that box first. The
    // loops are written twice (kBoxed) so that other pairs pay no test.
    const auto geom_pairs = [&]<bool kBoxed>(std::bool_constant<kBoxed>) {
      for (int i = adr1; i < adr1 + s.body_geom_count[b1]; ++i) {
        const int g1 = s.body_geoms[i];
        if (kBoxed && s.body_global[b1] && geom_apart_from_body(s, g1, b2)) continue;
        for (int j = adr2; j < adr2 + s.body_geom_count[b2]; ++j) {
          const int g2 = s.body_geoms[j];
          if (kBoxed && s.body_global[b2] && geom_apart_from_body(s, g2, b1)) continue;
          if (!bits_match(m, g1, g2)) continue;
          if (merged && is_explicit(m, s, same_first, next_pair, g1, g2)) continue;
          visit(g1, g2, -1);
        }
      }
    };
    if (any_boxed && s.body_global[b1] != s.body_global[b2] &&
        (s.global_boxed[b1] || s.global_boxed[b2])) {
      geom_pairs(std::true_type{});
    } else {
      geom_pairs(std::false_type{});
    }
  }
  if (merge) {
    while (next_pair < npair) {
      const int p = s.pair_order[next_pair++];
      visit(m.pairs.geom1[p], m.pairs.geom2[p], p);
    }
  }
}

// Below this many candidate pairs a thread's start costs more than the
// pairs; each thread takes about this many pairs at a time above it.
constexpr int kPairsPerTask = 64;

}  // namespace
}  // namespace collision

void collide(const Model& m, Data& d) {
  PoolLoop loop(workspace(d).pool, d.threads);
  collide(m, d, d.threads > 1 ? &loop : nullptr);
}

void collide(const Model& m, Data& d, ParallelLoop* loop) {
  using namespace collision;
  d.contacts.clear();
  const OptionFlags& flags = m.options.flags;
  if (!flags.constraint || !flags.contact || m.body_count() < 2) return;
  Workspace& w = workspace(d);
  CollisionScratch& s = w.collision;
  prepare_collision_tables(m, s);
  if (loop == nullptr || loop->threads() <= 1) {
    for_each_candidate(m, d, w, nullptr, [&](int g1, int g2, int ipair) {
      collide_geoms(m, d, s, g1, g2, ipair, d.contacts);
    });
    return;
  }
  // Several threads: the candidates are listed, collided in slices of
  // their own, and the slices' contacts joined in the candidates' order,
  // so the contacts are those of one thread, in the same order.
  s.candidates.clear();
  for_each_candidate(m, d, w, loop, [&](int g1, int g2, int ipair) {
    s.candidates.push_back({g1, g2, ipair});
  });
  const int count = static_cast<int>(s.candidates.size());
  const int tasks = (count + kPairsPerTask - 1) / kPairsPerTask;
  if (static_cast<int>(s.task_contacts.value.size()) < tasks) s.task_contacts.value.resize(tasks);
  parallel_for(loop, tasks, [&](int task, int) {
    std::vector<Contact>& out = s.task_contacts.value[task];
    out.clear();
    const int end = std::min(count, (task + 1) * kPairsPerTask);
    for (int i = task * kPairsPerTask; i < end; ++i) {
      const CandidatePair& c = s.candidates[i];
      collide_geoms(m, d, s, c.geom1, c.geom2, c.pair, out);
    }
  });
  for (int task = 0; task < tasks; ++task) {
    d.contacts.insert(d.contacts.end(), s.task_contacts.value[task].begin(),
                      s.task_contacts.value[task].end());
  }
}

double geom_distance(const Model& m, const Data& d, int geom1, int geom2, double distmax,
                     double fromto[6]) {
  using namespace collision;
  if (fromto) std::fill(fromto, fromto + 6, 0.0);
  auto put_fromto = [fromto](const Vector3d& from, const Vector3d& to) {
    for (int i = 0; i < 3; ++i) {
      fromto[i] = from[i];
      fromto[3 + i] = to[i];
    }
  };
  const bool flip = m.geoms.type[geom1] > m.geoms.type[geom2];
  if (flip) std::swap(geom1, geom2);
  const PairFunction fn = pair_function(m.geoms.type[geom1], m.geoms.type[geom2]);
  if (fn == nullptr) return distmax;
  if (m.options.flags.nativeccd && (fn == convex_convex || fn == box_box)) {
    // General convex pairs and boxes are measured by GJK (EPA when they
    // overlap), as MuJoCo 3.3.8 does with its native convex collision.
    double dist;
    Vector3d pa, pb;
    if (!ccd_distance(shape_of(m, d, geom1), shape_of(m, d, geom2), distmax, &dist, &pa, &pb)) {
      return distmax;
    }
    if (fromto) put_fromto(flip ? pb : pa, flip ? pa : pb);  // from the caller's geom1
    return dist;
  }
  static thread_local RawContact raw[kMaxPairContacts];
  const int count = fn(shape_of(m, d, geom1), shape_of(m, d, geom2), distmax, raw);
  double dist = distmax;
  int nearest = -1;
  for (int k = 0; k < count; ++k) {
    if (raw[k].dist < dist) {
      dist = raw[k].dist;
      nearest = k;
    }
  }
  for (int k = 0; k < count; ++k) raw[k].tangent.setZero();
  if (fromto && nearest >= 0) {
    // The contact normal points from the first geom of the ordered pair.
    Vector3d normal = raw[nearest].normal;
    normalize_or_x(normal);
    if (flip) normal = -normal;
    const Vector3d half = normal * (dist / 2);
    put_fromto(raw[nearest].pos - half, raw[nearest].pos + half);
  }
  return dist;
}

}  // namespace pliant
