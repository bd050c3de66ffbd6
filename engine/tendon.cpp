#include "engine/tendon.h"

#include <algorithm>
#include <cmath>

#include "engine/kinematics.h"
#include "engine/point_motion.h"
#include "engine/spatial.h"
#include "model/numeric_limits.h"

namespace pliant {
namespace {

using Eigen::Vector2d;

// ten_J(row, :) += scale * direction . Jp, with Jp the translational Jacobian
// of the world point `point` attached to `body`: for each dof k that moves
// the body, column k is linear(cdof_k) + angular(cdof_k) x (point -
// subtree_com[root]), the com-based velocity of that point per unit qvel_k.
void add_point_jacobian(const Model& m, Data& d, int row, int body, const Vector3d& point,
                        const Vector3d& direction, double scale) {
  const Vector3d offset = point - d.subtree_com[m.bodies.root[body]];
  for (int k = last_dof_of_chain(m, body); k >= 0; k = m.dofs.parent[k]) {
    const Vector3d w = angular(d.cdof[k]);
    d.ten_J(row, k) += scale * direction.dot(linear(d.cdof[k]) + w.cross(offset));
  }
}

// One straight piece of a spatial tendon from point a (on body_a) to point b
// (on body_b), divided by the current pulley divisor:
//   length += |b - a| / divisor,  J += u^T (Jp_b - Jp_a) / divisor,
// with u = (b - a) / |b - a|, the rate of change of the distance.
void add_segment(const Model& m, Data& d, int row, int body_a, const Vector3d& a, int body_b,
                 const Vector3d& b, double divisor) {
  const Vector3d v = b - a;
  const double length = v.norm();
  d.ten_length[row] += length / divisor;
  if (length < kMinValue) return;
  const Vector3d u = v / length;
  add_point_jacobian(m, d, row, body_b, b, u, 1.0 / divisor);
  add_point_jacobian(m, d, row, body_a, a, u, -1.0 / divisor);
}

double cross2(const Vector2d& a, const Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// Counter-clockwise angle from a to b, in [0, 2 pi).
double ccw_angle(const Vector2d& a, const Vector2d& b) {
  double angle = std::atan2(cross2(a, b), a.dot(b));
  if (angle < 0) angle += 2 * M_PI;
  return angle;
}

// The point where the line from p (outside the circle of radius r about the
// origin) touches the circle. sign +1 picks the tangent along which the path
// p -> t continues counter-clockwise around the circle, -1 clockwise:
//   t = (r^2 / d^2) p + sign (r / d^2) sqrt(d^2 - r^2) perp(p),  d = |p|,
// with perp(p) = p turned by +90 degrees.
Vector2d tangent_point(const Vector2d& p, double r, double sign) {
  const double d2 = p.squaredNorm();
  const Vector2d perp(-p.y(), p.x());
  return (r * r / d2) * p + (sign * r * std::sqrt(d2 - r * r) / d2) * perp;
}

// True when the segments a0-a1 and b0-b1 properly cross: each segment's
// endpoints lie strictly on opposite sides of the other's line.
bool segments_cross(const Vector2d& a0, const Vector2d& a1, const Vector2d& b0,
                    const Vector2d& b1) {
  const Vector2d a = a1 - a0, b = b1 - b0;
  const double s0 = cross2(a, b0 - a0), s1 = cross2(a, b1 - a0);
  const double s2 = cross2(b, a0 - b0), s3 = cross2(b, a1 - b0);
  return s0 * s1 < 0 && s2 * s3 < 0;
}

struct CircleWrap {
  Vector2d t0, t1;   // where the path touches the circle, from p0's side and from p1's
  double angle = 0;  // rad, arc swept from t0 to t1
};

// The shortest path from p0 to p1 around a circle of radius r centred at the
// origin, in the plane: straight to a tangent point t0, along the arc to t1,
// straight to p1. Returns false when the path does not touch the circle: an
// end inside it, ends that coincide, or a straight segment that misses the
// circle (unless a side point is given and lies on the other side of the
// centre from the segment's point nearest the centre, which forces the
// path around that side). Of the two ways around (counter-clockwise t0 from
// the +1 tangent of p0 and the -1 tangent of p1, or clockwise), the path
// takes the shorter arc, or with a side point the one whose chord midpoint
// (t0 + t1) / 2 points most towards it; a way whose two straight pieces
// cross (a loop) is taken only when both do, and then the counter-clockwise
// one.
bool wrap_circle(const Vector2d& p0, const Vector2d& p1, const Vector2d* side, double r,
                 CircleWrap& out) {
  const double r2 = r * r;
  if (r < kMinValue || p0.squaredNorm() < r2 || p1.squaredNorm() < r2) return false;
  const Vector2d dif = p1 - p0;
  const double dd = dif.squaredNorm();
  if (dd < kMinValue) return false;
  const double a = std::clamp(-dif.dot(p0) / dd, 0.0, 1.0);
  const Vector2d nearest = p0 + a * dif;
  if (nearest.squaredNorm() > r2 && (side == nullptr || side->dot(nearest) >= 0)) return false;

  bool best_loops = true;
  double best_score = -INFINITY;
  for (const double sense : {1.0, -1.0}) {
    CircleWrap c;
    c.t0 = tangent_point(p0, r, sense);
    c.t1 = tangent_point(p1, r, -sense);
    c.angle = sense > 0 ? ccw_angle(c.t0, c.t1) : ccw_angle(c.t1, c.t0);
    // Side preference: the chord midpoint (t0 + t1) / 2 towards the side
    // point; without one, the shorter arc. A way around whose straight
    // pieces p0-t0 and t1-p1 cross each other (a loop around the geom)
    // ranks last.
    const double score = side == nullptr ? -c.angle : (c.t0 + c.t1).dot(*side);
    const bool loops = segments_cross(p0, c.t0, p1, c.t1);
    if ((best_loops && !loops) || (loops == best_loops && score > best_score)) {
      best_loops = loops;
      best_score = score;
      out = c;
    }
  }
  return true;
}

// Wrapping of the straight piece p0 -> p1 (world) around a sphere or
// cylinder geom. On success the path is p0 -> w0 -> (arc of `arc_length`)
// -> w1 -> p1 with w0, w1 in world coordinates.
// Sphere: the shortest path lies in the plane through the centre, p0 and p1;
// it is the circle problem in that plane (the side point projected into it).
// Cylinder (axis = geom z): the circle problem on the xy projection; the
// height rises linearly with the projected path length, so the arc is a
// helix of length sqrt((r angle)^2 + dz^2).
bool wrap_geom(const Model& m, const Data& d, int geom, int side_site, const Vector3d& p0_world,
               const Vector3d& p1_world, Vector3d& w0, Vector3d& w1, double& arc_length) {
  const Vector3d& centre = d.geom_xpos[geom];
  const Matrix3d& rot = d.geom_xmat[geom];
  const double r = m.geoms.size[geom][0];
  const Vector3d p0 = rot.transpose() * (p0_world - centre);
  const Vector3d p1 = rot.transpose() * (p1_world - centre);
  Vector3d side3(0, 0, 0);
  if (side_site >= 0) side3 = rot.transpose() * (d.site_xpos[side_site] - centre);
  CircleWrap c;
  Vector3d t0, t1;
  if (m.geoms.type[geom] == GeomType::kSphere) {
    // In-plane axes: e0 along p0, e1 perpendicular to it towards p1.
    Vector3d normal = p0.cross(p1);
    if (normal.squaredNorm() < kMinValue) {
      // p0, centre and p1 in a line: any plane through them is a shortest
      // path; take the one containing the side point, else a fixed one.
      normal = p0.cross(side3);
      if (normal.squaredNorm() < kMinValue) normal = p0.cross(Vector3d::UnitZ());
      if (normal.squaredNorm() < kMinValue) normal = p0.cross(Vector3d::UnitY());
    }
    const Vector3d e0 = p0.normalized();
    const Vector3d e1 = normal.cross(e0).normalized();
    const Vector2d q0(p0.dot(e0), p0.dot(e1)), q1(p1.dot(e0), p1.dot(e1));
    const Vector2d side(side3.dot(e0), side3.dot(e1));
    if (!wrap_circle(q0, q1, side_site >= 0 ? &side : nullptr, r, c)) return false;
    t0 = c.t0.x() * e0 + c.t0.y() * e1;
    t1 = c.t1.x() * e0 + c.t1.y() * e1;
    arc_length = r * c.angle;
  } else {
    const Vector2d q0 = p0.head<2>(), q1 = p1.head<2>(), side = side3.head<2>();
    if (!wrap_circle(q0, q1, side_site >= 0 ? &side : nullptr, r, c)) return false;
    const double l0 = (q0 - c.t0).norm(), arc = r * c.angle, l1 = (q1 - c.t1).norm();
    const double total = l0 + arc + l1;
    const double dz = p1.z() - p0.z();
    const double z0 = total > kMinValue ? p0.z() + dz * l0 / total : p0.z();
    const double z1 = total > kMinValue ? p0.z() + dz * (l0 + arc) / total : p0.z();
    t0 = Vector3d(c.t0.x(), c.t0.y(), z0);
    t1 = Vector3d(c.t1.x(), c.t1.y(), z1);
    arc_length = std::sqrt(arc * arc + (z1 - z0) * (z1 - z0));
  }
  w0 = centre + rot * t0;
  w1 = centre + rot * t1;
  return true;
}

// A spatial tendon's path: sites joined by straight pieces, a geom between
// two sites wrapping the piece around it, and pulleys that end one branch
// and divide the length (and Jacobian) of the pieces after them by their
// divisor. Calls piece(body_a, a, body_b, b, divisor) for each straight
// piece from point a on body_a to point b on body_b, and arc(length,
// divisor) for each arc around a geom. The tangent points move with the
// geom, so each straight piece ending on the geom is attached to the geom's
// body there; the arc adds length only (its endpoints slide freely, so the
// first-order change of the total is carried by the straight pieces).
template <class Piece, class Arc>
void walk_spatial(const Model& m, const Data& d, int t, Piece piece, Arc arc) {
  const Tendons& ten = m.tendons;
  const int begin = ten.wrap_adr[t], end = begin + ten.wrap_count[t];
  double divisor = 1;
  for (int j = begin; j < end - 1; ++j) {
    const WrapType type = ten.wrap_type[j];
    if (type == WrapType::kPulley) {
      divisor = ten.wrap_prm[j];
      continue;
    }
    if (type != WrapType::kSite) continue;
    const WrapType next = ten.wrap_type[j + 1];
    const int s0 = ten.wrap_obj[j];
    const int body0 = m.sites.body[s0];
    const Vector3d& p0 = d.site_xpos[s0];
    if (next == WrapType::kSite) {
      const int s1 = ten.wrap_obj[j + 1];
      piece(body0, p0, m.sites.body[s1], d.site_xpos[s1], divisor);
    } else if ((next == WrapType::kSphere || next == WrapType::kCylinder) && j + 2 < end) {
      const int geom = ten.wrap_obj[j + 1];
      const int side_site = static_cast<int>(ten.wrap_prm[j + 1]);
      const int s1 = ten.wrap_obj[j + 2];
      const int body1 = m.sites.body[s1];
      const Vector3d& p1 = d.site_xpos[s1];
      Vector3d w0, w1;
      double arc_length = 0;
      if (wrap_geom(m, d, geom, side_site, p0, p1, w0, w1, arc_length)) {
        const int geom_body = m.geoms.body[geom];
        piece(body0, p0, geom_body, w0, divisor);
        arc(arc_length, divisor);
        piece(geom_body, w1, body1, p1, divisor);
      } else {
        piece(body0, p0, body1, p1, divisor);
      }
      ++j;  // the next piece starts at site j + 2
    }
  }
}

void spatial_tendon(const Model& m, Data& d, int t) {
  walk_spatial(
      m, d, t,
      [&](int body_a, const Vector3d& a, int body_b, const Vector3d& b, double divisor) {
        add_segment(m, d, t, body_a, a, body_b, b, divisor);
      },
      [&](double length, double divisor) { d.ten_length[t] += length / divisor; });
}

// (d/dt J) qvel of spatial tendon t: per straight piece of direction u and
// length L between points moving at va and vb, the derivative of
// u . (vb - va) at zero qacc,
//   |(I - u u^T)(vb - va)|^2 / L + u . (ab - aa),
// with aa, ab the points' accelerations at zero qacc; divided by the
// piece's pulley divisor.
double spatial_velocity_product(const Model& m, const Data& d, int t) {
  double sum = 0;
  walk_spatial(
      m, d, t,
      [&](int body_a, const Vector3d& a, int body_b, const Vector3d& b, double divisor) {
        const Vector3d v = b - a;
        const double length = v.norm();
        if (length < kMinValue) return;
        const Vector3d u = v / length;
        const Vector3d dv = point_velocity(m, d, b, body_b) - point_velocity(m, d, a, body_a);
        const Vector3d da =
            point_velocity_product(m, d, b, body_b) - point_velocity_product(m, d, a, body_a);
        const double along = u.dot(dv);
        sum += ((dv.squaredNorm() - along * along) / length + u.dot(da)) / divisor;
      },
      [](double, double) {});
  return sum;
}

}  // namespace

// Fixed tendons: L = sum_i coef_i q_i over their hinge and slide joints, so
// the Jacobian row holds coef_i at each joint's dof. Spatial tendons: see
// spatial_tendon.
void tendon_kinematics(const Model& m, Data& d) {
  d.ten_length.setZero();
  d.ten_J.setZero();
  const Tendons& ten = m.tendons;
  for (int t = 0; t < ten.count(); ++t) {
    const int begin = ten.wrap_adr[t];
    if (ten.wrap_count[t] == 0) continue;
    if (ten.wrap_type[begin] == WrapType::kJoint) {
      for (int j = begin; j < begin + ten.wrap_count[t]; ++j) {
        const int joint = ten.wrap_obj[j];
        const double coef = ten.wrap_prm[j];
        d.ten_length[t] += coef * d.qpos[m.joints.qpos_adr[joint]];
        d.ten_J(t, m.joints.dof_adr[joint]) += coef;
      }
    } else {
      spatial_tendon(m, d, t);
    }
  }
}

void add_tendon_armature(const Model& m, Data& d) {
  const Tendons& ten = m.tendons;
  for (int t = 0; t < ten.count(); ++t) {
    const double armature = ten.armature[t];
    if (armature == 0) continue;
    for (int i = 0; i < m.nv; ++i) {
      const double ji = d.ten_J(t, i);
      if (ji == 0) continue;
      int slot = m.dofs.madr[i];
      for (int j = i; j >= 0; j = m.dofs.parent[j]) d.qM[slot++] += armature * ji * d.ten_J(t, j);
    }
  }
}

void add_tendon_armature_bias(const Model& m, Data& d) {
  const Tendons& ten = m.tendons;
  for (int t = 0; t < ten.count(); ++t) {
    const double armature = ten.armature[t];
    // A fixed tendon's Jacobian is constant: no velocity product.
    if (armature == 0 || ten.wrap_count[t] == 0 ||
        ten.wrap_type[ten.wrap_adr[t]] == WrapType::kJoint) {
      continue;
    }
    const double force = armature * spatial_velocity_product(m, d, t);
    for (int i = 0; i < m.nv; ++i) d.qfrc_bias[i] += force * d.ten_J(t, i);
  }
}

}  // namespace pliant
