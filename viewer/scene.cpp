#include "viewer/scene.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pliant::viewer {
namespace {

using Eigen::Vector4f;

// A rotation taking +z onto `direction` (unit).
Matrix3d rotation_to(const Vector3d& direction) {
  return Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), direction).toRotationMatrix();
}

DrawItem item(Shape shape, const Eigen::Matrix4f& transform, const Vector4f& color) {
  DrawItem out;
  out.shape = shape;
  out.transform = transform;
  out.color = color;
  return out;
}

// Appends the primitives of one geom-like shape (geoms and sites share
// their types and size conventions).
void add_shape(std::vector<DrawItem>& items, GeomType type, const Vector3d& size,
               const Vector3d& pos, const Matrix3d& rot, const DrawItem& style, int mesh_id,
               double plane_extent) {
  auto emit = [&](Shape shape, const Vector3d& p, const Matrix3d& r, const Vector3d& s) {
    DrawItem out = style;
    out.shape = shape;
    out.transform = pose_matrix(p, r, s);
    items.push_back(out);
  };
  switch (type) {
    case GeomType::kPlane: {
      // Size 0 along an axis means infinite: draw it large.
      const double sx = size.x() > 0 ? size.x() : plane_extent;
      const double sy = size.y() > 0 ? size.y() : plane_extent;
      emit(Shape::kPlane, pos, rot, Vector3d(sx, sy, 1));
      break;
    }
    case GeomType::kSphere:
      emit(Shape::kSphere, pos, rot, Vector3d::Constant(size.x()));
      break;
    case GeomType::kCapsule: {
      const double r = size.x(), h = size.y();
      emit(Shape::kTube, pos, rot, Vector3d(r, r, h));
      emit(Shape::kHemisphere, pos + h * rot.col(2), rot, Vector3d::Constant(r));
      // The lower cap is the upper one turned over (a rotation, not a
      // mirror, so the triangles keep their winding).
      const Matrix3d flip = rot * Eigen::AngleAxisd(std::numbers::pi, Vector3d::UnitX()).matrix();
      emit(Shape::kHemisphere, pos - h * rot.col(2), flip, Vector3d::Constant(r));
      break;
    }
    case GeomType::kEllipsoid:
      emit(Shape::kSphere, pos, rot, size);
      break;
    case GeomType::kCylinder:
      emit(Shape::kCylinder, pos, rot, Vector3d(size.x(), size.x(), size.y()));
      break;
    case GeomType::kBox:
      emit(Shape::kBox, pos, rot, size);
      break;
    case GeomType::kMesh:
    case GeomType::kHfield: {
      if (mesh_id < 0) break;
      DrawItem out = style;
      out.shape = Shape::kMesh;
      out.mesh = mesh_id;
      out.transform = pose_matrix(pos, rot, Vector3d::Ones());
      items.push_back(out);
      break;
    }
  }
}

}  // namespace

Eigen::Matrix4f pose_matrix(const Vector3d& position, const Matrix3d& rotation,
                            const Vector3d& scale) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = rotation * scale.asDiagonal();
  m.topRightCorner<3, 1>() = position;
  return m.cast<float>();
}

void add_segment(std::vector<DrawItem>& items, const Vector3d& from, const Vector3d& to,
                 double radius, const Vector4f& color) {
  const Vector3d axis = to - from;
  const double length = axis.norm();
  if (length < 1e-12) return;
  DrawItem out = item(Shape::kCylinder,
                      pose_matrix((from + to) / 2, rotation_to(axis / length),
                                  Vector3d(radius, radius, length / 2)),
                      color);
  out.cast_shadow = false;
  items.push_back(out);
}

void add_arrow(std::vector<DrawItem>& items, const Vector3d& from, const Vector3d& to,
               double radius, const Vector4f& color) {
  const Vector3d axis = to - from;
  const double length = axis.norm();
  if (length < 1e-12) return;
  const Vector3d dir = axis / length;
  // The head is at most 40% of the arrow.
  const double head = std::min(4 * radius, 0.4 * length);
  add_segment(items, from, to - head * dir, radius, color);
  DrawItem cone =
      item(Shape::kCone,
           pose_matrix(to - head * dir, rotation_to(dir), Vector3d(2 * radius, 2 * radius, head)),
           color);
  cone.cast_shadow = false;
  items.push_back(cone);
}

void add_sphere(std::vector<DrawItem>& items, const Vector3d& center, double radius,
                const Vector4f& color) {
  DrawItem out = item(Shape::kSphere,
                      pose_matrix(center, Matrix3d::Identity(), Vector3d::Constant(radius)), color);
  out.cast_shadow = false;
  items.push_back(out);
}

