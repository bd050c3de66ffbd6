#pragma once

// The OpenGL 3.3 renderer: a shadow pass from one light, then the lit scene
// (model lights and a headlight, materials, checker and file textures), then
// translucent items back to front. Round primitives are tessellated at three
// levels of detail chosen by their size on screen (or in the shadow map),
// and items outside the view frustum are skipped. Needs a current OpenGL context; one
// Renderer per context.

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
  void draw_item(const DrawItem& item, int level);
  // The mesh that draws `item` at a level of detail (0 finest, 2 coarsest;
  // only the round primitives have levels).
  const GpuMesh* mesh_for(const DrawItem& item, int level) const;
  // Radius of the sphere around the unit shape (or model mesh) at the
  // origin that holds it; 0 for planes (never culled).
  float local_radius(const DrawItem& item) const;

  // Locations of the per-item uniforms of the scene shader, looked up once.
  struct ItemUniforms {
    GLint model, normal_matrix, color, specular, shininess, emission, lit, texture_mode, tex_scale;
  };

  static constexpr int kLevels = 3;
  struct Round {
    GpuMesh level[kLevels];
  };
  ShaderProgram scene_, depth_, background_;
  ItemUniforms item_uniforms_{};
  Round sphere_, hemisphere_, tube_, cylinder_, cone_;
  GpuMesh box_, plane_;
  std::vector<GpuMesh> model_meshes_;
  std::vector<float> model_mesh_radius_;
  std::vector<GLuint> textures_;  // per model texture, 0 when not a 2-D texture
  Eigen::Vector3f sky_top_, sky_bottom_;
  GLuint shadow_fbo_ = 0, shadow_texture_ = 0;
  int shadow_size_ = 2048;
  GLuint empty_vao_ = 0;
};

}  // namespace pliant::viewer
