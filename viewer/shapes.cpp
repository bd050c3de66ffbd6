#include "viewer/shapes.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace pliant::viewer {
namespace {

using Eigen::Vector3f;

constexpr float kPi = std::numbers::pi_v<float>;

void add_triangle(MeshData& mesh, uint32_t a, uint32_t b, uint32_t c) {
  mesh.indices.insert(mesh.indices.end(), {a, b, c});
}

// A latitude-longitude grid on the unit sphere between polar angles
// theta0 and theta1 (0 at +z).
MeshData sphere_band(int slices, int stacks, float theta0, float theta1) {
  MeshData mesh;
  for (int i = 0; i <= stacks; ++i) {
    const float theta = theta0 + (theta1 - theta0) * static_cast<float>(i) / stacks;
    for (int j = 0; j <= slices; ++j) {
      const float phi = 2 * kPi * static_cast<float>(j) / slices;
      const Vector3f p(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                       std::cos(theta));
      mesh.add_vertex(p, p);
    }
  }
  const int row = slices + 1;
  for (int i = 0; i < stacks; ++i) {
    for (int j = 0; j < slices; ++j) {
      const uint32_t a = i * row + j, b = a + row;
      add_triangle(mesh, a, b, a + 1);
      add_triangle(mesh, a + 1, b, b + 1);
    }
  }
  return mesh;
}

// A disk of radius 1 at height z facing +z or -z.
void add_disk(MeshData& mesh, int slices, float z, float facing) {
  const uint32_t centre = mesh.vertex_count();
  const Vector3f normal(0, 0, facing);
  mesh.add_vertex(Vector3f(0, 0, z), normal);
  for (int j = 0; j <= slices; ++j) {
    const float phi = 2 * kPi * static_cast<float>(j) / slices;
    mesh.add_vertex(Vector3f(std::cos(phi), std::sin(phi), z), normal);
  }
  for (int j = 0; j < slices; ++j) {
    const uint32_t a = centre + 1 + j;
    if (facing > 0) {
      add_triangle(mesh, centre, a, a + 1);
    } else {
      add_triangle(mesh, centre, a + 1, a);
    }
  }
}

}  // namespace

void MeshData::add_vertex(const Vector3f& position, const Vector3f& normal) {
  vertices.insert(vertices.end(),
                  {position.x(), position.y(), position.z(), normal.x(), normal.y(), normal.z()});
}

MeshData make_sphere(int slices, int stacks) { return sphere_band(slices, stacks, 0, kPi); }

MeshData make_hemisphere(int slices, int stacks) { return sphere_band(slices, stacks, 0, kPi / 2); }

MeshData make_cylinder(int slices, bool caps) {
  MeshData mesh;
  for (int j = 0; j <= slices; ++j) {
    const float phi = 2 * kPi * static_cast<float>(j) / slices;
    const Vector3f n(std::cos(phi), std::sin(phi), 0);
    mesh.add_vertex(Vector3f(n.x(), n.y(), -1), n);
    mesh.add_vertex(Vector3f(n.x(), n.y(), 1), n);
  }
  for (int j = 0; j < slices; ++j) {
    const uint32_t a = 2 * j;
    add_triangle(mesh, a, a + 2, a + 1);
    add_triangle(mesh, a + 1, a + 2, a + 3);
  }
  if (caps) {
    add_disk(mesh, slices, 1, 1);
    add_disk(mesh, slices, -1, -1);
  }
  return mesh;
}

MeshData make_cone(int slices) {
  MeshData mesh;
  // The side normal of a cone of slope 1 leans 45 degrees up from radial.
  const float s = std::sqrt(0.5f);
  for (int j = 0; j <= slices; ++j) {
    const float phi = 2 * kPi * static_cast<float>(j) / slices;
    const Vector3f n(s * std::cos(phi), s * std::sin(phi), s);
    mesh.add_vertex(Vector3f(std::cos(phi), std::sin(phi), 0), n);
    mesh.add_vertex(Vector3f(0, 0, 1), n);
  }
  for (int j = 0; j < slices; ++j) add_triangle(mesh, 2 * j, 2 * j + 2, 2 * j + 1);
  add_disk(mesh, slices, 0, -1);
  return mesh;
}

