#include "pliant/ray.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "model/numeric_limits.h"

namespace pliant {
namespace {

// Sums are written out left to right, in the order MuJoCo forms them, so
// that near-degenerate rays are decided by the same round-off.
double dot3(const Vector3d& a, const Vector3d& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// rot^T v, each entry a left-to-right sum.
Vector3d rotate_to_local(const Matrix3d& rot, const Vector3d& v) {
  return {rot(0, 0) * v[0] + rot(1, 0) * v[1] + rot(2, 0) * v[2],
          rot(0, 1) * v[0] + rot(1, 1) * v[1] + rot(2, 1) * v[2],
          rot(0, 2) * v[0] + rot(1, 2) * v[1] + rot(2, 2) * v[2]};
}

// The ray in a shape's frame (origin `pos`, axes the columns of `rot`).
struct LocalRay {
  Vector3d origin, direction;
};

LocalRay to_local(const Vector3d& pos, const Matrix3d& rot, const Vector3d& origin,
                  const Vector3d& direction) {
  return {rotate_to_local(rot, origin - pos), rotate_to_local(rot, direction)};
}

// Roots of a t^2 + 2 b t + c = 0, smaller first; both -1 when the
// discriminant b^2 - a c is below kMinValue (a miss, or a tangent).
struct Roots {
  double near = -1, far = -1;
  // The smaller non-negative root, or -1.
  double first_ahead() const { return near >= 0 ? near : (far >= 0 ? far : -1); }
};

Roots quadratic_roots(double a, double b, double c) {
  double discriminant = b * b - a * c;
  if (discriminant < kMinValue) return {};
  discriminant = std::sqrt(discriminant);
  return {(-b - discriminant) / a, (-b + discriminant) / a};
}

// Keeps the nearest non-negative candidate: `best` is -1 until a hit.
void keep_nearest(double candidate, double& best) {
  if (candidate >= 0 && (best < 0 || candidate < best)) best = candidate;
}

// Sphere of squared radius r2 about `centre`, in world coordinates:
// |origin + t d - centre|^2 = r2.
double ray_sphere(const Vector3d& centre, double r2, const Vector3d& origin,
                  const Vector3d& direction) {
  const Vector3d offset = origin - centre;
  return quadratic_roots(dot3(direction, direction), dot3(direction, offset),
                         dot3(offset, offset) - r2)
      .first_ahead();
}

// Plane z = 0 of the frame, seen from its front (+z side) only.
double ray_plane(const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
                 const Vector3d& origin, const Vector3d& direction) {
  const LocalRay ray = to_local(pos, rot, origin, direction);
  if (ray.direction[2] > -kMinValue) return -1;
  const double t = -ray.origin[2] / ray.direction[2];
  if (t < 0) return -1;
  const double x = ray.origin[0] + t * ray.direction[0];
  const double y = ray.origin[1] + t * ray.direction[1];
  const bool inside_x = size[0] <= 0 || std::abs(x) <= size[0];
  const bool inside_y = size[1] <= 0 || std::abs(y) <= size[1];
  return inside_x && inside_y ? t : -1;
}

// Nearest root of the round side x^2 + y^2 = r^2 that lies within
// |z| <= half_length, or -1.
double ray_round_side(const LocalRay& ray, double radius, double half_length) {
  const Vector3d& p = ray.origin;
  const Vector3d& d = ray.direction;
  const double t = quadratic_roots(d[0] * d[0] + d[1] * d[1], d[0] * p[0] + d[1] * p[1],
                                   p[0] * p[0] + p[1] * p[1] - radius * radius)
                       .first_ahead();
  return t >= 0 && std::abs(p[2] + t * d[2]) <= half_length ? t : -1;
}

// Capsule: radius size[0], half-length size[1] along z. The round side
// between the caps, then the two hemispheres, each root kept only on its own
// half of its sphere.
double ray_capsule(const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
                   const Vector3d& origin, const Vector3d& direction) {
  const double reach = size[0] + size[1];
  if (ray_sphere(pos, reach * reach, origin, direction) < 0) return -1;
  const LocalRay ray = to_local(pos, rot, origin, direction);
  double best = ray_round_side(ray, size[0], size[1]);
  const Vector3d& d = ray.direction;
  const double a = dot3(d, d);
  for (const double cap : {size[1], -size[1]}) {
    const Vector3d offset(ray.origin[0], ray.origin[1], ray.origin[2] - cap);
    const Roots roots =
        quadratic_roots(a, dot3(d, offset), dot3(offset, offset) - size[0] * size[0]);
    for (const double t : {roots.near, roots.far}) {
      const double z = ray.origin[2] + t * d[2];
      if (t >= 0 && (cap > 0 ? z >= cap : z <= cap)) keep_nearest(t, best);
    }
  }
  return best;
}

// Ellipsoid with semi-axes `size`: sum_k ((p_k + t d_k) / size_k)^2 = 1.
double ray_ellipsoid(const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
                     const Vector3d& origin, const Vector3d& direction) {
  const LocalRay ray = to_local(pos, rot, origin, direction);
  const Vector3d& p = ray.origin;
  const Vector3d& d = ray.direction;
  const Vector3d s(1 / (size[0] * size[0]), 1 / (size[1] * size[1]), 1 / (size[2] * size[2]));
  const double a = s[0] * d[0] * d[0] + s[1] * d[1] * d[1] + s[2] * d[2] * d[2];
  const double b = s[0] * d[0] * p[0] + s[1] * d[1] * p[1] + s[2] * d[2] * p[2];
  const double c = s[0] * p[0] * p[0] + s[1] * p[1] * p[1] + s[2] * p[2] * p[2] - 1;
  return quadratic_roots(a, b, c).first_ahead();
}

// Cylinder: radius size[0], half-length size[1] along z. The two flat ends
// (inside the radius), then the round side between them.
double ray_cylinder(const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
                    const Vector3d& origin, const Vector3d& direction) {
  if (ray_sphere(pos, size[0] * size[0] + size[1] * size[1], origin, direction) < 0) return -1;
  const LocalRay ray = to_local(pos, rot, origin, direction);
  const Vector3d& p = ray.origin;
  const Vector3d& d = ray.direction;
  double best = -1;
  if (std::abs(d[2]) > kMinValue) {
    for (const double side : {-1.0, 1.0}) {
      const double t = (side * size[1] - p[2]) / d[2];
      if (t < 0) continue;
      const double x = p[0] + t * d[0], y = p[1] + t * d[1];
      if (x * x + y * y <= size[0] * size[0]) keep_nearest(t, best);
    }
  }
  keep_nearest(ray_round_side(ray, size[0], size[1]), best);
  return best;
}

// Box with half-sizes `size`. `faces`, when given, receives the distance to
// each face the ray crosses within its rectangle, -1 for the others, in the
// order -x, +x, -y, +y, -z, +z (the height field's walls use them).
double ray_box(const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
               const Vector3d& origin, const Vector3d& direction,
               std::array<double, 6>* faces = nullptr) {
  if (faces) faces->fill(-1);
  if (ray_sphere(pos, dot3(size, size), origin, direction) < 0) return -1;
  const LocalRay ray = to_local(pos, rot, origin, direction);
  const Vector3d& p = ray.origin;
  const Vector3d& d = ray.direction;
  double best = -1;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(d[axis]) <= kMinValue) continue;
    const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;  // the face's two axes
    for (const int side : {-1, 1}) {
      const double t = (side * size[axis] - p[axis]) / d[axis];
      if (t < 0) continue;
      if (std::abs(p[u] + t * d[u]) <= size[u] && std::abs(p[v] + t * d[v]) <= size[v]) {
        keep_nearest(t, best);
        if (faces) (*faces)[2 * axis + (side + 1) / 2] = t;
      }
    }
  }
  return best;
}

// Triangle tests along one ray share a basis (b0, b1) of the plane normal to
// the ray's direction: b1 is (1, 1, 1), with the entry of the direction's
// largest component set to 0, made normal to the direction; b0 = b1 x d.
struct RayBasis {
  Vector3d b0, b1;
};

Vector3d normalized_or_x(const Vector3d& v) {
  const double norm = std::sqrt(dot3(v, v));
  if (norm < kMinValue) return Vector3d::UnitX();
  return v * (1 / norm);
}

RayBasis ray_basis(const Vector3d& d) {
  Vector3d seed(1, 1, 1);
  const double x = std::abs(d[0]), y = std::abs(d[1]), z = std::abs(d[2]);
  if (x >= y && x >= z) {
    seed[0] = 0;
  } else if (y >= z) {
    seed[1] = 0;
  } else {
    seed[2] = 0;
  }
  const Vector3d b1 = normalized_or_x(seed + d * (-dot3(d, seed) / dot3(d, d)));
  return {normalized_or_x(b1.cross(d)), b1};
}

// Two-sided triangle test: the ray's origin, projected along the ray onto
// the basis plane, must fall inside the projected triangle (barycentric
// coordinates t0, t1 >= 0, t0 + t1 <= 1); the distance is then where the ray
// meets the triangle's plane (negative when behind the origin).
double ray_triangle(const std::array<Vector3d, 3>& v, const LocalRay& ray, const RayBasis& basis) {
  std::array<Vector2d, 3> planar;
  for (int i = 0; i < 3; ++i) {
    const Vector3d offset = v[i] - ray.origin;
    planar[i] = Vector2d(dot3(basis.b0, offset), dot3(basis.b1, offset));
  }
  // All three corners on one side of a basis axis: the ray passes outside.
  for (int k = 0; k < 2; ++k) {
    if ((planar[0][k] > 0 && planar[1][k] > 0 && planar[2][k] > 0) ||
        (planar[0][k] < 0 && planar[1][k] < 0 && planar[2][k] < 0)) {
      return -1;
    }
  }
  const double a00 = planar[0][0] - planar[2][0], a01 = planar[1][0] - planar[2][0];
  const double a10 = planar[0][1] - planar[2][1], a11 = planar[1][1] - planar[2][1];
  const double det = a00 * a11 - a01 * a10;
  if (std::abs(det) < kMinValue) return -1;
  const double r0 = -planar[2][0], r1 = -planar[2][1];
  const double t0 = (a11 * r0 - a01 * r1) / det;
  const double t1 = (-a10 * r0 + a00 * r1) / det;
  if (t0 < 0 || t1 < 0 || t0 + t1 > 1) return -1;

  const Vector3d normal = (v[0] - v[2]).cross(v[1] - v[2]);
  const double denominator = dot3(ray.direction, normal);
  if (std::abs(denominator) < kMinValue) return -1;
  return -dot3(ray.origin - v[2], normal) / denominator;
}

// Mesh: its triangles, in the geom frame, after the bounding-box test
// against the geom's half-sizes.
double ray_mesh(const Model& model, const Data& data, int geom, const Vector3d& origin,
                const Vector3d& direction) {
  const Vector3d& pos = data.geom_xpos[geom];
  const Matrix3d& rot = data.geom_xmat[geom];
  if (ray_box(model.geoms.size[geom], pos, rot, origin, direction) < 0) return -1;
  const Meshes& meshes = model.meshes;
  const int mesh = model.geoms.data_id[geom];
  const LocalRay ray = to_local(pos, rot, origin, direction);
  const RayBasis basis = ray_basis(ray.direction);
  const Vector3d* vertices = meshes.vertices.data() + meshes.vert_adr[mesh];
  const int first = meshes.face_adr[mesh];
  double best = -1;
  for (int f = first; f < first + meshes.face_count[mesh]; ++f) {
    const std::array<int, 3>& face = meshes.faces[f];
    keep_nearest(
        ray_triangle({vertices[face[0]], vertices[face[1]], vertices[face[2]]}, ray, basis), best);
  }
  return best;
}

// Height field (see Hfields in model/model.h): the base box z in
// [-size[3], 0]; then, if the ray crosses the top box z in [0, size[2]], the
// grid's triangles over the cells its path through that box covers (one cell
// of padding), and the four walls of the top box where the ray meets them
// below the edge's elevation profile.
double ray_hfield(const Model& model, const Data& data, int geom, const Vector3d& origin,
                  const Vector3d& direction) {
  const Hfields& hfields = model.hfields;
  const int h = model.geoms.data_id[geom];
  const int nrow = hfields.nrow[h], ncol = hfields.ncol[h];
  const Vector4d& size = hfields.size[h];
  const float* elevation = hfields.data.data() + hfields.adr[h];
  const Vector3d& pos = data.geom_xpos[geom];
  const Matrix3d& rot = data.geom_xmat[geom];
  const Vector3d up = rot.col(2);

  const Vector3d base_size(size[0], size[1], size[3] * 0.5);
  const Vector3d base_pos = pos - up * size[3] * 0.5;
  double best = ray_box(base_size, base_pos, rot, origin, direction);

  const Vector3d top_size(size[0], size[1], size[2] * 0.5);
  const Vector3d top_pos = pos + up * size[2] * 0.5;
  std::array<double, 6> walls;
  const double top_entry = ray_box(top_size, top_pos, rot, origin, direction, &walls);
  if (top_entry < 0) return best;

  const LocalRay ray = to_local(pos, rot, origin, direction);
  const RayBasis basis = ray_basis(ray.direction);

  // The part of the ray inside the top box: from the origin (inside) or the
  // entry, to the farthest face crossed.
  double segment[2] = {0, top_entry};
  for (const double t : walls) {
    if (t > segment[1]) {
      segment[0] = top_entry;
      segment[1] = t;
    }
  }

  // Grid cells under that part, padded by one cell.
  const double dx = 2.0 * size[0] / (ncol - 1);
  const double dy = 2.0 * size[1] / (nrow - 1);
  double grid_x[2], grid_y[2];
  for (int i = 0; i < 2; ++i) {
    grid_x[i] = (ray.origin[0] + segment[i] * ray.direction[0] + size[0]) / dx;
    grid_y[i] = (ray.origin[1] + segment[i] * ray.direction[1] + size[1]) / dy;
  }
  const int cmin = std::max(0, static_cast<int>(std::floor(std::min(grid_x[0], grid_x[1]))) - 1);
  const int cmax =
      std::min(ncol - 1, static_cast<int>(std::ceil(std::max(grid_x[0], grid_x[1]))) + 1);
  const int rmin = std::max(0, static_cast<int>(std::floor(std::min(grid_y[0], grid_y[1]))) - 1);
  const int rmax =
      std::min(nrow - 1, static_cast<int>(std::ceil(std::max(grid_y[0], grid_y[1]))) + 1);

  const auto corner = [&](int r, int c) {
    return Vector3d(dx * c - size[0], dy * r - size[1], elevation[r * ncol + c] * size[2]);
  };
  for (int r = rmin; r < rmax; ++r) {
    for (int c = cmin; c < cmax; ++c) {
      // Each cell as two triangles sharing its diagonal (r, c)-(r+1, c+1).
      keep_nearest(ray_triangle({corner(r, c), corner(r + 1, c + 1), corner(r, c + 1)}, ray, basis),
                   best);
      keep_nearest(ray_triangle({corner(r, c), corner(r + 1, c + 1), corner(r + 1, c)}, ray, basis),
                   best);
    }
  }

  // Walls: a hit on a side face of the top box counts when it is below the
  // elevation profile along that edge (linear between the edge's samples).
  for (int i = 0; i < 4; ++i) {
    if (walls[i] < 0 || (walls[i] >= best && best >= 0)) continue;
    const Vector3d at = ray.origin + walls[i] * ray.direction;
    const double z = at[2] / size[2];  // normalised height
    double s, s0, z0, z1;
    if (i < 2) {  // the walls x = -size[0] (column 0) and x = +size[0] (last column)
      s = (at[1] + size[1]) / dy;
      s0 = std::max(0.0, std::min(static_cast<double>(nrow - 2), std::floor(s)));
      const int row = static_cast<int>(s0), col = i == 1 ? ncol - 1 : 0;
      z0 = elevation[row * ncol + col];
      z1 = elevation[(row + 1) * ncol + col];
    } else {  // the walls y = -size[1] (row 0) and y = +size[1] (last row)
      s = (at[0] + size[0]) / dx;
      s0 = std::max(0.0, std::min(static_cast<double>(ncol - 2), std::floor(s)));
      const int col = static_cast<int>(s0), row = i == 3 ? nrow - 1 : 0;
      z0 = elevation[row * ncol + col];
      z1 = elevation[row * ncol + col + 1];
    }
    if (z < z0 * (s0 + 1 - s) + z1 * (s - s0)) best = walls[i];
  }
  return best;
}

// Whether the ray can reach within `radius` of `centre` (a conservative
// test with a little slack, so that it never rejects what the exact shape
// test would hit).
bool may_reach_sphere(const Vector3d& centre, double radius, const Vector3d& origin,
                      const Vector3d& direction) {
  const Vector3d offset = centre - origin;
  const double slack = 1e-9 * (radius + offset.norm()) + 1e-12;
  const double reach = radius + slack;
  const double distance2 = dot3(offset, offset);
  if (distance2 <= reach * reach) return true;  // the origin is inside
  const double along = dot3(offset, direction);
  if (along <= 0) return false;  // outside and moving away
  const Vector3d perpendicular = offset - direction * (along / dot3(direction, direction));
  return dot3(perpendicular, perpendicular) <= reach * reach;
}

// Whether the filter, or the geom's visibility, hides the geom from rays.
bool hidden(const Model& model, int geom, const RayFilter& filter) {
  const Geoms& geoms = model.geoms;
  const int body = geoms.body[geom];
  if (body == filter.exclude_body) return true;
  const int material = geoms.material[geom];
  const double alpha = material < 0 ? geoms.rgba[geom][3] : model.materials.rgba[material][3];
  if (alpha == 0) return true;
  if (!filter.include_static && model.bodies.weld[body] == 0) return true;
  if (!filter.geom_groups) return false;
  const int group = std::clamp(geoms.group[geom], 0, kRayGeomGroups - 1);
  return !filter.geom_groups[group];
}

}  // namespace

