#pragma once

// The OpenGL 3.3 renderer: a shadow pass from one light, then the lit scene
// (model lights and a headlight, materials, checker and file textures), then
// translucent items back to front. Needs a current OpenGL context; one
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
  void shadow_pass(const std::vector<DrawItem>& items, const Eigen::Matrix4f& light_view_proj);
  void draw_item(const DrawItem& item);
  const GpuMesh* mesh_for(const DrawItem& item) const;

  ShaderProgram scene_, depth_, background_;
  GpuMesh sphere_, hemisphere_, tube_, cylinder_, cone_, box_, plane_;
  std::vector<GpuMesh> model_meshes_;
  std::vector<GLuint> textures_;  // per model texture, 0 when not a 2-D texture
  Eigen::Vector3f sky_top_, sky_bottom_;
  GLuint shadow_fbo_ = 0, shadow_texture_ = 0;
  int shadow_size_ = 2048;
  GLuint empty_vao_ = 0;
};

}  // namespace pliant::viewer
