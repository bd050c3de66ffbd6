#include "model/mesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/exact_rotation.h"
#include "pliant/load_error.h"

namespace pliant {
namespace {

using Eigen::Matrix3d;
using Eigen::Quaterniond;
using Eigen::Vector3d;

// Unit cube [0,1]^3, triangles counter-clockwise seen from outside.
const std::vector<double> kCubeVertices = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                                           0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
const std::vector<int> kCubeFaces = {0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                                     1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7};

std::vector<int> flipped(const std::vector<int>& faces) {
  std::vector<int> out = faces;
  for (size_t i = 0; i < out.size(); i += 3) std::swap(out[i + 1], out[i + 2]);
  return out;
}

MeshOptions exact_options() {
  MeshOptions options;
  options.inertia = MeshInertia::kExact;
  return options;
}

// Full tensor of a processed mesh per unit density, in the mesh file frame.
Matrix3d tensor(const Quaterniond& q, const Vector3d& principal) {
  const Matrix3d r = q.toRotationMatrix();
  return r * principal.asDiagonal() * r.transpose();
}

// Scratch directory for files written by a test, removed afterwards.
class MeshFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("pliant_mesh_test_" + std::to_string(std::random_device()()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Binary STL: 80-byte header, uint32 count, 50 bytes per triangle.
  void write_binary_stl(const std::string& file, const std::vector<double>& v,
                        const std::vector<int>& f, size_t drop_bytes = 0) const {
    std::string bytes(80, ' ');
    bytes.replace(0, 11, "solid cube ");  // binary files may start with "solid" too
    const uint32_t count = static_cast<uint32_t>(f.size() / 3);
    bytes.append(reinterpret_cast<const char*>(&count), 4);
    for (size_t t = 0; t < f.size(); t += 3) {
      float rec[12] = {0, 0, 0};
      for (int j = 0; j < 3; ++j) {
        for (int k = 0; k < 3; ++k) rec[3 + 3 * j + k] = static_cast<float>(v[3 * f[t + j] + k]);
      }
      bytes.append(reinterpret_cast<const char*>(rec), sizeof(rec));
      bytes.append(2, '\0');
    }
    bytes.resize(bytes.size() - drop_bytes);
    std::ofstream(file, std::ios::binary) << bytes;
  }

  void write_ascii_stl(const std::string& file, const std::vector<double>& v,
                       const std::vector<int>& f) const {
    std::ofstream out(file);
    out << "solid cube\n";
    for (size_t t = 0; t < f.size(); t += 3) {
      out << "  facet normal 0 0 0\n    outer loop\n";
      for (int j = 0; j < 3; ++j) {
        out << "      vertex " << v[3 * f[t + j]] << " " << v[3 * f[t + j] + 1] << " "
            << v[3 * f[t + j] + 2] << "\n";
      }
      out << "    endloop\n  endfacet\n";
    }
    out << "endsolid cube\n";
  }

  std::filesystem::path dir_;
};

// Asserts that `body` throws LoadError for xml_file "scene.xml", line 7, with a
// message containing every string in `parts`.
template <typename F>
void expect_load_error(F body, const std::vector<std::string>& parts) {
  try {
    body();
    ADD_FAILURE() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_EQ(e.file(), "scene.xml");
    EXPECT_EQ(e.line(), 7);
    for (const std::string& p : parts) {
      EXPECT_NE(e.message().find(p), std::string::npos) << "'" << p << "' not in: " << e.message();
    }
  }
}

// Moments per unit density of the geom a processed mesh gives: those of its
// equivalent-inertia box at the mesh's volume.
Vector3d unit_moments(const ProcessedMesh& pm) {
  const Vector3d& b = pm.box_half_size;
  return pm.volume *
         Vector3d(b[1] * b[1] + b[2] * b[2], b[0] * b[0] + b[2] * b[2], b[0] * b[0] + b[1] * b[1]) /
         3;
}

MeshOptions options_with(MeshInertia mode) {
  MeshOptions options;
  options.inertia = mode;
  return options;
}

// Unit cube: volume 1, centre (1/2, 1/2, 1/2), principal moments 1/6 per unit
// density, axes aligned (identity frame), bounding half-size 1/2.
TEST(MeshTest, UnitCube) {
  const ProcessedMesh pm = process_mesh(make_inline_mesh(kCubeVertices, kCubeFaces, "scene.xml", 7),
                                        MeshOptions{}, "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 1.0, 1e-12);
  EXPECT_TRUE(pm.pos.isApprox(Vector3d(0.5, 0.5, 0.5), 1e-12));
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(unit_moments(pm)[k], 1.0 / 6.0, 1e-12);
    EXPECT_NEAR(pm.half_size[k], 0.5, 1e-12);
    EXPECT_NEAR(pm.box_half_size[k], 0.5, 1e-12);
  }
  EXPECT_NEAR(std::abs(pm.quat.w()), 1.0, 1e-12);
  EXPECT_NEAR(pm.rbound, std::sqrt(0.75), 1e-12);
  ASSERT_EQ(pm.mesh.vertices.size(), 8u);
  EXPECT_TRUE(pm.mesh.vertices[0].isApprox(Vector3d(-0.5, -0.5, -0.5)));
}

// Tetrahedron with corners 0, a e_x, b e_y, c e_z: volume abc/6, centroid
// (a, b, c)/4; about the centroid the second moments are
// V/80 [[3a^2, -ab, -ac], [-ab, 3b^2, -bc], [-ac, -bc, 3c^2]], and the inertia
// tensor is trace(S) 1 - S. A convex, well-wound mesh gives the same in
// every volume mode.
TEST(MeshTest, TetrahedronInEveryVolumeMode) {
  const double a = 1, b = 2, c = 3;
  const std::vector<double> v = {0, 0, 0, a, 0, 0, 0, b, 0, 0, 0, c};
  const std::vector<int> f = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  const double vol = a * b * c / 6;
  Matrix3d s;
  s << 3 * a * a, -a * b, -a * c, -a * b, 3 * b * b, -b * c, -a * c, -b * c, 3 * c * c;
  s *= vol / 80;
  const Matrix3d expected = s.trace() * Matrix3d::Identity() - s;
  const TriangleMesh raw = make_inline_mesh(v, f, "scene.xml", 7);
  for (MeshInertia mode : {MeshInertia::kLegacy, MeshInertia::kExact, MeshInertia::kConvex}) {
    const ProcessedMesh pm = process_mesh(raw, options_with(mode), "scene.xml", 7);
    EXPECT_NEAR(pm.volume, vol, 1e-12 * vol);
    EXPECT_TRUE(pm.pos.isApprox(Vector3d(a, b, c) / 4, 1e-12));
    // The Jacobi iteration stops at 1e-12 off-diagonal or a 1.4e-6 rad turn.
    EXPECT_TRUE(tensor(pm.quat, unit_moments(pm)).isApprox(expected, 1e-6));
    // Principal moments come out in decreasing order.
    EXPECT_GE(unit_moments(pm)[0], unit_moments(pm)[1]);
    EXPECT_GE(unit_moments(pm)[1], unit_moments(pm)[2]);
  }
}

// An L-shaped and a U-shaped prism (non-convex), in each inertia mode, against
// MuJoCo 3.3.8 (body_mass / 1000 and body_inertia / 1000 of a geom with
// density 1000). Legacy adds absolute pyramid volumes about the surface
// centroid, so it over-counts the U; convex uses the hull; exact is the true
// volume; shell puts the mass on the surface.
TEST(MeshTest, NonConvexPrismsFollowMuJoCo3) {
  const std::vector<double> l_vertices = {0, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 1, 2, 0, 0, 2, 0,
                                          0, 0, 1, 2, 0, 1, 2, 1, 1, 1, 1, 1, 1, 2, 1, 0, 2, 1};
  const std::vector<int> l_faces = {0, 2,  1,  6, 7, 8,  0, 3,  2,  6, 8, 9, 0, 5, 3,
                                    6, 9,  11, 3, 5, 4,  9, 10, 11, 0, 1, 7, 0, 7, 6,
                                    1, 2,  8,  1, 8, 7,  2, 3,  9,  2, 9, 8, 3, 4, 10,
                                    3, 10, 9,  4, 5, 11, 4, 11, 10, 5, 0, 6, 5, 6, 11};
  const TriangleMesh l = make_inline_mesh(l_vertices, l_faces, "scene.xml", 7);
  struct Case {
    MeshInertia mode;
    double volume;
    Vector3d moments;
  };
  for (const Case& c : {Case{MeshInertia::kLegacy, 3, {1.833333333, 1.5, 0.833333333}},
                        Case{MeshInertia::kConvex, 3.5, {2.1031746, 1.5833333, 1.1031746}},
                        Case{MeshInertia::kExact, 3, {1.833333333, 1.5, 0.833333333}},
                        Case{MeshInertia::kShell, 14, {12.095238, 10, 6.428571}}}) {
    const ProcessedMesh pm = process_mesh(l, options_with(c.mode), "scene.xml", 7);
    EXPECT_NEAR(pm.volume, c.volume, 1e-9) << static_cast<int>(c.mode);
    EXPECT_TRUE(unit_moments(pm).isApprox(c.moments, 1e-6)) << unit_moments(pm).transpose();
  }
  const ProcessedMesh legacy = process_mesh(l, MeshOptions{}, "scene.xml", 7);
  EXPECT_TRUE(legacy.half_size.isApprox(Vector3d(0.5, 1.178511, 1.414214), 1e-6));
  EXPECT_NEAR(legacy.rbound, 1.907587, 1e-6);
}

// Winding is never repaired. Legacy and shell are blind to it (absolute
// volumes, areas); exact rejects inconsistent winding by name and a mesh
// wound inside out by its negative volume.
TEST(MeshTest, WindingAcceptedOrRejectedByMode) {
  const TriangleMesh inward = make_inline_mesh(kCubeVertices, flipped(kCubeFaces), "scene.xml", 7);
  EXPECT_NEAR(process_mesh(inward, MeshOptions{}, "scene.xml", 7).volume, 1.0, 1e-12);
  EXPECT_NEAR(process_mesh(inward, options_with(MeshInertia::kShell), "scene.xml", 7).volume, 6.0,
              1e-12);
  expect_load_error([&] { process_mesh(inward, exact_options(), "scene.xml", 7); },
                    {"volume is negative"});
  // Two triangles crossing the shared edge 0-2 in the same direction.
  std::vector<int> inconsistent = kCubeFaces;
  std::swap(inconsistent[4], inconsistent[5]);
  const TriangleMesh one_flipped = make_inline_mesh(kCubeVertices, inconsistent, "scene.xml", 7);
  const ProcessedMesh legacy = process_mesh(one_flipped, MeshOptions{}, "scene.xml", 7);
  EXPECT_NEAR(legacy.volume, 1.0, 1e-12);
  EXPECT_NEAR(process_mesh(one_flipped, options_with(MeshInertia::kConvex), "scene.xml", 7).volume,
              1.0, 1e-12);
  expect_load_error([&] { process_mesh(one_flipped, exact_options(), "scene.xml", 7); },
                    {"inconsistent orientation", "vertex 1 to vertex 3"});
}

// refpos, refquat, then scale (2, 3, 4): the cube becomes a 2 x 3 x 4 box:
// volume 24, moments (9 + 16, 4 + 16, 4 + 9) / 12 * 24 per unit density.
TEST(MeshTest, ReferenceFrameAndScaleApplied) {
  MeshOptions options;
  options.scale = Vector3d(2, 3, 4);
  options.refpos = Vector3d(1, 0, 0);
  options.refquat = Quaterniond(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitZ()));
  const ProcessedMesh pm = process_mesh(make_inline_mesh(kCubeVertices, kCubeFaces, "scene.xml", 7),
                                        options, "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 24, 1e-10);
  EXPECT_TRUE(unit_moments(pm).isApprox(Vector3d(24 * 25, 24 * 20, 24 * 13) / 12.0, 1e-12));
  // Centre (0.5, 0.5, 0.5) - refpos = (-0.5, 0.5, 0.5), turned by -90 degrees
  // about z to (0.5, 0.5, 0.5), then scaled.
  EXPECT_TRUE(pm.pos.isApprox(Vector3d(1, 1.5, 2), 1e-12));
  EXPECT_TRUE(pm.half_size.isApprox(Vector3d(1, 1.5, 2), 1e-12));
}

// Vertices without faces: the faces are those of the convex hull; interior
// points stay in the vertex list but do not change the mass properties.
TEST(MeshTest, ConvexHullWhenNoFaces) {
  std::vector<double> v = kCubeVertices;
  v.insert(v.end(), {0.5, 0.5, 0.5, 0.25, 0.5, 0.75});
  const TriangleMesh raw = make_inline_mesh(v, {}, "scene.xml", 7);
  EXPECT_EQ(raw.vertices.size(), 10u);
  EXPECT_EQ(raw.faces.size(), 12u);
  const ProcessedMesh pm = process_mesh(raw, exact_options(), "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 1.0, 1e-12);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(unit_moments(pm)[k], 1.0 / 6.0, 1e-12);
}

TEST(MeshTest, EigenDecompositionSortsAndReconstructs) {
  Vector3d values;
  Quaterniond q;
  eigen_decompose_symmetric3(Vector3d(1, 2, 3).asDiagonal(), &values, &q);
  EXPECT_TRUE(values.isApprox(Vector3d(3, 2, 1)));
  // MuJoCo's frame for this input: 180 degrees about (x + z) / sqrt(2), to
  // the bit as MuJoCo 3.3.8 gives it (body_iquat for fullinertia="1 2 3 0 0
  // 0"): 1.3e-15 above sqrt(0.5), its sorting turns being rounded constants.
  EXPECT_EQ(std::abs(q.w()), 0.0);
  EXPECT_EQ(std::abs(q.x()), 0.7071067811865489);
  EXPECT_EQ(std::abs(q.y()), 0.0);
  EXPECT_EQ(std::abs(q.z()), 0.7071067811865489);

  // The iteration stops once the next rotation would be below ~1.4e-6 rad, so
  // the reconstruction is only that good; the numbers are mju_eig3's.
  Matrix3d m;
  m << 3, 0.5, 0.2, 0.5, 2, 0.1, 0.2, 0.1, 1;
  eigen_decompose_symmetric3(m, &values, &q);
  EXPECT_TRUE(tensor(q, values).isApprox(m, 1e-5));
  EXPECT_TRUE(values.isApprox(Vector3d(3.2294231550758639, 1.7931965362848754, 0.97738030863926029),
                              1e-12));
  const Quaterniond mujoco(0.97931965314993341, 0.0191663800586045, -0.046996395245123619,
                           0.19584944642175348);
  EXPECT_NEAR(std::abs(q.dot(mujoco)), 1.0, 1e-12);
  EXPECT_TRUE(q.coeffs().isApprox(mujoco.coeffs(), 1e-12) ||
              q.coeffs().isApprox(-mujoco.coeffs(), 1e-12));
}

TEST_F(MeshFileTest, BinaryAndAsciiStlRoundTrip) {
  write_binary_stl(path("cube.stl"), kCubeVertices, kCubeFaces);
  write_ascii_stl(path("cube_ascii.STL"), kCubeVertices, kCubeFaces);
  const TriangleMesh bin = read_mesh_file(path("cube.stl"), false, "scene.xml", 7);
  const TriangleMesh txt = read_mesh_file(path("cube_ascii.STL"), false, "scene.xml", 7);
  // Repeated corners are merged: 8 vertices, 12 triangles.
  ASSERT_EQ(bin.vertices.size(), 8u);
  ASSERT_EQ(bin.faces.size(), 12u);
  ASSERT_EQ(txt.vertices.size(), bin.vertices.size());
  ASSERT_EQ(txt.faces.size(), bin.faces.size());
  for (size_t i = 0; i < bin.vertices.size(); ++i) EXPECT_EQ(txt.vertices[i], bin.vertices[i]);
  for (size_t i = 0; i < bin.faces.size(); ++i) {
    EXPECT_EQ(txt.faces[i], bin.faces[i]);
    for (int k = 0; k < 3; ++k) {
      // Each triangle keeps its corner positions and winding.
      const int src = kCubeFaces[3 * i + k];
      EXPECT_EQ(
          bin.vertices[bin.faces[i][k]],
          Vector3d(kCubeVertices[3 * src], kCubeVertices[3 * src + 1], kCubeVertices[3 * src + 2]));
    }
  }
  const ProcessedMesh pm = process_mesh(bin, exact_options(), "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 1.0, 1e-12);
}

// content_type names the format whatever the extension: an STL file named
// .bin reads as the same STL, and read as OBJ it is refused.
TEST_F(MeshFileTest, ContentTypeOverridesTheExtension) {
  write_binary_stl(path("cube.stl"), kCubeVertices, kCubeFaces);
  write_binary_stl(path("cube_stl.bin"), kCubeVertices, kCubeFaces);
  const TriangleMesh stl = read_mesh_file(path("cube.stl"), false, "scene.xml", 7);
  const TriangleMesh bin = read_mesh_file(path("cube_stl.bin"), false, "scene.xml", 7, "stl");
  ASSERT_EQ(bin.vertices.size(), stl.vertices.size());
  for (size_t i = 0; i < stl.vertices.size(); ++i) EXPECT_EQ(bin.vertices[i], stl.vertices[i]);
  EXPECT_EQ(bin.faces, stl.faces);
  expect_load_error([&] { read_mesh_file(path("cube_stl.bin"), false, "scene.xml", 7); },
                    {"unknown extension 'bin'"});
  expect_load_error([&] { read_mesh_file(path("cube.stl"), false, "scene.xml", 7, "obj"); },
                    {"cube.stl"});
}

// A mirroring scale re-winds file triangles, so the volume stays positive.
TEST_F(MeshFileTest, MirroringScaleKeepsOutwardWinding) {
  write_binary_stl(path("cube.stl"), kCubeVertices, kCubeFaces);
  const TriangleMesh raw = read_mesh_file(path("cube.stl"), true, "scene.xml", 7);
  MeshOptions options = exact_options();
  options.scale = Vector3d(-1, 2, 1);
  const ProcessedMesh pm = process_mesh(raw, options, "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 2.0, 1e-12);
  EXPECT_TRUE(pm.pos.isApprox(Vector3d(-0.5, 1, 0.5), 1e-7));
}

// OBJ quads are split into two triangles; the file's vertices are kept as
// they are, as MuJoCo 3.x keeps them.
TEST_F(MeshFileTest, ObjWithQuads) {
  std::ofstream out(path("cube.OBJ"));
  out << "# cube\n";
  for (size_t i = 0; i < kCubeVertices.size(); i += 3) {
    out << "v " << kCubeVertices[i] << " " << kCubeVertices[i + 1] << " " << kCubeVertices[i + 2]
        << "\n";
  }
  out << "f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";
  out.close();
  const TriangleMesh raw = read_mesh_file(path("cube.OBJ"), false, "scene.xml", 7);
  EXPECT_EQ(raw.faces.size(), 12u);
  EXPECT_EQ(raw.vertices.size(), 8u);
  const ProcessedMesh pm = process_mesh(raw, exact_options(), "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 1.0, 1e-12);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(unit_moments(pm)[k], 1.0 / 6.0, 1e-12);
}

// Faces of more than four vertices, concave ones included, are cut into
// triangles by ear clipping: an L-shaped prism with each cap one hexagon
// keeps its volume (4, an L of area 4 and height 1), and the caps
// are cut where MuJoCo 3.3.8 cuts them (tests/data/mujoco3/obj_polygons.xml
// compares more polygons with 3.3.8 itself).
TEST_F(MeshFileTest, ObjConcavePolygonsAreCutIntoEars) {
  std::ofstream out(path("l_prism.obj"));
  const double outline[6][2] = {{0, 0}, {3, 0}, {3, 1}, {1, 1}, {1, 2}, {0, 2}};
  for (double z : {0.0, 1.0}) {
    for (const auto& p : outline) out << "v " << p[0] << " " << p[1] << " " << z << "\n";
  }
  out << "f 6 5 4 3 2 1\nf 7 8 9 10 11 12\n";
  for (int i = 0; i < 6; ++i) {
    const int j = (i + 1) % 6;
    out << "f " << i + 1 << " " << j + 1 << " " << j + 7 << " " << i + 7 << "\n";
  }
  out.close();
  const TriangleMesh raw = read_mesh_file(path("l_prism.obj"), false, "scene.xml", 7);
  ASSERT_EQ(raw.faces.size(), 20u);
  // The bottom: the ear at the inner corner's far side first, never the
  // triangle (5, 3, 2) that crosses the notch.
  const std::vector<std::array<int, 3>> bottom = {{5, 4, 3}, {3, 2, 1}, {3, 1, 0}, {5, 3, 0}};
  for (int t = 0; t < 4; ++t) EXPECT_EQ(raw.faces[t], bottom[t]) << "triangle " << t;
  // Quads are cut along their first diagonal, as MuJoCo 3.3.8 cuts them.
  EXPECT_EQ(raw.faces[8], (std::array<int, 3>{0, 1, 7}));
  EXPECT_EQ(raw.faces[9], (std::array<int, 3>{0, 7, 6}));
  const ProcessedMesh pm = process_mesh(raw, exact_options(), "scene.xml", 7);
  EXPECT_NEAR(pm.volume, 4.0, 1e-12);
}

TEST_F(MeshFileTest, MissingFile) {
  const std::string missing = path("nope.stl");
  expect_load_error([&] { read_mesh_file(missing, false, "scene.xml", 7); },
                    {missing, "cannot open"});
  const std::string missing_obj = path("nope.obj");
  expect_load_error([&] { read_mesh_file(missing_obj, false, "scene.xml", 7); },
                    {missing_obj, "cannot open"});
}

TEST_F(MeshFileTest, TruncatedBinaryStl) {
  write_binary_stl(path("short.stl"), kCubeVertices, kCubeFaces, 10);
  expect_load_error([&] { read_mesh_file(path("short.stl"), false, "scene.xml", 7); },
                    {path("short.stl"), "wrong size", "12 triangles"});
  std::ofstream(path("tiny.stl"), std::ios::binary) << "abc";
  expect_load_error([&] { read_mesh_file(path("tiny.stl"), false, "scene.xml", 7); },
                    {path("tiny.stl"), "84"});
  std::ofstream(path("empty.stl"), std::ios::binary).close();
  expect_load_error([&] { read_mesh_file(path("empty.stl"), false, "scene.xml", 7); },
                    {path("empty.stl"), "empty"});
}

TEST_F(MeshFileTest, UnknownExtension) {
  std::ofstream(path("cube.ply")) << "ply\n";
  expect_load_error([&] { read_mesh_file(path("cube.ply"), false, "scene.xml", 7); },
                    {path("cube.ply"), "unknown extension", ".stl", ".obj"});
}

TEST_F(MeshFileTest, ObjFaceIndexOutOfRange) {
  std::ofstream(path("bad.obj")) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 9\n";
  expect_load_error([&] { read_mesh_file(path("bad.obj"), false, "scene.xml", 7); },
                    {path("bad.obj")});
}

TEST(MeshTest, InlineErrors) {
  std::vector<int> bad = kCubeFaces;
  bad[4] = 8;
  expect_load_error([&] { make_inline_mesh(kCubeVertices, bad, "scene.xml", 7); },
                    {"index 8", "0 to 7"});
  TriangleMesh raw = make_inline_mesh(kCubeVertices, kCubeFaces, "scene.xml", 7);
  raw.faces[0][0] = -1;
  expect_load_error([&] { process_mesh(raw, MeshOptions{}, "scene.xml", 7); },
                    {"index -1", "0 to 7"});
  expect_load_error(
      [&] {
        make_inline_mesh({0, 0, 0, 1, 0, 0, 0, 1}, {}, "scene.xml", 7);
      },
      {"multiple of 3"});
  expect_load_error(
      [&] {
        make_inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0}, {}, "scene.xml", 7);
      },
      {"at least 4"});
  expect_load_error(
      [&] {
        make_inline_mesh(kCubeVertices, {0, 1}, "scene.xml", 7);
      },
      {"multiple of 3"});
  // Coplanar vertices enclose nothing.
  expect_load_error(
      [&] {
        make_inline_mesh({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}, {}, "scene.xml", 7);
      },
      {"coplanar"});
}

}  // namespace
}  // namespace pliant
