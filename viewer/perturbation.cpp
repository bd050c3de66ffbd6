#include "viewer/perturbation.h"

#include <cmath>

namespace pliant::viewer {
namespace {

// Angular and linear velocity of a body's point `p` from the com-based
// spatial velocity cvel = (w; v at subtree_com[root]).
void point_velocity(const Model& model, const Data& data, int body, const Vector3d& p,
                    Vector3d& angular, Vector3d& linear) {
  const Vector6d& cvel = data.cvel[body];
  angular = cvel.head<3>();
  const Vector3d origin = data.subtree_com[model.bodies.root[body]];
  linear = cvel.tail<3>() + angular.cross(p - origin);
}

}  // namespace

Vector3d anchor_world(const Perturbation& perturbation, const Data& data) {
  return data.xpos[perturbation.body] + data.xmat[perturbation.body] * perturbation.local_anchor;
}

void begin_perturbation(Perturbation& perturbation, PerturbMode mode, int body,
                        const Vector3d& grab, const Data& data) {
  perturbation.mode = mode;
  perturbation.body = body;
  perturbation.local_anchor = data.xmat[body].transpose() * (grab - data.xpos[body]);
  perturbation.target = grab;
  perturbation.target_orientation = Quaterniond(data.xmat[body]);
  perturbation.applied.setZero();
}

void move_perturbation(Perturbation& perturbation, const CameraView& view, double dx, double dy) {
  if (perturbation.mode == PerturbMode::kTranslate) {
    // Move the target in the plane facing the camera: one viewport height
    // at the target's depth spans 2 depth tan(fovy/2).
    const double depth = (perturbation.target - view.eye).dot(-view.rotation.col(2));
    const double span = 2 * std::max(depth, 1e-6) * std::tan(view.fovy * M_PI / 360);
    perturbation.target += span * (dx * view.rotation.col(0) - dy * view.rotation.col(1));
  } else if (perturbation.mode == PerturbMode::kRotate) {
    // Horizontal motion turns about the camera's up axis, vertical about
    // its right axis; a full viewport height is half a turn.
    const Eigen::AngleAxisd yaw(M_PI * dx, view.rotation.col(1));
    const Eigen::AngleAxisd pitch(M_PI * dy, view.rotation.col(0));
    perturbation.target_orientation = (yaw * pitch * perturbation.target_orientation).normalized();
  }
}

void end_perturbation(Perturbation& perturbation, Data& data) {
  if (perturbation.body >= 0 && perturbation.body < static_cast<int>(data.xfrc_applied.size())) {
    data.xfrc_applied[perturbation.body].setZero();
  }
  perturbation.mode = PerturbMode::kNone;
  perturbation.applied.setZero();
}

void apply_perturbation(Perturbation& perturbation, const Model& model, Data& data) {
  if (perturbation.mode == PerturbMode::kNone || perturbation.body <= 0 ||
      perturbation.body >= model.body_count()) {
    return;
  }
  const int body = perturbation.body;
  const double k = perturbation.frequency * perturbation.frequency;
  const double c = 2 * perturbation.damping_ratio * perturbation.frequency;
  Vector6d wrench = Vector6d::Zero();
  if (perturbation.mode == PerturbMode::kTranslate) {
    // f = m (k (target - anchor) - c v_anchor), applied at the anchor: the
    // torque about the centre of mass is (anchor - com) x f.
    const Vector3d anchor = anchor_world(perturbation, data);
    Vector3d angular, linear;
    point_velocity(model, data, body, anchor, angular, linear);
    const double mass = std::max(model.bodies.subtree_mass[body], 1e-6);
    const Vector3d force = mass * (k * (perturbation.target - anchor) - c * linear);
    wrench.head<3>() = (anchor - data.xipos[body]).cross(force);
    wrench.tail<3>() = force;
  } else {
    // tau = I (k theta - c w), theta the rotation vector from the body's
    // orientation to the target, I the body's inertia in world axes.
    const Quaterniond current(data.xmat[body]);
    Quaterniond error = perturbation.target_orientation * current.conjugate();
    if (error.w() < 0) error.coeffs() = -error.coeffs();
    const Eigen::AngleAxisd turn(error);
    Vector3d angular, linear;
    point_velocity(model, data, body, data.xipos[body], angular, linear);
    const Matrix3d inertia =
        data.ximat[body] * model.bodies.inertia[body].asDiagonal() * data.ximat[body].transpose();
    wrench.head<3>() = inertia * (k * turn.angle() * turn.axis() - c * angular);
  }
  data.xfrc_applied[body] = wrench;
  perturbation.applied = wrench;
}

}  // namespace pliant::viewer
