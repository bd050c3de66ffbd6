#pragma once

// Ray casting against the geoms of a posed model, as MuJoCo's mj_ray
// (3.3.8): the ray is origin + t * direction for t >= 0, and every distance
// returned is that t, the multiple of `direction` at the hit. With a unit
// direction it is a length in metres; with |direction| = 2 it is half of
// one. The direction needs no normalising.
//
// Shapes, in the geom frame:
//  * plane: hit only from its front (the ray must go towards -z), within
//    |x| <= size[0] and |y| <= size[1] where those are positive, unbounded
//    where they are zero;
//  * sphere, capsule, ellipsoid, cylinder, box: the solid's surface. A ray
//    from inside hits the surface on its way out;
//  * mesh: the mesh's own triangles (both sides, not its convex hull), so
//    a ray from inside a closed mesh hits it on its way out;
//  * height field: the triangles of the elevation grid, the four side walls
//    below the surface, and the base box under z = 0 (down to -size[3] of
//    the height field).
// A grazing ray (touching a round surface at one point) counts as a miss.

#include "pliant/data.h"

namespace pliant {

// Geom groups a RayFilter can switch: a geom's group is clamped into 0..5.
inline constexpr int kRayGeomGroups = 6;

struct RayHit {
  double distance = -1;  // multiple of `direction` to the nearest hit; -1 when none
  int geom = -1;         // the geom hit; -1 when none
};

// Which geoms a ray sees. Geoms that are not drawn are never hit: rgba alpha
// 0 without a material, or a material whose rgba alpha is 0.
struct RayFilter {
  // kRayGeomGroups flags, true for the groups to see; nullptr sees all groups.
  const bool* geom_groups = nullptr;
  // Geoms of static bodies (welded to the world through no joint) are seen.
  bool include_static = true;
  // Geoms of this body are not seen (-1: none excluded).
  int exclude_body = -1;
};

// The nearest geom the ray hits, among the geoms the filter keeps. Needs
// kinematics (data.geom_xpos, data.geom_xmat). A direction shorter than
// kMinValue gives no hit.
RayHit cast_ray(const Model& model, const Data& data, const Vector3d& origin,
                const Vector3d& direction, const RayFilter& filter = {});

// Distance along the ray to one geom at its pose in `data` (no filtering),
// or -1 when the ray misses it.
double ray_geom(const Model& model, const Data& data, int geom, const Vector3d& origin,
                const Vector3d& direction);

// Distance along the ray to a primitive shape at position `pos` and
// orientation `rot` (columns: the shape's axes in the world), or -1: plane,
// sphere, capsule, ellipsoid, cylinder and box, with size as a geom's (sites
// use it for their volumes). Meshes and height fields need their model data:
// this gives -1 for them (use ray_geom).
double ray_shape(GeomType type, const Vector3d& size, const Vector3d& pos, const Matrix3d& rot,
                 const Vector3d& origin, const Vector3d& direction);

}  // namespace pliant
