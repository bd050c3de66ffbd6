#include "viewer/camera.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pliant::viewer {
namespace {

constexpr double kDegree = std::numbers::pi / 180;

Vector3d forward_direction(const Camera& camera) {
  const double az = camera.azimuth * kDegree, el = camera.elevation * kDegree;
  return Vector3d(std::cos(el) * std::cos(az), std::cos(el) * std::sin(az), std::sin(el));
}

}  // namespace

SceneBounds scene_bounds(const Model& model, const Data& data) {
  SceneBounds bounds;
  if (model.stat.extent > 0) {
    bounds.center = model.stat.center;
    bounds.extent = model.stat.extent;
    return bounds;
  }
  Vector3d lo = Vector3d::Constant(1e300), hi = Vector3d::Constant(-1e300);
  for (int g = 0; g < model.geoms.count(); ++g) {
    if (model.geoms.type[g] == GeomType::kPlane) continue;
    const double r = model.geoms.rbound[g];
    lo = lo.cwiseMin(data.geom_xpos[g] - Vector3d::Constant(r));
    hi = hi.cwiseMax(data.geom_xpos[g] + Vector3d::Constant(r));
  }
  if (lo.x() > hi.x()) return bounds;
  bounds.center = (lo + hi) / 2;
  bounds.extent = std::max(0.5 * (hi - lo).norm(), 0.05);
  return bounds;
}

void reset_camera(Camera& camera, const SceneBounds& bounds) {
  camera.mode = CameraMode::kFree;
  camera.lookat = bounds.center;
  camera.distance = 2.2 * bounds.extent / std::tan(camera.fovy * kDegree / 2) / 2;
  camera.azimuth = 90;
  camera.elevation = -20;
  camera.track_body = -1;
  camera.fixed_camera = -1;
}

void update_camera(Camera& camera, const Model& model, const Data& data) {
  if (camera.mode != CameraMode::kTracking) return;
  if (camera.track_body < 0 || camera.track_body >= model.body_count()) {
    camera.mode = CameraMode::kFree;
    return;
  }
  camera.lookat = data.subtree_com[camera.track_body] + camera.track_offset;
}

CameraView camera_view(const Camera& camera, const Model& model, const Data& data,
                       const SceneBounds& bounds) {
  CameraView view;
  view.znear = std::max(1e-4, 0.01 * bounds.extent);
  view.zfar = 100 * bounds.extent + 10;
  if (camera.mode == CameraMode::kFixed && camera.fixed_camera >= 0 &&
      camera.fixed_camera < model.cameras.count()) {
    // A model camera where the engine placed it (its mode: fixed on its
    // body, tracking, or aimed at a target): it looks along its -z, up +y.
    const int c = camera.fixed_camera;
    view.eye = data.cam_xpos[c];
    view.rotation = data.cam_xmat[c];
    view.fovy = model.cameras.fovy[c];
    return view;
  }
  const Vector3d forward = forward_direction(camera);
  Vector3d right = forward.cross(Vector3d::UnitZ());
  if (right.norm() < 1e-9) right = Vector3d::UnitX();
  right.normalize();
  const Vector3d up = right.cross(forward);
  view.eye = camera.lookat - camera.distance * forward;
  view.rotation.col(0) = right;
  view.rotation.col(1) = up;
  view.rotation.col(2) = -forward;
  view.fovy = camera.fovy;
  return view;
}

Eigen::Matrix4f view_matrix(const CameraView& view) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = view.rotation.transpose();
  m.topRightCorner<3, 1>() = -view.rotation.transpose() * view.eye;
  return m.cast<float>();
}

Eigen::Matrix4f projection_matrix(const CameraView& view, double aspect) {
  // The OpenGL perspective frustum: f = cot(fovy/2).
  const double f = 1 / std::tan(view.fovy * kDegree / 2), n = view.znear, z = view.zfar;
  Eigen::Matrix4d p = Eigen::Matrix4d::Zero();
  p(0, 0) = f / aspect;
  p(1, 1) = f;
  p(2, 2) = (z + n) / (n - z);
  p(2, 3) = 2 * z * n / (n - z);
  p(3, 2) = -1;
  return p.cast<float>();
}

void orbit(Camera& camera, double dx, double dy) {
  camera.azimuth -= 180 * dx;
  camera.elevation = std::clamp(camera.elevation - 180 * dy, -89.9, 89.9);
}

void pan(Camera& camera, const CameraView& view, double dx, double dy) {
  // One viewport height at the look-at distance spans 2 d tan(fovy/2).
  const double scale = 2 * camera.distance * std::tan(view.fovy * kDegree / 2);
  const Vector3d shift = scale * (-dx * view.rotation.col(0) + dy * view.rotation.col(1));
  camera.lookat += shift;
  camera.track_offset += shift;
}

void zoom(Camera& camera, double amount) {
  camera.distance = std::clamp(camera.distance * std::exp(-amount), 1e-3, 1e4);
}

Ray pixel_ray(const CameraView& view, double x, double y, double width, double height) {
  const double t = std::tan(view.fovy * kDegree / 2);
  const double u = (2 * x / width - 1) * t * width / height, v = (1 - 2 * y / height) * t;
  Ray ray;
  ray.origin = view.eye;
  ray.direction =
      (u * view.rotation.col(0) + v * view.rotation.col(1) - view.rotation.col(2)).normalized();
  return ray;
}

bool project_point(const CameraView& view, const Vector3d& point, double width, double height,
                   double* x, double* y) {
  // Eye coordinates (the camera looks down -z), then the pinhole of pixel_ray.
  const Vector3d local = view.rotation.transpose() * (point - view.eye);
  const double depth = -local.z();
  if (depth < view.znear) return false;
  const double t = std::tan(view.fovy * kDegree / 2);
  const double u = local.x() / depth, v = local.y() / depth;
  *x = (u / (t * width / height) + 1) / 2 * width;
  *y = (1 - v / t) / 2 * height;
  return true;
}

}  // namespace pliant::viewer
