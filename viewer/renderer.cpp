#include "viewer/renderer.h"

#include <stb_image.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace pliant::viewer {
namespace {

using Eigen::Matrix4f;
using Eigen::Vector3f;

constexpr double kDegree = std::numbers::pi / 180;

struct LightData {
  Vector3f position = Vector3f::Zero(), direction = -Vector3f::UnitZ();
  Vector3f ambient = Vector3f::Zero(), diffuse = Vector3f::Zero(), specular = Vector3f::Zero();
  Vector3f attenuation = Vector3f(1, 0, 0);
  bool directional = true;
  float cos_cutoff = -1, exponent = 0;
};

// The largest length the transform gives a unit vector.
float max_scale(const Matrix4f& transform) {
  const Eigen::Matrix3f m = transform.topLeftCorner<3, 3>();
  return std::max({m.col(0).norm(), m.col(1).norm(), m.col(2).norm()});
}

// Level of detail from the radius an item covers, in pixels: the finest
// tessellation (48 segments around) above 40 px, 20 segments above 10 px,
// else 8.
int detail_level(float pixels) { return pixels > 40 ? 0 : pixels > 10 ? 1 : 2; }

// The six planes (a, b, c, d; inside where a x + b y + c z + d >= 0) of a
// view-projection matrix's clip volume.
std::array<Eigen::Vector4f, 6> frustum_planes(const Matrix4f& m) {
  std::array<Eigen::Vector4f, 6> planes;
  for (int i = 0; i < 3; ++i) {
    planes[2 * i] = (m.row(3) + m.row(i)).transpose();
    planes[2 * i + 1] = (m.row(3) - m.row(i)).transpose();
  }
  for (Eigen::Vector4f& p : planes) p /= std::max(p.head<3>().norm(), 1e-20f);
  return planes;
}

bool outside(const std::array<Eigen::Vector4f, 6>& planes, const Vector3f& centre, float radius) {
  for (const Eigen::Vector4f& p : planes) {
    if (p.head<3>().dot(centre) + p.w() < -radius) return true;
  }
  return false;
}

// A camera matrix at `eye` looking along `forward`.
Matrix4f look_along(const Vector3d& eye, const Vector3d& forward) {
  const Vector3d f = forward.normalized();
  const Vector3d helper = std::abs(f.z()) > 0.99 ? Vector3d::UnitY() : Vector3d::UnitZ();
  const Vector3d right = f.cross(helper).normalized(), up = right.cross(f);
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.block<1, 3>(0, 0) = right.transpose();
  m.block<1, 3>(1, 0) = up.transpose();
  m.block<1, 3>(2, 0) = -f.transpose();
  m.topRightCorner<3, 1>() = -m.topLeftCorner<3, 3>() * eye;
  return m.cast<float>();
}

Matrix4f orthographic(double half, double znear, double zfar) {
  Eigen::Matrix4d p = Eigen::Matrix4d::Identity();
  p(0, 0) = p(1, 1) = 1 / half;
  p(2, 2) = -2 / (zfar - znear);
  p(2, 3) = -(zfar + znear) / (zfar - znear);
  return p.cast<float>();
}

Matrix4f perspective(double fovy_degrees, double znear, double zfar) {
  CameraView view;
  view.fovy = fovy_degrees;
  view.znear = znear;
  view.zfar = zfar;
  return projection_matrix(view, 1);
}

// MuJoCo's builtin 2-D textures: a 2x2 checker of rgb1/rgb2, a vertical
// gradient, or a flat colour.
std::vector<unsigned char> builtin_texture(const std::string& kind, const Vector3d& rgb1,
                                           const Vector3d& rgb2, int width, int height) {
  std::vector<unsigned char> pixels(3 * width * height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      Vector3d c = rgb1;
      if (kind == "checker") {
        const bool first = (2 * x < width) == (2 * y < height);
        c = first ? rgb1 : rgb2;
      } else if (kind == "gradient") {
        const double t = height > 1 ? static_cast<double>(y) / (height - 1) : 0;
        c = (1 - t) * rgb1 + t * rgb2;
      }
      for (int k = 0; k < 3; ++k) {
        pixels[3 * (y * width + x) + k] =
            static_cast<unsigned char>(std::clamp(c[k], 0.0, 1.0) * 255 + 0.5);
      }
    }
  }
  return pixels;
}

