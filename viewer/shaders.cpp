#include "viewer/shaders.h"

#include <stdexcept>
#include <utility>

namespace pliant::viewer {
namespace {

GLuint compile(GLenum kind, const char* source) {
  const GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
    glDeleteShader(shader);
    throw std::runtime_error(std::string("GLSL compile error: ") + log);
  }
  return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(const char* vertex_source, const char* fragment_source) {
  const GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source);
  const GLuint fragment = compile(GL_FRAGMENT_SHADER, fragment_source);
  id_ = glCreateProgram();
  glAttachShader(id_, vertex);
  glAttachShader(id_, fragment);
  glLinkProgram(id_);
  glDeleteShader(vertex);
  glDeleteShader(fragment);
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(id_, sizeof(log), nullptr, log);
    glDeleteProgram(id_);
    id_ = 0;
    throw std::runtime_error(std::string("GLSL link error: ") + log);
  }
}

ShaderProgram::~ShaderProgram() {
  if (id_ != 0) glDeleteProgram(id_);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (id_ != 0) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

// Scene pass, drawn instanced: each instance brings its transform, normal
// matrix, colour and material as vertex attributes (one draw call draws
// every item of one mesh). The vertex stage passes the shape-local position
// on, so that planes can be textured (uv = local xy times a scale) without
// texture coordinates in the vertex buffers.
const char* scene_vertex_shader() {
  return R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in mat4 i_model;
layout(location = 6) in vec3 i_normal0;
layout(location = 7) in vec3 i_normal1;
layout(location = 8) in vec3 i_normal2;
layout(location = 9) in vec4 i_color;
layout(location = 10) in vec4 i_material;
layout(location = 11) in vec4 i_texture;
uniform mat4 u_view_projection;
uniform mat4 u_light_view_projection;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_local;
out vec4 v_light_clip;
flat out vec4 v_color;
flat out vec4 v_material;
flat out vec4 v_texture;
void main() {
  vec4 world = i_model * vec4(a_position, 1.0);
  v_world = world.xyz;
  v_normal = mat3(i_normal0, i_normal1, i_normal2) * a_normal;
  v_local = a_position;
  v_light_clip = u_light_view_projection * world;
  v_color = i_color;
  v_material = i_material;
  v_texture = i_texture;
  gl_Position = u_view_projection * world;
}
)";
}