MeshData make_box() {
  MeshData mesh;
  for (int axis = 0; axis < 3; ++axis) {
    for (float side : {-1.0f, 1.0f}) {
      Vector3f n = Vector3f::Zero();
      n[axis] = side;
      const Vector3f u = Vector3f::Unit((axis + 1) % 3), v = Vector3f::Unit((axis + 2) % 3);
      const uint32_t first = mesh.vertex_count();
      for (const auto& [a, b] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
        mesh.add_vertex(n + static_cast<float>(a) * u + static_cast<float>(b) * v, n);
      }
      // u x v = +axis: counter-clockwise seen from outside when side > 0.
      if (side > 0) {
        add_triangle(mesh, first, first + 1, first + 2);
        add_triangle(mesh, first, first + 2, first + 3);
      } else {
        add_triangle(mesh, first, first + 2, first + 1);
        add_triangle(mesh, first, first + 3, first + 2);
      }
    }
  }
  return mesh;
}

MeshData make_plane() {
  MeshData mesh;
  const Vector3f n(0, 0, 1);
  for (const auto& [a, b] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
    mesh.add_vertex(Vector3f(static_cast<float>(a), static_cast<float>(b), 0), n);
  }
  add_triangle(mesh, 0, 1, 2);
  add_triangle(mesh, 0, 2, 3);
  return mesh;
}

MeshData make_model_mesh(const Model& model, int mesh_id) {
  const Meshes& meshes = model.meshes;
  const int vert_adr = meshes.vert_adr[mesh_id], vert_count = meshes.vert_count[mesh_id];
  const int face_adr = meshes.face_adr[mesh_id], face_count = meshes.face_count[mesh_id];
  auto vertex = [&](int i) { return meshes.vertices[vert_adr + i].cast<float>().eval(); };

  // Face normals scaled by twice the face area, summed at each vertex.
  std::vector<Vector3f> face_normal(face_count);
  std::vector<Vector3f> vertex_normal(vert_count, Vector3f::Zero());
  for (int f = 0; f < face_count; ++f) {
    const auto& face = meshes.faces[face_adr + f];
    const Vector3f n = (vertex(face[1]) - vertex(face[0])).cross(vertex(face[2]) - vertex(face[0]));
    face_normal[f] = n.normalized();
    for (int k = 0; k < 3; ++k) vertex_normal[face[k]] += n;
  }
  constexpr float kCreaseCos = 0.5f;  // cos 60 degrees
  MeshData mesh;
  mesh.vertices.reserve(face_count * 18);
  mesh.indices.reserve(face_count * 3);
  for (int f = 0; f < face_count; ++f) {
    const auto& face = meshes.faces[face_adr + f];
    for (int k = 0; k < 3; ++k) {
      Vector3f n = vertex_normal[face[k]].normalized();
      if (!(n.dot(face_normal[f]) > kCreaseCos)) n = face_normal[f];
      mesh.indices.push_back(mesh.vertex_count());
      mesh.add_vertex(vertex(face[k]), n);
    }
  }
  return mesh;
}