GLuint upload_texture(const unsigned char* pixels, int width, int height, int channels) {
  GLuint id = 0;
  glGenTextures(1, &id);
  glBindTexture(GL_TEXTURE_2D, id);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const GLenum format = channels == 4 ? GL_RGBA : channels == 1 ? GL_RED : GL_RGB;
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, format, GL_UNSIGNED_BYTE, pixels);
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return id;
}

std::vector<LightData> collect_lights(const Model& model, const Data& data, const CameraView& view,
                                      const VisualOptions& options, int* shadow_light) {
  std::vector<LightData> lights;
  *shadow_light = -1;
  const Lights& ml = model.lights;
  for (int l = 0; options.model_lights && l < ml.count(); ++l) {
    if (!ml.active[l] || static_cast<int>(lights.size()) >= kMaxLights - 1) continue;
    LightData light;  // where the engine placed it (its mode)
    light.position = data.light_xpos[l].cast<float>();
    light.direction = data.light_xdir[l].normalized().cast<float>();
    light.ambient = ml.ambient[l].cast<float>();
    light.diffuse = ml.diffuse[l].cast<float>();
    light.specular = ml.specular[l].cast<float>();
    light.attenuation = ml.attenuation[l].cast<float>();
    light.directional = ml.directional[l];
    if (ml.type[l] == 2) {  // a point light shines all around: no cone
      light.cos_cutoff = -2;
      light.exponent = 0;
    } else {
      light.cos_cutoff = static_cast<float>(std::cos(ml.cutoff[l] * kDegree));
      light.exponent = static_cast<float>(ml.exponent[l]);
    }
    if (*shadow_light < 0 && ml.castshadow[l]) *shadow_light = static_cast<int>(lights.size());
    lights.push_back(light);
  }
  if (options.headlight) {
    // MuJoCo's default headlight: a directional light along the view.
    LightData head;
    head.direction = (-view.rotation.col(2)).cast<float>();
    head.ambient = Vector3f::Constant(0.1f);
    head.diffuse = Vector3f::Constant(0.4f);
    head.specular = Vector3f::Constant(0.5f);
    head.attenuation = Vector3f(1, 0, 0);
    lights.push_back(head);
  }
  return lights;
}

// The light's view and projection covering the scene: a frustum of twice
// the cutoff angle for spot lights, a box around the scene for directional
// lights.
Matrix4f light_view_projection(const LightData& light, const SceneBounds& bounds) {
  const double extent = bounds.extent;
  const Vector3d dir = light.direction.cast<double>();
  if (light.directional) {
    const Vector3d eye = bounds.center - 4 * extent * dir;
    return orthographic(2.5 * extent, 0.01 * extent, 10 * extent) * look_along(eye, dir);
  }
  const Vector3d eye = light.position.cast<double>();
  const double cutoff = std::acos(std::clamp<double>(light.cos_cutoff, -1, 1)) / kDegree;
  const double fovy = std::clamp(2 * cutoff, 10.0, 150.0);
  const double far = (eye - bounds.center).norm() + 4 * extent;
  return perspective(fovy, std::max(0.02 * far, 1e-3), far) * look_along(eye, dir);
}

Eigen::Matrix3f normal_matrix(const Matrix4f& transform) {
  return transform.topLeftCorner<3, 3>().inverse().transpose();
}

}  // namespace