// Blinn-Phong over the model's lights and the headlight (MuJoCo's light
// model: ambient + diffuse + specular, spot cone with exponent, attenuation
// 1/(a0 + a1 d + a2 d^2)), with a percentage-closer filtered shadow map for
// one light (one bilinear comparison, looked up only where the light falls).
// Texture modes: 0 none, 1 the bound 2-D texture, 2 a procedural checker
// grid in the geom colour.
const char* scene_fragment_shader() {
  return R"(#version 330 core
in vec3 v_world;
in vec3 v_normal;
in vec3 v_local;
in vec4 v_light_clip;
// Per instance: colour; specular, shininess exponent, emission, lit (0/1);
// texture mode, texture scale (x, y).
flat in vec4 v_color;
flat in vec4 v_material;
flat in vec4 v_texture;
uniform sampler2D u_texture;
uniform int u_light_count;
uniform vec3 u_light_position[8];
uniform vec3 u_light_direction[8];
uniform vec3 u_light_ambient[8];
uniform vec3 u_light_diffuse[8];
uniform vec3 u_light_specular[8];
uniform vec3 u_light_attenuation[8];
uniform int u_light_directional[8];
uniform float u_light_cos_cutoff[8];
uniform float u_light_exponent[8];
uniform int u_shadow_light;
uniform sampler2DShadow u_shadow_map;
uniform vec3 u_eye;
out vec4 frag_color;

float lit_fraction(vec3 n, vec3 l) {
  vec3 p = v_light_clip.xyz / v_light_clip.w * 0.5 + 0.5;
  if (p.z >= 1.0 || p.x <= 0.0 || p.y <= 0.0 || p.x >= 1.0 || p.y >= 1.0) return 1.0;
  float bias = 0.0004 + 0.002 * (1.0 - max(dot(n, l), 0.0));
  // One bilinear comparison: linear filtering on a depth texture compares
  // the 2x2 nearest texels and blends the results.
  return texture(u_shadow_map, vec3(p.xy, p.z - bias));
}

void main() {
  vec4 base = v_color;
  int texture_mode = int(v_texture.x + 0.5);
  float specular_strength = v_material.x;
  float shininess = v_material.y;
  if (texture_mode == 1) {
    base.rgb *= texture(u_texture, v_local.xy * v_texture.yz).rgb;
  } else if (texture_mode == 2) {
    vec2 uv = v_local.xy * v_texture.yz;
    float cell = mod(floor(uv.x) + floor(uv.y), 2.0);
    base.rgb *= mix(1.0, 0.8, cell);
    vec2 edge = abs(fract(uv - 0.5) - 0.5) / fwidth(uv);
    float line = 1.0 - min(min(edge.x, edge.y), 1.0);
    base.rgb = mix(base.rgb, base.rgb * 1.4 + 0.08, line * 0.6);
  }
  if (v_material.w < 0.5) {
    frag_color = base;
    return;
  }
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(u_eye - v_world);
  vec3 color = base.rgb * v_material.z;
  for (int i = 0; i < u_light_count; ++i) {
    vec3 l;
    float strength = 1.0;
    if (u_light_directional[i] != 0) {
      l = -normalize(u_light_direction[i]);
    } else {
      vec3 to_light = u_light_position[i] - v_world;
      float d = length(to_light);
      l = to_light / max(d, 1e-9);
      vec3 a = u_light_attenuation[i];
      strength = 1.0 / max(a.x + a.y * d + a.z * d * d, 1e-9);
      float spot = dot(-l, normalize(u_light_direction[i]));
      float focus = u_light_exponent[i] > 0.0 ? pow(max(spot, 0.0), u_light_exponent[i]) : 1.0;
      strength *= spot < u_light_cos_cutoff[i] ? 0.0 : focus;
    }
    float diffuse = max(dot(n, l), 0.0);
    // Surfaces facing away from the light are dark anyway: no lookup.
    if (i == u_shadow_light && diffuse > 0.0) strength *= lit_fraction(n, l);
    float specular = 0.0;
    if (diffuse > 0.0 && specular_strength > 0.0) {
      // Schlick's rational approximation of pow(x, shininess): the same
      // highlight without the exp2/log2 pow costs under a software rasterizer.
      float x = max(dot(n, normalize(l + v)), 0.0);
      specular = x / (shininess - shininess * x + x);
    }
    color += base.rgb * u_light_ambient[i];
    color += strength * (base.rgb * u_light_diffuse[i] * diffuse +
                         u_light_specular[i] * specular_strength * specular);
  }
  frag_color = vec4(color, base.a);
}
)";
}

const char* depth_vertex_shader() {
  return R"(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 2) in mat4 i_model;
uniform mat4 u_light_view_projection;
void main() { gl_Position = u_light_view_projection * i_model * vec4(a_position, 1.0); }
)";
}

const char* depth_fragment_shader() {
  return R"(#version 330 core
void main() {}
)";
}

// A full-screen triangle made from gl_VertexID, shaded with a vertical
// gradient (the model's skybox colours when it has a gradient skybox).
const char* background_vertex_shader() {
  return R"(#version 330 core
out float v_height;
void main() {
  vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2) * 2.0 - 1.0;
  v_height = p.y * 0.5 + 0.5;
  gl_Position = vec4(p, 0.9999, 1.0);
}
)";
}

const char* background_fragment_shader() {
  return R"(#version 330 core
in float v_height;
uniform vec3 u_top;
uniform vec3 u_bottom;
out vec4 frag_color;
void main() { frag_color = vec4(mix(u_bottom, u_top, clamp(v_height, 0.0, 1.0)), 1.0); }
)";
}

}  // namespace pliant::viewer
