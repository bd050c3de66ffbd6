#pragma once

// The GLSL programs of the renderer: the lit scene pass (lights, one shadow
// map, materials, checker textures), the depth-only shadow pass and the
// background gradient.

#include <string>

#include "viewer/gl.h"

namespace pliant::viewer {

// A linked program. Construction compiles and links; failures throw
// std::runtime_error with the GLSL log.
class ShaderProgram {
 public:
  ShaderProgram() = default;
  ShaderProgram(const char* vertex_source, const char* fragment_source);
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;

  GLuint id() const { return id_; }
  GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }
  void use() const { glUseProgram(id_); }

 private:
  GLuint id_ = 0;
};

// Sources of the programs.
const char* scene_vertex_shader();
const char* scene_fragment_shader();
const char* depth_vertex_shader();
const char* depth_fragment_shader();
const char* background_vertex_shader();
const char* background_fragment_shader();

// Most lights the scene shader takes (the model's lights plus the headlight).
constexpr int kMaxLights = 8;

}  // namespace pliant::viewer