Renderer::Renderer()
    : scene_(scene_vertex_shader(), scene_fragment_shader()),
      depth_(depth_vertex_shader(), depth_fragment_shader()),
      background_(background_vertex_shader(), background_fragment_shader()),
      sphere_{
          {GpuMesh(make_sphere(48, 24)), GpuMesh(make_sphere(20, 10)), GpuMesh(make_sphere(8, 4))}},
      hemisphere_{{GpuMesh(make_hemisphere(48, 12)), GpuMesh(make_hemisphere(20, 5)),
                   GpuMesh(make_hemisphere(8, 2))}},
      tube_{{GpuMesh(make_cylinder(48, false)), GpuMesh(make_cylinder(20, false)),
             GpuMesh(make_cylinder(8, false))}},
      cylinder_{{GpuMesh(make_cylinder(48, true)), GpuMesh(make_cylinder(20, true)),
                 GpuMesh(make_cylinder(8, true))}},
      cone_{{GpuMesh(make_cone(32)), GpuMesh(make_cone(16)), GpuMesh(make_cone(8))}},
      box_(make_box()),
      plane_(make_plane()),
      sky_top_(0.45f, 0.55f, 0.7f),
      sky_bottom_(0.12f, 0.13f, 0.16f) {
  glGenTextures(1, &shadow_texture_);
  glBindTexture(GL_TEXTURE_2D, shadow_texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, shadow_size_, shadow_size_, 0,
               GL_DEPTH_COMPONENT, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
  glGenFramebuffers(1, &shadow_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, shadow_texture_, 0);
  glDrawBuffer(GL_NONE);
  glReadBuffer(GL_NONE);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    throw std::runtime_error("the shadow-map framebuffer is incomplete");
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glGenVertexArrays(1, &empty_vao_);
  glGenBuffers(1, &instance_buffer_);
}

Renderer::~Renderer() {
  for (GLuint t : textures_) {
    if (t != 0) glDeleteTextures(1, &t);
  }
  glDeleteTextures(1, &shadow_texture_);
  glDeleteFramebuffers(1, &shadow_fbo_);
  glDeleteVertexArrays(1, &empty_vao_);
  glDeleteBuffers(1, &instance_buffer_);
}

void Renderer::set_model(const Model& model) {
  model_meshes_.clear();
  model_mesh_radius_.clear();
  auto add = [&](const MeshData& data) {
    float radius = 0;
    for (int v = 0; v < data.vertex_count(); ++v) {
      radius = std::max(radius, Eigen::Vector3f(data.vertices[6 * v], data.vertices[6 * v + 1],
                                                data.vertices[6 * v + 2])
                                    .norm());
    }
    model_mesh_radius_.push_back(radius);
    model_meshes_.emplace_back(data);
  };
  for (int m = 0; m < model.meshes.count(); ++m) add(make_model_mesh(model, m));
  // Height fields follow the meshes (DrawItem::mesh = nmesh + hfield id).
  for (int h = 0; h < model.hfields.count(); ++h) {
    add(make_hfield_mesh(model, h));
  }
  for (GLuint t : textures_) {
    if (t != 0) glDeleteTextures(1, &t);
  }
  textures_.assign(model.textures.count(), 0);
  sky_top_ = Vector3f(0.45f, 0.55f, 0.7f);
  sky_bottom_ = Vector3f(0.12f, 0.13f, 0.16f);
  const Textures& tex = model.textures;
  for (int t = 0; t < tex.count(); ++t) {
    if (tex.type[t] == 2 && tex.builtin[t] == "gradient") {
      // A gradient skybox: rgb1 overhead fading towards rgb2 below.
      sky_top_ = tex.rgb1[t].cast<float>();
      sky_bottom_ = (0.45 * tex.rgb1[t] + 0.55 * tex.rgb2[t]).cast<float>();
    }
    if (tex.type[t] != 0) continue;
    if (!tex.builtin[t].empty() && tex.builtin[t] != "none") {
      const int w = std::clamp(tex.width[t], 2, 1024), h = std::clamp(tex.height[t], 2, 1024);
      const auto pixels = builtin_texture(tex.builtin[t], tex.rgb1[t], tex.rgb2[t], w, h);
      textures_[t] = upload_texture(pixels.data(), w, h, 3);
    } else if (!tex.file[t].empty()) {
      int w = 0, h = 0, channels = 0;
      unsigned char* pixels = stbi_load(tex.file[t].c_str(), &w, &h, &channels, 0);
      if (pixels != nullptr) {
        textures_[t] = upload_texture(pixels, w, h, channels);
        stbi_image_free(pixels);
      }
    }
  }
}

const GpuMesh* Renderer::mesh_for(const DrawItem& item, int level) const {
  switch (item.shape) {
    case Shape::kSphere:
      return &sphere_.level[level];
    case Shape::kHemisphere:
      return &hemisphere_.level[level];
    case Shape::kTube:
      return &tube_.level[level];
    case Shape::kCylinder:
      return &cylinder_.level[level];
    case Shape::kCone:
      return &cone_.level[level];
    case Shape::kBox:
      return &box_;
    case Shape::kPlane:
      return &plane_;
    case Shape::kMesh:
      if (item.mesh >= 0 && item.mesh < static_cast<int>(model_meshes_.size())) {
        return &model_meshes_[item.mesh];
      }
      return nullptr;
  }
  return nullptr;
}

float Renderer::local_radius(const DrawItem& item) const {
  switch (item.shape) {
    case Shape::kSphere:
    case Shape::kHemisphere:
      return 1;
    case Shape::kTube:
    case Shape::kCylinder:
    case Shape::kCone:
      return std::numbers::sqrt2_v<float>;
    case Shape::kBox:
      return std::numbers::sqrt3_v<float>;
    case Shape::kPlane:
      return 0;
    case Shape::kMesh:
      if (item.mesh >= 0 && item.mesh < static_cast<int>(model_mesh_radius_.size())) {
        return model_mesh_radius_[item.mesh];
      }
      return 0;
  }
  return 0;
}

void Renderer::shadow_pass(const std::vector<DrawItem>& items, const Matrix4f& light_view_proj,
                           float texels_per_metre) {
  glBindFramebuffer(GL_FRAMEBUFFER, shadow_fbo_);
  glViewport(0, 0, shadow_size_, shadow_size_);
  glClear(GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(2.0f, 4.0f);
  depth_.use();
  glUniformMatrix4fv(depth_.uniform("u_light_view_projection"), 1, GL_FALSE,
                     light_view_proj.data());
  std::vector<Entry> casters;
  for (const DrawItem& item : items) {
    if (!item.cast_shadow || item.color.w() < 0.5f) continue;
    // In the shadow map a shape is as fine as its size in texels needs,
    // never the finest level.
    const float texels = texels_per_metre * local_radius(item) * max_scale(item.transform);
    const GpuMesh* mesh = mesh_for(item, std::max(1, detail_level(texels)));
    if (mesh != nullptr) casters.push_back({&item, mesh, 0});
  }
  instances_.clear();
  batches_.clear();
  append_batches(casters, false);
  upload_instances();
  draw_batches(0, batches_.size());
  glDisable(GL_POLYGON_OFFSET_FILL);
}

Renderer::Entry Renderer::entry_for(const DrawItem& item, int level) const {
  Entry e{&item, mesh_for(item, level), 0};
  if (item.texture_mode == TextureMode::kTexture && item.texture >= 0 &&
      item.texture < static_cast<int>(textures_.size())) {
    e.texture = textures_[item.texture];
  }
  return e;
}

void Renderer::append_batches(const std::vector<Entry>& entries, bool keep_order) {
  // Batch of each entry, then the entries stably sorted by batch.
  const size_t first_batch = batches_.size();
  std::vector<std::pair<size_t, const Entry*>> order;
  order.reserve(entries.size());
  for (const Entry& e : entries) {
    if (e.mesh == nullptr) continue;
    size_t b = batches_.size();
    if (keep_order) {
      if (b > first_batch && batches_.back().mesh == e.mesh &&
          batches_.back().texture == e.texture) {
        b = b - 1;
      }
    } else {
      for (size_t k = first_batch; k < batches_.size(); ++k) {
        if (batches_[k].mesh == e.mesh && batches_[k].texture == e.texture) {
          b = k;
          break;
        }
      }
    }
    if (b == batches_.size()) batches_.push_back({e.mesh, e.texture, 0, 0});
    ++batches_[b].count;
    order.emplace_back(b, &e);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  int next = static_cast<int>(instances_.size());
  for (size_t b = first_batch; b < batches_.size(); ++b) {
    batches_[b].first = next;
    next += batches_[b].count;
  }
  for (const auto& [batch, e] : order) {
    const DrawItem& item = *e->item;
    Instance in{};
    std::copy_n(item.transform.data(), 16, in.model);
    const Eigen::Matrix3f normals = normal_matrix(item.transform);
    std::copy_n(normals.data(), 9, in.normal);
    std::copy_n(item.color.data(), 4, in.color);
    // MuJoCo's shininess in [0, 1] is an exponent of up to 128.
    in.material[0] = item.specular;
    in.material[1] = std::max(1.0f, 128.0f * item.shininess);
    in.material[2] = item.emission;
    in.material[3] = item.lit ? 1.0f : 0.0f;
    // A texture the model could not supply falls back to the checker grid.
    TextureMode mode = item.texture_mode;
    if (mode == TextureMode::kTexture && e->texture == 0) mode = TextureMode::kGrid;
    in.texture[0] = static_cast<float>(static_cast<int>(mode));
    in.texture[1] = item.tex_scale.x();
    in.texture[2] = item.tex_scale.y();
    instances_.push_back(in);
  }
}

void Renderer::upload_instances() {
  glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
  glBufferData(GL_ARRAY_BUFFER, instances_.size() * sizeof(Instance), instances_.data(),
               GL_STREAM_DRAW);
}

void Renderer::draw_batches(size_t first, size_t last) const {
  constexpr GLsizei kStride = sizeof(Instance);
  for (size_t k = first; k < last; ++k) {
    const Batch& b = batches_[k];
    b.mesh->bind();
    glBindBuffer(GL_ARRAY_BUFFER, instance_buffer_);
    const size_t base = b.first * sizeof(Instance);
    auto attribute = [&](GLuint location, int size, size_t offset) {
      glEnableVertexAttribArray(location);
      glVertexAttribPointer(location, size, GL_FLOAT, GL_FALSE, kStride,
                            reinterpret_cast<const void*>(base + offset));
      glVertexAttribDivisor(location, 1);
    };
    for (int c = 0; c < 4; ++c) attribute(2 + c, 4, offsetof(Instance, model) + 16 * c);
    for (int c = 0; c < 3; ++c) attribute(6 + c, 3, offsetof(Instance, normal) + 12 * c);
    attribute(9, 4, offsetof(Instance, color));
    attribute(10, 4, offsetof(Instance, material));
    attribute(11, 4, offsetof(Instance, texture));
    if (b.texture != 0) {
      glActiveTexture(GL_TEXTURE0);
      glBindTexture(GL_TEXTURE_2D, b.texture);
    }
    b.mesh->draw_instances(b.count);
  }
}

void Renderer::render(const Model& model, const Data& data, const CameraView& view,
                      const SceneBounds& bounds, const VisualOptions& options,
                      const std::vector<DrawItem>& items, GLuint framebuffer, int x, int y,
                      int width, int height) {
  if (width <= 0 || height <= 0) return;
  int shadow_light = -1;
  const std::vector<LightData> lights = collect_lights(model, data, view, options, &shadow_light);
  if (!options.shadows || options.segmentation) shadow_light = -1;
  Matrix4f light_view_proj = Matrix4f::Identity();
  if (shadow_light >= 0) {
    light_view_proj = light_view_projection(lights[shadow_light], bounds);
    // Texels per metre of the map: the light's projection spans 2 units of
    // clip space over shadow_size_ texels (at the scene centre for spots).
    const Eigen::Vector4f centre =
        light_view_proj *
        Eigen::Vector4f(bounds.center.x(), bounds.center.y(), bounds.center.z(), 1);
    const float clip_per_metre = light_view_proj.topLeftCorner<2, 3>().rowwise().norm().maxCoeff() /
                                 std::max(std::abs(centre.w()), 1e-9f);
    shadow_pass(items, light_view_proj, 0.5f * shadow_size_ * clip_per_metre);
  }

  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glDisable(GL_SCISSOR_TEST);
  if (options.segmentation) {
    glClearColor(0, 0, 0, 1);
  } else {
    glClearColor(sky_bottom_.x(), sky_bottom_.y(), sky_bottom_.z(), 1);
  }
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glViewport(x, y, width, height);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);

  // Background gradient, behind everything.
  if (!options.segmentation) {
    glDisable(GL_DEPTH_TEST);
    background_.use();
    glUniform3fv(background_.uniform("u_top"), 1, sky_top_.data());
    glUniform3fv(background_.uniform("u_bottom"), 1, sky_bottom_.data());
    glBindVertexArray(empty_vao_);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }

  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDepthMask(GL_TRUE);
  const Matrix4f view_proj =
      projection_matrix(view, static_cast<double>(width) / height) * view_matrix(view);
  scene_.use();
  glUniformMatrix4fv(scene_.uniform("u_view_projection"), 1, GL_FALSE, view_proj.data());
  glUniformMatrix4fv(scene_.uniform("u_light_view_projection"), 1, GL_FALSE,
                     light_view_proj.data());
  const Vector3f eye = view.eye.cast<float>();
  glUniform3fv(scene_.uniform("u_eye"), 1, eye.data());
  const int count = static_cast<int>(lights.size());
  glUniform1i(scene_.uniform("u_light_count"), count);
  for (int i = 0; i < count; ++i) {
    auto loc = [&](const char* name) {
      return scene_.uniform((std::string(name) + "[" + std::to_string(i) + "]").c_str());
    };
    glUniform3fv(loc("u_light_position"), 1, lights[i].position.data());
    glUniform3fv(loc("u_light_direction"), 1, lights[i].direction.data());
    glUniform3fv(loc("u_light_ambient"), 1, lights[i].ambient.data());
    glUniform3fv(loc("u_light_diffuse"), 1, lights[i].diffuse.data());
    glUniform3fv(loc("u_light_specular"), 1, lights[i].specular.data());
    glUniform3fv(loc("u_light_attenuation"), 1, lights[i].attenuation.data());
    glUniform1i(loc("u_light_directional"), lights[i].directional ? 1 : 0);
    glUniform1f(loc("u_light_cos_cutoff"), lights[i].cos_cutoff);
    glUniform1f(loc("u_light_exponent"), lights[i].exponent);
  }
  glUniform1i(scene_.uniform("u_shadow_light"), shadow_light);
  glUniform1i(scene_.uniform("u_texture"), 0);
  glUniform1i(scene_.uniform("u_shadow_map"), 1);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, shadow_texture_);
  glActiveTexture(GL_TEXTURE0);

  // Opaque first; translucent items after, farthest first, without
  // writing depth so they do not hide each other. Items wholly outside the
  // view are skipped; the others take the level of detail of their size.
  const auto planes = frustum_planes(view_proj);
  const float pixels_per_radian =
      static_cast<float>(0.5 * height / std::tan(0.5 * view.fovy * kDegree));
  std::vector<std::pair<float, const DrawItem*>> translucent;
  struct Opaque {
    const DrawItem* item;
    int level;
    float distance;
  };
  std::vector<Opaque> opaque;
  for (const DrawItem& item : items) {
    const Vector3f centre = item.transform.topRightCorner<3, 1>();
    const float radius = local_radius(item) * max_scale(item.transform);
    if (radius > 0 && outside(planes, centre, radius)) continue;
    if (item.color.w() < 0.999f) {
      translucent.emplace_back((centre - eye).squaredNorm(), &item);
      continue;
    }
    const float distance = std::max((centre - eye).norm(), 1e-6f);
    opaque.push_back({&item, detail_level(radius / distance * pixels_per_radian),
                      radius > 0 ? distance - radius : std::numeric_limits<float>::max()});
  }
  // Nearest first, planes last: the depth test then rejects hidden
  // fragments before they are shaded (each batch starts at its nearest item
  // and runs nearest first).
  std::sort(opaque.begin(), opaque.end(),
            [](const Opaque& a, const Opaque& b) { return a.distance < b.distance; });
  std::sort(translucent.begin(), translucent.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Entry> entries;
  entries.reserve(opaque.size());
  for (const Opaque& o : opaque) entries.push_back(entry_for(*o.item, o.level));
  instances_.clear();
  batches_.clear();
  append_batches(entries, false);
  const size_t opaque_batches = batches_.size();
  entries.clear();
  for (const auto& [distance, item] : translucent) entries.push_back(entry_for(*item, 0));
  append_batches(entries, true);
  upload_instances();
  draw_batches(0, opaque_batches);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  draw_batches(opaque_batches, batches_.size());
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace pliant::viewer
