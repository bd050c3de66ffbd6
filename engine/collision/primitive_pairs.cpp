// Pairs of a plane with any convex geom, and the round pairs (sphere, capsule).
// Each function reports contacts with normals from geom a to geom b and
// positions midway between the two surfaces (docs/physics.md §7).

#include <algorithm>
#include <cmath>

#include "engine/collision/pair.h"

namespace pliant::collision {
namespace {

// A point of the geom at signed height `dist` above the plane (normal n):
// the contact sits halfway between that point and the plane.
void plane_point(const Vector3d& n, const Vector3d& point, double dist, RawContact* out) {
  out->dist = dist;
  out->pos = point - n * (0.5 * dist);
  out->normal = n;
}

}  // namespace

// Plane (a, normal = its z axis) and sphere: height of the centre minus the
// radius; the contact lies below the centre, halfway into the overlap.
int plane_sphere(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d n = a.mat.col(2);
  const double dist = n.dot(b.pos - a.pos) - b.size[0];
  if (dist > margin) return 0;
  out->dist = dist;
  out->pos = b.pos - n * (b.size[0] + 0.5 * dist);
  out->normal = n;
  return 1;
}

// Plane and capsule: the two end spheres, the +z end first.
int plane_capsule(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d n = a.mat.col(2);
  const Vector3d segment = b.mat.col(2) * b.size[1];
  const double r = b.size[0];
  int count = 0;
  for (const double side : {1.0, -1.0}) {
    const Vector3d centre = b.pos + side * segment;
    const double dist = n.dot(centre - a.pos) - r;
    if (dist > margin) continue;
    out[count].dist = dist;
    out[count].pos = centre - n * (r + 0.5 * dist);
    out[count].normal = n;
    out[count].tangent = b.mat.col(2);  // the frame's first tangent follows the axis
    ++count;
  }
  return count;
}

// Plane and cylinder. The axis is turned to point away from the plane; the
// rim point deepest below the plane on the lower disc is the first contact,
// the same rim direction on the upper disc the second, and two more points on
// the lower disc at +-120 degrees from the first complete a tripod, so a
// standing cylinder rests on three points and a lying one on two.
int plane_cylinder(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d n = a.mat.col(2);
  Vector3d axis = b.mat.col(2);
  double prjaxis = n.dot(axis);
  if (prjaxis > 0) {
    axis = -axis;
    prjaxis = -prjaxis;
  }
  const double dist0 = n.dot(b.pos - a.pos);
  const double radius = b.size[0], half = b.size[1];
  // Direction within the disc plane that goes deepest: -n without its axial part.
  Vector3d vec = axis * prjaxis - n;
  const double len = vec.norm();
  if (len < kMinValue) {
    vec = b.mat.col(0) * radius;  // disc parallel to the plane: any rim point
  } else {
    vec *= radius / len;
  }
  const double prjvec = vec.dot(n);
  axis *= half;
  prjaxis *= half;

  int count = 0;
  const double deepest = dist0 + prjaxis + prjvec;
  if (deepest > margin) return 0;
  plane_point(n, b.pos + axis + vec, deepest, &out[count++]);

  const double far_end = dist0 - prjaxis + prjvec;
  if (far_end <= margin) plane_point(n, b.pos - axis + vec, far_end, &out[count++]);

  const double side = dist0 + prjaxis - 0.5 * prjvec;
  if (side <= margin) {
    Vector3d across = vec.cross(axis);
    const double across_len = across.norm();
    if (across_len >= kMinValue) {
      across *= radius * std::sqrt(3.0) * 0.5 / across_len;
      const Vector3d centre = b.pos + axis - 0.5 * vec;
      plane_point(n, centre + across, side, &out[count++]);
      plane_point(n, centre - across, side, &out[count++]);
    }
  }
  return count;
}

// Plane and box: every corner below the centre's height and within the
// margin, in corner order (x bit 1, y bit 2, z bit 4), at most four.
int plane_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d n = a.mat.col(2);
  const double dist = n.dot(b.pos - a.pos);
  int count = 0;
  for (int i = 0; i < 8; ++i) {
    const Vector3d local((i & 1) ? b.size[0] : -b.size[0], (i & 2) ? b.size[1] : -b.size[1],
                         (i & 4) ? b.size[2] : -b.size[2]);
    const Vector3d corner = b.mat * local;
    const double height = n.dot(corner);
    if (dist + height > margin || height > 0) continue;
    plane_point(n, b.pos + corner, dist + height, &out[count]);
    if (++count >= 4) break;
  }
  return count;
}

// Plane and a smooth or mesh geom: its support point against the normal.
int plane_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d n = a.mat.col(2);
  const Vector3d point = support_point(b, -n);
  const double dist = n.dot(point - a.pos);
  if (dist > margin) return 0;
  plane_point(n, point, dist, out);
  return 1;
}

// Two spheres: along the line of centres. Coincident centres (nearer than
// kMinValue, e.g. two capsule axes that cross) take the normal across both
// geoms' z axes, z1 x z2 normalised ((1, 0, 0) when they are parallel).
int sphere_sphere_raw(const Vector3d& c1, double r1, const Vector3d& z1, const Vector3d& c2,
                      double r2, const Vector3d& z2, double margin, RawContact* out) {
  Vector3d n = c2 - c1;
  const double centres = normalize_or_x(n);
  const double dist = centres - r1 - r2;
  if (dist > margin) return 0;
  if (centres < kMinValue) {
    n = z1.cross(z2);
    normalize_or_x(n);
  }
  out->dist = dist;
  out->pos = c1 + n * (r1 + 0.5 * dist);
  out->normal = n;
  return 1;
}

