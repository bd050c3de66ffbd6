#pragma once

// Triangle meshes for mesh geoms: reading STL / OBJ / MSH files, building
// meshes given inline in MJCF, and the compile-time processing that turns a
// raw mesh into what a mesh geom refers to (principal frame, volume, inertia,
// bounding box), as MuJoCo 3.3.8's compiler does it (docs/physics.md, meshes).
//
// What 3.3.8 does with a mesh (measured against MuJoCo 3.3.8):
//  * Vertices are read in single precision. Binary and ASCII STL vertices
//    equal in all three coordinates are merged (first appearance kept); OBJ,
//    MSH and inline vertices are kept as given, used or not. Everything after
//    reading is computed in double; the stored vertices are rounded to float.
//  * refpos is subtracted, the inverse of refquat applied, then scale. When
//    scale mirrors (negative product), faces read from files are re-wound.
//  * `inertia` chooses what carries the mass: legacy (absolute pyramid
//    volumes about the surface centroid, so a non-convex or badly wound mesh
//    still gets a positive volume), exact (signed volumes; inconsistent
//    winding is an error), convex (the convex hull), shell (mass on the
//    surface). No face orientation is ever repaired.
//  * The tensor is diagonalised (eigen_decompose_symmetric3); the geom's
//    moments are those of the equivalent-inertia box with the geom's mass.
//  * geom_size of a mesh geom is max(|min|, |max|) per axis of the vertices
//    in the principal frame, and geom_rbound is the norm of that vector.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <string>
#include <vector>

namespace pliant {

struct TriangleMesh {
  std::vector<Eigen::Vector3d> vertices;  // m; float-representable values
  std::vector<std::array<int, 3>> faces;  // counter-clockwise seen from outside
};

// Reads a mesh file chosen by extension (case-insensitive): .stl (binary or
// ASCII), .obj (through tinyobjloader; faces of the first object only, every
// vertex kept) or .msh (MuJoCo's binary mesh format). A file without faces
// gets the faces of its vertices' convex hull. `mirrored` (the scale's
// product is negative) re-winds the faces. Vertices are not scaled here.
// Any problem throws LoadError(xml_file, xml_line, ...) naming `path`.
// `format` ("stl", "obj", "msh"; empty: by the extension) is the MJCF
// content_type's.
TriangleMesh read_mesh_file(const std::string& path, bool mirrored, const std::string& xml_file,
                            int xml_line, const std::string& format = "");

// Mesh given in MJCF as <mesh vertex="..." face="...">. Coordinates are
// rounded to float like MuJoCo's parser does. An empty `face` means "use the
// convex hull of the vertices", as MuJoCo does.
TriangleMesh make_inline_mesh(const std::vector<double>& vertex, const std::vector<int>& face,
                              const std::string& xml_file, int xml_line);

// The <mesh inertia> attribute of MuJoCo 3.x.
enum class MeshInertia { kLegacy, kConvex, kExact, kShell };

struct MeshOptions {
  Eigen::Vector3d scale{1, 1, 1};
  Eigen::Vector3d refpos{0, 0, 0};
  Eigen::Quaterniond refquat = Eigen::Quaterniond::Identity();
  MeshInertia inertia = MeshInertia::kLegacy;
  int maxhullvert = -1;  // -1: no limit; otherwise at least 4
};

struct ProcessedMesh {
  TriangleMesh mesh;        // vertices in the principal frame (float-representable)
  Eigen::Vector3d pos;      // centre of mass in the (transformed) file frame
  Eigen::Quaterniond quat;  // principal frame orientation in the file frame
  // What the geom's mass follows: the volume (m^3), or the surface area (m^2)
  // for shell inertia. mass = density * volume.
  double volume;
  // Half-sizes of the box with the same principal moments per unit mass:
  // a geom of mass m gets moments m (b_y^2 + b_z^2) / 3, ... ; also what a
  // primitive geom fitted to the mesh takes its size from.
  Eigen::Vector3d box_half_size;
  // Axis-aligned bounds of the principal-frame vertices (double precision).
  Eigen::Vector3d aabb_min, aabb_max;
  // geom_size of a mesh geom: max(|min|, |max|) per axis; rbound its norm.
  Eigen::Vector3d half_size;
  double rbound;
  // The vertices as read (before scale, refpos and refquat; same order as
  // mesh.vertices): the points whose convex hull MuJoCo computes. qhull's
  // choice among nearly coplanar points and its vertex order depend on the
  // coordinates: from the principal-frame floats the Robotiq base gets 820
  // hull vertices instead of MuJoCo's 803, and from the scaled points the
  // same 803 in another order (measured on its eight meshes).
  std::vector<Eigen::Vector3d> hull_points;
  // The principal-frame vertices in double precision (mesh.vertices holds
  // them rounded to float): MuJoCo 3.3.8 takes its polygon normals from these.
  std::vector<Eigen::Vector3d> principal_points;
};

// Mass properties and principal frame as computed by MuJoCo 3.3.8. Throws
// LoadError for out of range face indices, inconsistent winding with exact
// inertia, zero surface area, zero or negative volume and non-physical
// inertia.
ProcessedMesh process_mesh(TriangleMesh raw, const MeshOptions& options,
                           const std::string& xml_file, int xml_line);

}  // namespace pliant
