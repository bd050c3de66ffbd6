#pragma once

// Triangle meshes of the unit primitives the renderer scales into geoms and
// decorations, the model's meshes with normals, and their GPU buffers.

#include <cstdint>
#include <vector>

#include "pliant/model.h"
#include "viewer/gl.h"

namespace pliant::viewer {

// Interleaved vertices (x, y, z, nx, ny, nz) and triangle indices.
struct MeshData {
  std::vector<float> vertices;
  std::vector<uint32_t> indices;

  void add_vertex(const Eigen::Vector3f& position, const Eigen::Vector3f& normal);
  int vertex_count() const { return static_cast<int>(vertices.size() / 6); }
};

MeshData make_sphere(int slices, int stacks);      // radius 1
MeshData make_hemisphere(int slices, int stacks);  // radius 1, z >= 0
MeshData make_cylinder(int slices, bool caps);     // radius 1, z in [-1, 1]
MeshData make_cone(int slices);                    // base radius 1 at z = 0, apex at z = 1
MeshData make_box();                               // [-1, 1]^3
MeshData make_plane();                             // [-1, 1]^2 at z = 0, normal +z

// Mesh `mesh_id` of the model, in the geom frame. Each corner takes the
// area-weighted normal of the faces around its vertex, unless that normal is
// more than 60 degrees off its own face (a crease): then the face normal, so
// that boxes stay sharp and curved surfaces smooth.
MeshData make_model_mesh(const Model& model, int mesh_id);

// Height field `hfield_id` of the model, in the geom frame: the surface as
// the collision sees it (each grid cell two triangles, split along the
// diagonal from (r + 1, c) to (r, c + 1)) with smooth normals, closed by
// four side walls and a base at z = -size[3].
MeshData make_hfield_mesh(const Model& model, int hfield_id);

// A mesh uploaded to the GPU (vertex array, vertex and index buffers).
class GpuMesh {
 public:
  GpuMesh() = default;
  explicit GpuMesh(const MeshData& data);
  ~GpuMesh();
  GpuMesh(const GpuMesh&) = delete;
  GpuMesh& operator=(const GpuMesh&) = delete;
  GpuMesh(GpuMesh&& other) noexcept;
  GpuMesh& operator=(GpuMesh&& other) noexcept;

  // Drawing is instanced: bind() makes the mesh's vertex array current (so
  // that per-instance attributes can be pointed at a buffer),
  // draw_instances() then draws `count` instances of it.
  void bind() const;
  void draw_instances(int count) const;

 private:
  void release();
  GLuint vao_ = 0, vbo_ = 0, ebo_ = 0;
  GLsizei index_count_ = 0;
};

}  // namespace pliant::viewer
