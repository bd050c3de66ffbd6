#pragma once

// What the renderer draws, as a flat list of shaded primitives: the model's
// geoms and sites (scene.cpp) and the decorations of the overlays
// (overlays.cpp). Building the list is plain C++ with no OpenGL, so the
// renderer only draws and the physics-aware code stays testable.

#include <Eigen/Core>
#include <array>
#include <vector>

#include "pliant/data.h"
#include "viewer/camera.h"

namespace pliant::viewer {

enum class Shape { kSphere, kHemisphere, kTube, kCylinder, kCone, kBox, kPlane, kMesh };

enum class TextureMode : int { kNone = 0, kTexture = 1, kGrid = 2 };

struct DrawItem {
  Shape shape = Shape::kSphere;
  int mesh = -1;  // for kMesh: a model mesh id, or nmesh + a height-field id
  Eigen::Matrix4f transform = Eigen::Matrix4f::Identity();  // unit shape -> world
  Eigen::Vector4f color{1, 1, 1, 1};
  float specular = 0.5f, shininess = 0.5f, emission = 0;  // MuJoCo material terms in [0, 1]
  TextureMode texture_mode = TextureMode::kNone;
  int texture = -1;  // model texture id for kTexture
  Eigen::Vector2f tex_scale{1, 1};
  bool lit = true;
  bool cast_shadow = true;
  int geom = -1;  // the geom it draws, for picking; -1 for decorations
  int site = -1;  // the site it draws; -1 otherwise
};

constexpr int kGroupCount = 6;

// The switches of the Rendering panel.
struct VisualOptions {
  std::array<bool, kGroupCount> geom_groups{true, true, true, false, false, false};
  std::array<bool, kGroupCount> site_groups{true, true, true, false, false, false};
  bool sites = true;
  bool shadows = true;
  bool headlight = true;
  bool model_lights = true;
  bool transparent = false;  // geoms half transparent, to see contacts inside
  // Overlays.
  bool contact_points = false;
  bool contact_forces = false;
  bool friction_cones = false;
  bool body_frames = false;
  bool joint_axes = false;
  bool center_of_mass = false;
  bool inertia_boxes = false;
  bool violations = false;
  bool perturbation = true;
  double force_scale = 0;  // m per N of force arrows; 0 picks one from the model's weights
  // Pictures of object ids: a black background, no shadows, items as they
  // come (OffscreenRenderer gives them flat colours).
  bool segmentation = false;
};

// What the user selected, drawn highlighted.
struct Highlight {
  int body = -1;
  int geom = -1;
  int contact = -1;
};

// Sizes that make decorations readable at the model's scale.
struct OverlayScale {
  double size = 0.01;        // m, radius-like unit of points and arrows
  double force = 0.01;       // m per N
  double plane_extent = 10;  // m, half-size used for infinite planes
};
OverlayScale overlay_scale(const Model& model, const SceneBounds& bounds,
                           const VisualOptions& options);

// Geoms (in enabled groups) and sites, with materials and highlight.
void add_model_items(const Model& model, const Data& data, const VisualOptions& options,
                     const Highlight& highlight, const OverlayScale& scale,
                     std::vector<DrawItem>& items);

// The colour MuJoCo gives a geom: its material's colour when it has a
// material and its own rgba was left at the default.
Eigen::Vector4f geom_color(const Model& model, int geom);

// Placement helpers used by the overlays.
Eigen::Matrix4f pose_matrix(const Vector3d& position, const Matrix3d& rotation,
                            const Vector3d& scale);
// A cylinder of radius r between two points, and an arrow with a cone head.
void add_segment(std::vector<DrawItem>& items, const Vector3d& from, const Vector3d& to,
                 double radius, const Eigen::Vector4f& color);
void add_arrow(std::vector<DrawItem>& items, const Vector3d& from, const Vector3d& to,
               double radius, const Eigen::Vector4f& color);
void add_sphere(std::vector<DrawItem>& items, const Vector3d& center, double radius,
                const Eigen::Vector4f& color);

}  // namespace pliant::viewer