MeshData make_hfield_mesh(const Model& model, int hfield_id) {
  const Hfields& h = model.hfields;
  const int nrow = h.nrow[hfield_id], ncol = h.ncol[hfield_id];
  const Eigen::Vector4d& size = h.size[hfield_id];
  MeshData mesh;
  if (nrow < 2 || ncol < 2) return mesh;
  const float dx = static_cast<float>(2 * size[0] / (ncol - 1));
  const float dy = static_cast<float>(2 * size[1] / (nrow - 1));
  const float bottom = static_cast<float>(-size[3]);
  auto point = [&](int r, int c) {
    return Vector3f(dx * c - static_cast<float>(size[0]), dy * r - static_cast<float>(size[1]),
                    h.elevation(hfield_id, r, c) * static_cast<float>(size[2]));
  };
  // Surface normals from central differences of the elevation.
  auto normal = [&](int r, int c) {
    const float zx = point(r, std::min(c + 1, ncol - 1)).z() - point(r, std::max(c - 1, 0)).z();
    const float zy = point(std::min(r + 1, nrow - 1), c).z() - point(std::max(r - 1, 0), c).z();
    const float wx = dx * (std::min(c + 1, ncol - 1) - std::max(c - 1, 0));
    const float wy = dy * (std::min(r + 1, nrow - 1) - std::max(r - 1, 0));
    return Vector3f(-zx / wx, -zy / wy, 1).normalized();
  };
  const int top_start = mesh.vertex_count();
  for (int r = 0; r < nrow; ++r) {
    for (int c = 0; c < ncol; ++c) mesh.add_vertex(point(r, c), normal(r, c));
  }
  auto top = [&](int r, int c) { return static_cast<uint32_t>(top_start + r * ncol + c); };
  for (int r = 0; r + 1 < nrow; ++r) {
    for (int c = 0; c + 1 < ncol; ++c) {
      // Counter-clockwise seen from above.
      for (uint32_t i : {top(r, c), top(r, c + 1), top(r + 1, c), top(r + 1, c), top(r, c + 1),
                         top(r + 1, c + 1)}) {
        mesh.indices.push_back(i);
      }
    }
  }
  // A flat quad (two triangles) with one normal.
  auto quad = [&](const Vector3f& a, const Vector3f& b, const Vector3f& c, const Vector3f& d) {
    const Vector3f n = (b - a).cross(d - a).normalized();
    const uint32_t first = static_cast<uint32_t>(mesh.vertex_count());
    for (const Vector3f& v : {a, b, c, d}) mesh.add_vertex(v, n);
    for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) mesh.indices.push_back(first + i);
  };
  auto down = [&](const Vector3f& v) { return Vector3f(v.x(), v.y(), bottom); };
  // Side walls, one quad per edge segment, facing outwards.
  for (int c = 0; c + 1 < ncol; ++c) {
    const Vector3f a = point(0, c), b = point(0, c + 1);
    quad(down(a), down(b), b, a);
    const Vector3f e = point(nrow - 1, c + 1), f = point(nrow - 1, c);
    quad(down(e), down(f), f, e);
  }
  for (int r = 0; r + 1 < nrow; ++r) {
    const Vector3f a = point(r + 1, 0), b = point(r, 0);
    quad(down(a), down(b), b, a);
    const Vector3f e = point(r, ncol - 1), f = point(r + 1, ncol - 1);
    quad(down(e), down(f), f, e);
  }
  // The base, facing down.
  quad(down(point(0, 0)), down(point(nrow - 1, 0)), down(point(nrow - 1, ncol - 1)),
       down(point(0, ncol - 1)));
  return mesh;
}

GpuMesh::GpuMesh(const MeshData& data) : index_count_(static_cast<GLsizei>(data.indices.size())) {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glGenBuffers(1, &ebo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, data.vertices.size() * sizeof(float), data.vertices.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, data.indices.size() * sizeof(uint32_t), data.indices.data(),
               GL_STATIC_DRAW);
  const GLsizei stride = 6 * sizeof(float);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(3 * sizeof(float)));
  glBindVertexArray(0);
}

GpuMesh::~GpuMesh() { release(); }

GpuMesh::GpuMesh(GpuMesh&& other) noexcept
    : vao_(std::exchange(other.vao_, 0)),
      vbo_(std::exchange(other.vbo_, 0)),
      ebo_(std::exchange(other.ebo_, 0)),
      index_count_(std::exchange(other.index_count_, 0)) {}

GpuMesh& GpuMesh::operator=(GpuMesh&& other) noexcept {
  if (this != &other) {
    release();
    vao_ = std::exchange(other.vao_, 0);
    vbo_ = std::exchange(other.vbo_, 0);
    ebo_ = std::exchange(other.ebo_, 0);
    index_count_ = std::exchange(other.index_count_, 0);
  }
  return *this;
}

void GpuMesh::release() {
  if (vao_ == 0) return;
  glDeleteVertexArrays(1, &vao_);
  glDeleteBuffers(1, &vbo_);
  glDeleteBuffers(1, &ebo_);
  vao_ = vbo_ = ebo_ = 0;
}

void GpuMesh::bind() const { glBindVertexArray(vao_); }

void GpuMesh::draw_instances(int count) const {
  if (vao_ == 0 || count <= 0) return;
  glDrawElementsInstanced(GL_TRIANGLES, index_count_, GL_UNSIGNED_INT, nullptr, count);
}

}  // namespace pliant::viewer