int sphere_sphere(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  return sphere_sphere_raw(a.pos, a.size[0], a.mat.col(2), b.pos, b.size[0], b.mat.col(2), margin,
                           out);
}

// Sphere and capsule: the capsule's segment point nearest the sphere centre.
int sphere_capsule(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d axis = b.mat.col(2);
  double t = axis.dot(a.pos - b.pos);
  t = std::clamp(t, -b.size[1], b.size[1]);
  return sphere_sphere_raw(a.pos, a.size[0], a.mat.col(2), b.pos + t * axis, b.size[0], axis,
                           margin, out);
}

// Sphere (a) and cylinder (b), as MuJoCo 3.3.8 collides them: from the
// centre's height x along the axis and its offset p from the axis, the side
// (|x| < half-height) is a sphere of the cylinder's radius on the axis at
// height x, a cap (|p| < radius) is the plane of that cap, and otherwise the
// nearest rim point is a sphere of radius 0. A centre inside the cylinder
// takes the side or the cap, whichever is nearer (the side on a tie).
int sphere_cylinder(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d axis = b.mat.col(2);
  const double radius = b.size[0], height = b.size[1];
  const Vector3d offset = a.pos - b.pos;
  const double x = axis.dot(offset);
  const Vector3d along = axis * x;
  const Vector3d across = offset - along;
  const double across2 = across.dot(across);
  bool side = std::abs(x) < height;
  bool cap = across2 < radius * radius;
  if (side && cap) {
    if (height - std::abs(x) < radius - std::sqrt(across2)) {
      side = false;
    } else {
      cap = false;
    }
  }
  if (side) {
    return sphere_sphere_raw(a.pos, a.size[0], a.mat.col(2), along + b.pos, radius, axis, margin,
                             out);
  }
  if (cap) {
    // The cap's plane (the cylinder's frame, turned about y for the bottom
    // cap) against the sphere; the normal then turns to point from the
    // sphere into the cylinder.
    GeomShape plane;
    plane.type = GeomType::kPlane;
    plane.mat = b.mat;
    if (x <= 0) {
      plane.mat.col(0) *= -1;
      plane.mat.col(2) *= -1;
    }
    plane.pos = b.pos + plane.mat.col(2) * height;
    if (plane_sphere(plane, a, margin, out) == 0) return 0;
    out->normal = -out->normal;
    return 1;
  }
  // across2 >= radius^2 here; it is 0 only for a cylinder of radius 0.
  const double reach = across2 > 0 ? radius / std::sqrt(across2) : 0.0;
  const Vector3d rim = axis * (x > 0 ? height : -height) + across * reach;
  return sphere_sphere_raw(a.pos, a.size[0], a.mat.col(2), rim + b.pos, 0, axis, margin, out);
}

// Capsule and capsule: nearest points of the two segments p1 + x1 a1 and
// p2 + x2 a2 (x in [-1, 1], a scaled by the half-length) solve
//   [ma mb; mb mc] [x1; x2] = [u; v],
// ma = a1.a1, mb = -a1.a2, mc = a2.a2, u = -a1.(p1 - p2), v = a2.(p1 - p2),
// clipped to the segments. Parallel segments (zero determinant) get up to two
// contacts: from each end of the first segment, then from the ends of the
// second when the first gave fewer than two.
int capsule_capsule(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const Vector3d z1 = a.mat.col(2), z2 = b.mat.col(2);
  const Vector3d axis1 = z1 * a.size[1];
  const Vector3d axis2 = z2 * b.size[1];
  const Vector3d dif = a.pos - b.pos;
  const double r1 = a.size[0], r2 = b.size[0];
  const double ma = axis1.dot(axis1), mb = -axis1.dot(axis2), mc = axis2.dot(axis2);
  const double u = -axis1.dot(dif), v = axis2.dot(dif);
  const double det = ma * mc - mb * mb;
  auto clip = [](double x) { return std::clamp(x, -1.0, 1.0); };
  // A zero-length segment is a sphere: its parameter is 0.
  auto solve = [&](double num, double den) { return den < kMinValue ? 0.0 : clip(num / den); };
  if (std::abs(det) >= kMinValue) {
    double x1 = (mc * u - mb * v) / det;
    double x2 = (ma * v - mb * u) / det;
    if (x1 > 1) {
      x1 = 1;
      x2 = (v - mb) / mc;
    } else if (x1 < -1) {
      x1 = -1;
      x2 = (v + mb) / mc;
    }
    if (x2 > 1) {
      x2 = 1;
      x1 = clip((u - mb) / ma);
    } else if (x2 < -1) {
      x2 = -1;
      x1 = clip((u + mb) / ma);
    }
    return sphere_sphere_raw(a.pos + x1 * axis1, r1, z1, b.pos + x2 * axis2, r2, z2, margin, out);
  }
  int count = 0;
  // Ends of the first segment against the second.
  for (const double x1 : {1.0, -1.0}) {
    const double x2 = solve(v - x1 * mb, mc);
    count += sphere_sphere_raw(a.pos + x1 * axis1, r1, z1, b.pos + x2 * axis2, r2, z2, margin,
                               out + count);
  }
  if (count >= 2) return count;
  // Ends of the second segment against the first.
  for (const double x2 : {1.0, -1.0}) {
    const double x1 = solve(u - x2 * mb, ma);
    count += sphere_sphere_raw(a.pos + x1 * axis1, r1, z1, b.pos + x2 * axis2, r2, z2, margin,
                               out + count);
    if (count >= 2) break;
  }
  return count;
}

}  // namespace pliant::collision
