#pragma once

// Triangle meshes for mesh geoms: reading STL / OBJ / MSH files, building
// meshes given inline in MJCF, and the compile-time processing that turns a
// raw mesh into what a mesh geom refers to (principal frame, volume, inertia,
// bounding box), reproducing MuJoCo 2.2.2's compiler number for number.
//
// Precision model. MuJoCo keeps mesh vertices in single precision from the
// moment they are read until they are stored in the compiled model, and a few
// intermediate sums are formed in single precision too. To give the same
// bits, every vertex coordinate handed out here is a float widened to double,
// and process_mesh() rounds where MuJoCo rounds. The mesh sources must
// therefore not be built with -ffast-math; mesh.cpp, mesh_files.cpp and
// exact_rotation.cpp switch off floating-point contraction (FMA) for
// themselves.
//
// What 2.2.2 does with a mesh (measured against libmujoco 2.2.2):
//  * Vertices are floats. STL faces are stored with their own three vertices
//    and then exact duplicates are merged; OBJ faces each get three fresh
//    vertex copies (no merging); inline vertices are used as given.
//  * scale multiplies each coordinate (float * double, rounded to float).
//    If scale[0]*scale[1]*scale[2] < 0, faces read from files are re-wound.
//  * Volume and centre: the area-weighted centroid of the triangles is the
//    apex of one pyramid per triangle; by default each pyramid volume is taken
//    with its absolute value ("legacy" mode, compiler exactmeshinertia=false).
//  * Inertia: vertices are re-centred at that centre and one tetrahedron per
//    triangle, with its apex at the centre, is integrated exactly (again with
//    absolute volumes in legacy mode). The tensor, multiplied by the density
//    of the mesh's default class, is diagonalised by a Jacobi iteration whose
//    stopping rule depends on the absolute size of the entries; hence the
//    density argument of process_mesh().
//  * Legacy mode then replaces the mesh by its equivalent-inertia box: the
//    geom mass is density * 8 * bx * by * bz and the inertia is that box's.
//    With exactmeshinertia=true the mass is density * (signed) volume.
//  * geom_size of a mesh geom is the half-size of the axis-aligned box
//    centred at the principal-frame origin (max |coordinate| per axis), and
//    geom_rbound is the norm of that half-size vector.

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
// ASCII), .obj (through tinyobjloader; only the first object's faces, as
// MuJoCo) or .msh (MuJoCo's binary mesh format). A file without faces gets
// the faces of its vertices' convex hull. Applies `scale` per axis.
// Any problem throws LoadError(xml_file, xml_line, ...) naming `path`.
TriangleMesh read_mesh_file(const std::string& path, const Eigen::Vector3d& scale,
                            const std::string& xml_file, int xml_line);

// Mesh given in MJCF as <mesh vertex="..." face="...">. Coordinates are
// rounded to float like MuJoCo's parser does. An empty `face` means "use the
// convex hull of the vertices", as MuJoCo does.
TriangleMesh make_inline_mesh(const std::vector<double>& vertex, const std::vector<int>& face,
                              const Eigen::Vector3d& scale, const std::string& xml_file,
                              int xml_line);

// MuJoCo 2.2.2's compiler/exactmeshinertia switch.
enum class MeshInertia { kLegacy, kExact };

struct ProcessedMesh {
  TriangleMesh mesh;        // vertices in the principal frame (float-representable)
  Eigen::Vector3d pos;      // centroid in the file frame
  Eigen::Quaterniond quat;  // principal frame orientation in the file frame
  // Volume 2.2.2 gives the geom for mass: density * volume is the geom mass.
  // Legacy mode: volume of the equivalent-inertia box, 8 * bx * by * bz (this is
  // what 2.2.2 really does; it differs from the mesh volume unless the mesh is a
  // box). Exact mode: the signed mesh volume.
  double volume;  // m^3
  // Principal moments per unit density that 2.2.2 gives the geom (kg m^2 per
  // kg/m^3): those of the equivalent box in legacy mode, of the mesh in exact mode.
  Eigen::Vector3d inertia;
  // geom_size of a mesh geom in 2.2.2: max |x|, |y|, |z| over the vertices in
  // the principal frame, i.e. half-sizes of the origin-centred bounding box.
  Eigen::Vector3d half_size;
  double rbound;  // geom_rbound: |half_size|
  // Extras the compiler also needs.
  double mesh_volume;             // sum of the (absolute, in legacy mode) pyramid volumes
  Eigen::Vector3d box_half_size;  // equivalent-inertia box (geom fitting, legacy mass)
  Eigen::Vector3d eigenvalues;    // diagonalised tensor / density (before the box step)
};

// Mass properties and principal frame as computed by MuJoCo 2.2.2.
// `density` is the geom density of the mesh's default class (1000 unless a
// default sets it): 2.2.2 scales the tensor by it before diagonalising, which
// changes the resulting frame for small meshes. Throws LoadError for out of
// range face indices, zero surface area, zero volume and non-physical inertia.
ProcessedMesh process_mesh(TriangleMesh raw, const std::string& xml_file, int xml_line,
                           double density = 1000, MeshInertia mode = MeshInertia::kLegacy);

}  // namespace pliant