OverlayScale overlay_scale(const Model& model, const SceneBounds& bounds,
                           const VisualOptions& options) {
  OverlayScale scale;
  double rsum = 0;
  int count = 0;
  for (int g = 0; g < model.geoms.count(); ++g) {
    if (model.geoms.type[g] == GeomType::kPlane || model.geoms.rbound[g] <= 0) continue;
    rsum += model.geoms.rbound[g];
    ++count;
  }
  const double mean_size = count > 0 ? rsum / count : 0.1 * bounds.extent;
  scale.size = std::clamp(0.15 * mean_size, 0.002 * bounds.extent, 0.03 * bounds.extent);
  // Force arrows: a contact carrying the weight of a typical body is
  // about two typical geom sizes long.
  double mass = 0;
  int bodies = 0;
  for (int b = 1; b < model.body_count(); ++b) {
    if (model.bodies.mass[b] <= 0) continue;
    mass += model.bodies.mass[b];
    ++bodies;
  }
  const double weight =
      (bodies > 0 ? mass / bodies : 1) * std::max(model.options.gravity.norm(), 1.0);
  scale.force = options.force_scale > 0 ? options.force_scale : 2 * mean_size / weight;
  scale.plane_extent = std::max(20 * bounds.extent, 5.0);
  return scale;
}

Vector4f geom_color(const Model& model, int geom) {
  const Vector4d& rgba = model.geoms.rgba[geom];
  const int material = model.geoms.material[geom];
  if (material >= 0 && rgba == Vector4d(0.5, 0.5, 0.5, 1)) {
    return model.materials.rgba[material].cast<float>();
  }
  return rgba.cast<float>();
}

void add_model_items(const Model& model, const Data& data, const VisualOptions& options,
                     const Highlight& highlight, const OverlayScale& scale,
                     std::vector<DrawItem>& items) {
  const Geoms& geoms = model.geoms;
  for (int g = 0; g < geoms.count(); ++g) {
    const int group = std::clamp(geoms.group[g], 0, kGroupCount - 1);
    if (!options.geom_groups[group]) continue;
    DrawItem style;
    style.geom = g;
    style.color = geom_color(model, g);
    const int material = geoms.material[g];
    if (material >= 0) {
      style.specular = static_cast<float>(model.materials.specular[material]);
      style.shininess = static_cast<float>(model.materials.shininess[material]);
      style.emission = static_cast<float>(model.materials.emission[material]);
    }
    if (geoms.type[g] == GeomType::kPlane) {
      style.cast_shadow = false;
      const Vector3d& size = geoms.size[g];
      const double sx = size.x() > 0 ? size.x() : scale.plane_extent;
      const double sy = size.y() > 0 ? size.y() : scale.plane_extent;
      const int texture = material >= 0 ? model.materials.texture[material] : -1;
      if (texture >= 0 && model.textures.type[texture] == 0) {
        // texuniform: texrepeat repetitions per metre; otherwise across the
        // whole plane. Local coordinates run over [-1, 1].
        const Vector2d repeat = model.materials.texrepeat[material];
        style.texture_mode = TextureMode::kTexture;
        style.texture = texture;
        style.tex_scale = model.materials.texuniform[material]
                              ? Eigen::Vector2f(sx * repeat.x(), sy * repeat.y())
                              : Eigen::Vector2f(repeat.x() / 2, repeat.y() / 2);
      } else {
        // A grid whose cells are the plane's third size (its grid spacing).
        const double spacing = size.z() > 0 ? size.z() : 0.1 * std::max(sx, sy);
        style.texture_mode = TextureMode::kGrid;
        style.tex_scale = Eigen::Vector2f(sx / spacing, sy / spacing);
      }
    }
    if (options.transparent && geoms.type[g] != GeomType::kPlane) style.color.w() *= 0.4f;
    if (highlight.body >= 0 && geoms.body[g] == highlight.body && highlight.body != 0) {
      const Vector4f tint(0.35f, 0.75f, 1.0f, style.color.w());
      style.color = 0.55f * style.color + 0.45f * tint;
      style.emission = std::max(style.emission, 0.25f);
    }
    if (g == highlight.geom) style.emission = std::max(style.emission, 0.5f);
    // The renderer keeps height fields after the meshes.
    const int shape_id = geoms.data_id[g] < 0 ? -1
                         : geoms.type[g] == GeomType::kHfield
                             ? model.meshes.count() + geoms.data_id[g]
                             : geoms.data_id[g];
    add_shape(items, geoms.type[g], geoms.size[g], data.geom_xpos[g], data.geom_xmat[g], style,
              shape_id, scale.plane_extent);
  }
  if (!options.sites) return;
  const Sites& sites = model.sites;
  for (int s = 0; s < sites.count(); ++s) {
    const int group = std::clamp(sites.group[s], 0, kGroupCount - 1);
    if (!options.site_groups[group]) continue;
    DrawItem style;
    style.color = sites.rgba[s].cast<float>();
    if (sites.material[s] >= 0 && sites.rgba[s] == Vector4d(0.5, 0.5, 0.5, 1)) {
      style.color = model.materials.rgba[sites.material[s]].cast<float>();
    }
    style.cast_shadow = false;
    style.site = s;
    add_shape(items, sites.type[s], sites.size[s], data.site_xpos[s], data.site_xmat[s], style, -1,
              scale.plane_extent);
  }
}

}  // namespace pliant::viewer