double ray_shape(GeomType type, const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
                 const Vector3d& origin, const Vector3d& direction) {
  switch (type) {
    case GeomType::kPlane:
      return ray_plane(size, pos, rot, origin, direction);
    case GeomType::kSphere:
      return ray_sphere(pos, size[0] * size[0], origin, direction);
    case GeomType::kCapsule:
      return ray_capsule(size, pos, rot, origin, direction);
    case GeomType::kEllipsoid:
      return ray_ellipsoid(size, pos, rot, origin, direction);
    case GeomType::kCylinder:
      return ray_cylinder(size, pos, rot, origin, direction);
    case GeomType::kBox:
      return ray_box(size, pos, rot, origin, direction);
    case GeomType::kMesh:
    case GeomType::kHfield:
      return -1;
  }
  return -1;
}

double ray_geom(const Model& model, const Data& data, int geom, const Vector3d& origin,
                const Vector3d& direction) {
  switch (model.geoms.type[geom]) {
    case GeomType::kMesh:
      return ray_mesh(model, data, geom, origin, direction);
    case GeomType::kHfield:
      return ray_hfield(model, data, geom, origin, direction);
    default:
      return ray_shape(model.geoms.type[geom], model.geoms.size[geom], data.geom_xpos[geom],
                       data.geom_xmat[geom], origin, direction);
  }
}

RayHit cast_ray(const Model& model, const Data& data, const Vector3d& origin,
                const Vector3d& direction, const RayFilter& filter) {
  RayHit hit;
  if (std::sqrt(dot3(direction, direction)) < kMinValue) return hit;
  const Geoms& geoms = model.geoms;
  for (int g = 0; g < geoms.count(); ++g) {
    if (hidden(model, g, filter)) continue;
    // Every shape but the plane lies within its bounding sphere.
    if (geoms.type[g] != GeomType::kPlane && geoms.rbound[g] > 0 &&
        !may_reach_sphere(data.geom_xpos[g], geoms.rbound[g], origin, direction)) {
      continue;
    }
    const double distance = ray_geom(model, data, g, origin, direction);
    if (distance >= 0 && (hit.distance < 0 || distance < hit.distance)) {
      hit.distance = distance;
      hit.geom = g;
    }
  }
  return hit;
}

}  // namespace pliant
