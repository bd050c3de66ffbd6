#pragma once

// Internal interface of the narrowphase: a geom as the pair functions see it,
// the raw contact they produce, and one function per geom-type pair. Used by
// collision.cpp and by the collision tests; not part of the public API.

#include <Eigen/Core>
#include <cmath>

#include "model/numeric_limits.h"
#include "pliant/model.h"

namespace pliant::collision {

using Eigen::Matrix3d;

// At most this many contacts between two geoms.
constexpr int kMaxPairContacts = 50;

// Convex hull of a mesh in the geom frame: vertices and, for each vertex, its
// neighbours on the hull (for hill-climbing support queries).
struct HullView {
  const Vector3d* vertices = nullptr;
  int vertex_count = 0;
  const int* neighbour_adr = nullptr;    // per vertex, first entry in neighbours
  const int* neighbour_count = nullptr;  // per vertex
  const int* neighbours = nullptr;
  // A mesh of fewer than kHillClimbMin vertices: all of them, in the mesh's
  // order, which GJK and EPA scan instead of climbing the hull (nullptr for
  // larger meshes).
  const Vector3d* scan_vertices = nullptr;
  int scan_count = 0;
  const int* vertex_id = nullptr;  // per hull vertex, its vertex in the mesh
};

// The polygons of a mesh's hull (Meshes::poly_*): normals, corners and the
// polygons through each vertex, for multi-contact collision. Pointers to
// one mesh's entries, except `vert` and `map`, which the addresses index.
struct MeshPolygons {
  const Vector3d* normal = nullptr;    // per polygon, mesh frame
  const int* vert_adr = nullptr;       // per polygon, into vert
  const int* vert_num = nullptr;       // per polygon
  const int* vert = nullptr;           // corners (mesh vertices), all meshes
  const int* map_adr = nullptr;        // per mesh vertex, into map
  const int* map_num = nullptr;        // per mesh vertex
  const int* map = nullptr;            // polygons through a vertex, all meshes
  const Vector3d* vertices = nullptr;  // the mesh's vertices
};

// Meshes with fewer vertices than this are searched vertex by vertex by
// GJK and EPA, as MuJoCo 3.3.8 does (mjMESH_HILLCLIMB_MIN); the first of
// equal maxima in the mesh's order wins a tie.
constexpr int kHillClimbMin = 10;

// Elevations of a height field (Hfields in model.h): nrow x ncol values in
// [0, 1], row-major, and the field's size (x, y, z_top, z_bottom).
struct HfieldView {
  const float* elevation = nullptr;
  int nrow = 0, ncol = 0;
  Eigen::Vector4d size{0, 0, 0, 0};
};

// One geom in the world: type, size (MJCF meaning), pose.
struct GeomShape {
  GeomType type = GeomType::kSphere;
  Vector3d size{0, 0, 0};
  Vector3d pos{0, 0, 0};
  Matrix3d mat = Matrix3d::Identity();
  HullView hull;          // mesh geoms only
  MeshPolygons polygons;  // mesh geoms only
  HfieldView hfield;      // height-field geoms only
  // One prism of a height field (hfield_pairs.cpp): base corners 0-2, top
  // corners 3-5, in the shape's frame. Set, the kHfield shape is that prism.
  const Vector3d* prism = nullptr;
  double rbound = 0;  // radius of the bounding sphere about pos (0 for planes)
  // The general convex method: GJK and EPA (the nativeccd flag, on by
  // default) or MPR, and its convergence (options.mpr_tolerance, _iterations).
  bool native_ccd = true;
  bool multiccd = false;  // several contacts per general convex pair (<flag multiccd>)
  double mpr_tolerance = 1e-6;
  int mpr_iterations = 35;
};

// What a pair function reports: signed distance (< 0 penetration), the point
// midway between the surfaces, and the unit normal from geom 1 to geom 2.
struct RawContact {
  double dist = 0;
  Vector3d pos{0, 0, 0};
  Vector3d normal{1, 0, 0};
  // A first tangent the pair proposes (capsule-plane: the capsule axis); the
  // frame uses it when it is at least 0.5 long (docs/physics.md §7).
  Vector3d tangent{0, 0, 0};
};

// A pair function: shapes ordered by type (a.type <= b.type), contacts whose
// distance exceeds `margin` are not reported. Returns the count written to out
// (at most kMaxPairContacts).
using PairFunction = int (*)(const GeomShape& a, const GeomShape& b, double margin,
                             RawContact* out);

// The function for a pair of geom types (type1 <= type2), or nullptr when the
// pair never collides (plane-plane, a height field with a plane or another
// height field).
PairFunction pair_function(GeomType type1, GeomType type2);

// Pair families (primitive_pairs.cpp, box_pairs.cpp, convex.cpp,
// hfield_pairs.cpp).
int plane_sphere(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int plane_capsule(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int plane_cylinder(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int plane_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int plane_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int plane_mesh(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int sphere_sphere(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int sphere_capsule(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int sphere_cylinder(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int capsule_capsule(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int sphere_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int capsule_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
int box_box(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
// Of n box-box contacts (out), the ones MuJoCo 3.3.8 keeps, in order (see
// box_pairs.cpp); returns their count. box_box applies it to its own.
int keep_box_box_contacts(const GeomShape& a, const GeomShape& b, double margin, RawContact* out,
                          int n);
int convex_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);
// MPR from explicit centres, each shape inflated by its own amount; reports
// dist = -depth (convex.cpp).
int mpr_penetration(const GeomShape& a, const Vector3d& centre_a, double inflate_a,
                    const GeomShape& b, const Vector3d& centre_b, double inflate_b,
                    RawContact* out);
// GJK and EPA with the same arguments and report (gjk_epa.cpp). With
// max_contacts > 1, two boxes or meshes without inflation may report up to
// that many contacts (face_contacts). `climb`, when given, holds each mesh's
// hull vertex to start its support searches from, and receives the last
// (3.3.8 keeps it from one search of a pair to the next).
int ccd_penetration(const GeomShape& a, const Vector3d& centre_a, double inflate_a,
                    const GeomShape& b, const Vector3d& centre_b, double inflate_b, RawContact* out,
                    int max_contacts = 1, int* climb = nullptr);

// A corner of EPA's nearest face: its points on a and b and the box corner
// (bits x 1, y 2, z 4 on the + side) or mesh vertex (local to the mesh)
// each came from.
struct FaceCorner {
  Vector3d pa, pb;
  int ia, ib;
};

// MuJoCo 3.3.8's contacts from EPA's face between two boxes or meshes
// (multi_contact.cpp): pa, pb are EPA's witness points, dist its depth.
// Writes up to max_contacts contacts to out and returns their count; 0 when
// the touching features do not line up (EPA's one contact stands).
int face_contacts(const GeomShape& a, const GeomShape& b, const FaceCorner corner[3],
                  const Vector3d& pa, const Vector3d& pb, double dist, int max_contacts,
                  RawContact* out);
// The signed distance between a and b when below `cutoff` (>= 0), as
// MuJoCo 3.3.8 measures geom distances with its native convex collision:
// GJK's nearest points while apart, EPA's witness points when they overlap
// (pa on a, pb on b). False when the shapes are `cutoff` or more apart.
bool ccd_distance(const GeomShape& a, const GeomShape& b, double cutoff, double* dist, Vector3d* pa,
                  Vector3d* pb);
// Outward surface normal of a smooth geom (sphere, capsule, ellipsoid,
// cylinder side) at world point x, replacing *n; false for other shapes.
bool smooth_surface_normal(const GeomShape& g, const Vector3d& x, Vector3d* n);
int hfield_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out);

// Two spheres (centres, radii, and the z axes of the geoms they stand for, which
// set the normal when the centres coincide): the building block of the round pairs.
int sphere_sphere_raw(const Vector3d& c1, double r1, const Vector3d& z1, const Vector3d& c2,
                      double r2, const Vector3d& z2, double margin, RawContact* out);

// Index of the hull vertex farthest along `dir` (geom frame); the climb
// over the hull's graph starts at vertex `start`.
int hull_support_index(const HullView& hull, const Vector3d& dir, int start = 0);

// Farthest point of a convex geom in world direction `dir` (unit).
Vector3d support_point(const GeomShape& g, const Vector3d& dir);

// a . b summed x, y, z, as MuJoCo 3.3.8 sums it (Eigen's dot may sum in
// another order): GJK's and EPA's choices between faces at one distance,
// and contact frames, turn on the last bit.
inline double dot3(const Vector3d& a, const Vector3d& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Normalises v in place by the reciprocal of its length, as 3.3.8 does; a
// vector shorter than kMinValue becomes (1, 0, 0). Returns the length before
// normalising.
inline double normalize_or_x(Vector3d& v) {
  const double n = std::sqrt(dot3(v, v));
  if (n < kMinValue) {
    v = Vector3d(1, 0, 0);
  } else {
    v *= 1 / n;
  }
  return n;
}

// v over its length, by the reciprocal as 3.3.8 normalises; +x when v is
// shorter than kMinValue.
inline Vector3d unit_direction(Vector3d v) {
  normalize_or_x(v);
  return v;
}

// Contact frame from the normal: rows n, t1, t2. t1 is the pair's proposed
// tangent when that is at least 0.5 long, else (0, 1, 0), or (0, 0, 1) when
// |n_y| >= 0.5; it is made orthogonal to n and normalised (a proposal
// parallel to n leaves nothing, and then t1 is x, as in MuJoCo); t2 = n x t1
// (collision.cpp).
Matrix3d contact_frame(Vector3d n, const Vector3d& proposed);

}  // namespace pliant::collision
