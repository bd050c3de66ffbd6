#pragma once

// The viewer's camera: a free orbiting camera (look-at point, distance,
// azimuth, elevation, as MuJoCo's free camera), the same camera following a
// body, or one of the model's cameras.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "pliant/data.h"

namespace pliant::viewer {

enum class CameraMode { kFree, kTracking, kFixed };

// Where the scene lies: the centre and size that the default view, the
// clipping planes and the shadow volume derive from.
struct SceneBounds {
  Vector3d center{0, 0, 0};
  double extent = 1;  // m, about the radius of the interesting part
};

// The model's statistic when it gives one, otherwise the box around the
// non-plane geoms at the current state.
SceneBounds scene_bounds(const Model& model, const Data& data);

struct Camera {
  CameraMode mode = CameraMode::kFree;
  Vector3d lookat{0, 0, 0};
  double distance = 2;     // m
  double azimuth = 90;     // degrees about +z
  double elevation = -20;  // degrees, negative looks down
  double fovy = 45;        // degrees
  int track_body = -1;     // kTracking
  int fixed_camera = -1;   // kFixed: the model camera id
  // The offset of the look-at point from the tracked body at the moment
  // tracking started, so that the body stays where it was on screen.
  Vector3d track_offset{0, 0, 0};
};

// The pose and lens the camera has in the current state.
struct CameraView {
  Vector3d eye;
  Eigen::Matrix3d rotation;  // columns: right, up, backward (OpenGL eye axes)
  double fovy;               // degrees
  double znear, zfar;        // m
};

void reset_camera(Camera& camera, const SceneBounds& bounds);
// Follows the tracked body (call once per frame before rendering).
void update_camera(Camera& camera, const Model& model, const Data& data);
CameraView camera_view(const Camera& camera, const Model& model, const Data& data,
                       const SceneBounds& bounds);

Eigen::Matrix4f view_matrix(const CameraView& view);
Eigen::Matrix4f projection_matrix(const CameraView& view, double aspect);

// Mouse actions, with motions in fractions of the viewport height.
void orbit(Camera& camera, double dx, double dy);
void pan(Camera& camera, const CameraView& view, double dx, double dy);
void zoom(Camera& camera, double amount);  // positive moves closer

// The world ray through a pixel (x right, y down, in pixels).
struct Ray {
  Vector3d origin, direction;
};
Ray pixel_ray(const CameraView& view, double x, double y, double width, double height);

// The inverse: where a world point appears (x right, y down, in pixels;
// pixel i covers [i, i + 1)). False when it lies behind the near plane.
bool project_point(const CameraView& view, const Vector3d& point, double width, double height,
                   double* x, double* y);

}  // namespace pliant::viewer
