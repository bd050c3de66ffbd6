#pragma once

// The OpenGL 3.3 renderer: a shadow pass from one light, then the lit scene
// (model lights and a headlight, materials, checker and file textures), then
// translucent items back to front. Items are drawn instanced: one draw call
// for all the items of one mesh (and texture), each instance bringing its
// transform, colour and material. Round primitives are tessellated at three
// levels of detail chosen by their size on screen (or in the shadow map),
// and items outside the view frustum are skipped. Needs a current OpenGL
// context; one Renderer per context.

#include <memory>
#include <vector>

#include "viewer/camera.h"
#include "viewer/gl.h"
#include "viewer/scene.h"
#include "viewer/shaders.h"
#include "viewer/shapes.h"

namespace pliant::viewer {

class Renderer {
 public:
  // Throws std::runtime_error when the shaders do not build.
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // Uploads the model's meshes and textures (call after each load).
  void set_model(const Model& model);

  // Draws `items` into the rectangle (x, y lower-left, width, height) of
  // `framebuffer` (0: the window); the rest of the framebuffer is cleared.
  void render(const Model& model, const Data& data, const CameraView& view,
              const SceneBounds& bounds, const VisualOptions& options,
              const std::vector<DrawItem>& items, GLuint framebuffer, int x, int y, int width,
              int height);

 private:
  struct Lights;
  void shadow_pass(const std::vector<DrawItem>& items, const Eigen::Matrix4f& light_view_proj,
                   float texels_per_metre);
  // The mesh that draws `item` at a level of detail (0 finest, 2 coarsest;
  // only the round primitives have levels).
  const GpuMesh* mesh_for(const DrawItem& item, int level) const;
  // Radius of the sphere around the unit shape (or model mesh) at the
  // origin that holds it; 0 for planes (never culled).
  float local_radius(const DrawItem& item) const;

  // One item to draw: its mesh at the chosen level, and its texture (0: none).
  struct Entry {
    const DrawItem* item;
    const GpuMesh* mesh;
    GLuint texture;
  };
  Entry entry_for(const DrawItem& item, int level) const;
  // A run of instances_ drawn with one call.
  struct Batch {
    const GpuMesh* mesh;
    GLuint texture;
    int first, count;
  };
  // Appends `entries` to instances_ and batches_. Without `keep_order`, the
  // entries of one mesh and texture share a batch (batches in the order of
  // their first entry, entries in order within a batch); with it, only
  // consecutive entries do (translucent items, drawn back to front).
  void append_batches(const std::vector<Entry>& entries, bool keep_order);
  // Uploads instances_ and draws batches_[first, last).
  void upload_instances();
  void draw_batches(size_t first, size_t last) const;

  static constexpr int kLevels = 3;
  struct Round {
    GpuMesh level[kLevels];
  };
  ShaderProgram scene_, depth_, background_;
  Round sphere_, hemisphere_, tube_, cylinder_, cone_;
  GpuMesh box_, plane_;
  std::vector<GpuMesh> model_meshes_;
  std::vector<float> model_mesh_radius_;
  std::vector<GLuint> textures_;  // per model texture, 0 when not a 2-D texture
  Eigen::Vector3f sky_top_, sky_bottom_;
  GLuint shadow_fbo_ = 0, shadow_texture_ = 0;
  int shadow_size_ = 2048;
  GLuint empty_vao_ = 0;
  // Per-instance attributes of the frame's draws (the layout of
  // scene_vertex_shader), their GPU buffer, and the batches drawing them.
  struct Instance {
    float model[16];
    float normal[9];
    float color[4];
    float material[4];  // specular, shininess exponent, emission, lit (0 or 1)
    float texture[4];   // mode, scale x, scale y, unused
  };
  std::vector<Instance> instances_;
  std::vector<Batch> batches_;
  GLuint instance_buffer_ = 0;
};

}  // namespace pliant::viewer
