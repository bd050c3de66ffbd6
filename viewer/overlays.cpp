#include "viewer/overlays.h"

#include <algorithm>
#include <cmath>

#include "viewer/contact_forces.h"

namespace pliant::viewer {
namespace {

using Eigen::Vector4f;

const Vector4f kContactColor(0.95f, 0.55f, 0.15f, 1);
const Vector4f kSelectedContactColor(1.0f, 0.95f, 0.2f, 1);
const Vector4f kNormalColor(0.3f, 0.85f, 0.95f, 1);
const Vector4f kFrictionColor(0.95f, 0.4f, 0.85f, 1);
const Vector4f kConeColor(0.95f, 0.85f, 0.3f, 0.22f);
const Vector4f kJointColor(0.3f, 0.6f, 1.0f, 1);
const Vector4f kComColor(0.95f, 0.95f, 0.95f, 1);
const Vector4f kInertiaColor(0.85f, 0.3f, 0.3f, 0.35f);
const Vector4f kViolationColor(1.0f, 0.1f, 0.1f, 1);
const Vector4f kPerturbColor(0.4f, 1.0f, 0.4f, 1);

void add_contacts(const Data& data, const VisualOptions& options, const Highlight& highlight,
                  const OverlayScale& scale, std::vector<DrawItem>& items) {
  const double s = scale.size;
  for (int c = 0; c < static_cast<int>(data.contacts.size()); ++c) {
    const Contact& contact = data.contacts[c];
    const Vector3d normal = contact.frame.row(0).transpose();
    const bool selected = c == highlight.contact;
    if (options.contact_points || selected) {
      // A flat disc in the contact tangent plane.
      DrawItem disc;
      disc.shape = Shape::kCylinder;
      Matrix3d rot;
      rot.col(0) = contact.frame.row(1).transpose();
      rot.col(1) = contact.frame.row(2).transpose();
      rot.col(2) = normal;
      const double r = selected ? 2 * s : 1.2 * s;
      disc.transform = pose_matrix(contact.pos, rot, Vector3d(r, r, 0.25 * s));
      disc.color = selected ? kSelectedContactColor : kContactColor;
      disc.cast_shadow = false;
      items.push_back(disc);
    }
    if (options.contact_forces) {
      Vector6d force;
      if (contact_force(data, c, force)) {
        // The force on geom2 in world axes, split into normal and friction.
        const Vector3d normal_part = force[0] * normal;
        const Vector3d friction_part = force[1] * contact.frame.row(1).transpose() +
                                       force[2] * contact.frame.row(2).transpose();
        if (force[0] > 0) {
          add_arrow(items, contact.pos, contact.pos + scale.force * normal_part, 0.35 * s,
                    kNormalColor);
        }
        if (friction_part.norm() > 1e-9) {
          add_arrow(items, contact.pos, contact.pos + scale.force * friction_part, 0.3 * s,
                    kFrictionColor);
        }
      } else {
        // No solver force for this contact (it makes no rows, or no solve has
        // run): the normal direction, of fixed length.
        add_arrow(items, contact.pos, contact.pos + 6 * s * normal, 0.3 * s, kNormalColor);
      }
    }
    if (options.friction_cones && contact.dim > 1) {
      // The cone of admissible forces on geom2: apex at the contact,
      // opening along the normal, half-angle atan(mu).
      const double mu = contact.mu > 0 ? contact.mu : contact.friction[0];
      const double h = 3 * s;
      DrawItem cone;
      cone.shape = Shape::kCone;
      const Matrix3d rot =
          Eigen::Quaterniond::FromTwoVectors(Vector3d::UnitZ(), -normal).toRotationMatrix();
      cone.transform = pose_matrix(contact.pos + h * normal, rot, Vector3d(mu * h, mu * h, h));
      cone.color = kConeColor;
      cone.cast_shadow = false;
      items.push_back(cone);
    }
    if (options.violations && contact_violation(contact) < 0) {
      // The penetration itself: a red bar between the two surfaces.
      const Vector3d half = 0.5 * contact.dist * normal;
      add_segment(items, contact.pos + half, contact.pos - half, 0.6 * s, kViolationColor);
    }
  }
}

void add_body_decorations(const Model& model, const Data& data, const VisualOptions& options,
                          const OverlayScale& scale, std::vector<DrawItem>& items) {
  const double s = scale.size;
  for (int b = 0; b < model.body_count(); ++b) {
    if (options.body_frames) {
      const double length = 8 * s;
      for (int axis = 0; axis < 3; ++axis) {
        Vector4f color(0.2f, 0.2f, 0.2f, 1);
        color[axis] = 0.95f;
        add_segment(items, data.xpos[b], data.xpos[b] + length * data.xmat[b].col(axis), 0.25 * s,
                    color);
      }
    }
    if (b == 0 || model.bodies.mass[b] <= 0) continue;
    if (options.center_of_mass) add_sphere(items, data.xipos[b], 0.9 * s, kComColor);
    if (options.inertia_boxes) {
      // The uniform box with the body's mass and principal inertia:
      // I_x = m (b^2 + c^2) / 3 for half-sizes (a, b, c).
      const Vector3d& i = model.bodies.inertia[b];
      const double m = model.bodies.mass[b];
      const Vector3d half(std::sqrt(std::max(1.5 / m * (i.y() + i.z() - i.x()), 0.0)),
                          std::sqrt(std::max(1.5 / m * (i.x() + i.z() - i.y()), 0.0)),
                          std::sqrt(std::max(1.5 / m * (i.x() + i.y() - i.z()), 0.0)));
      DrawItem box;
      box.shape = Shape::kBox;
      box.transform = pose_matrix(data.xipos[b], data.ximat[b], half);
      box.color = kInertiaColor;
      box.cast_shadow = false;
      items.push_back(box);
    }
  }
  if (options.joint_axes) {
    for (int j = 0; j < model.joints.count(); ++j) {
      const JointType type = model.joints.type[j];
      if (type == JointType::kFree) continue;
      if (type == JointType::kBall) {
        add_sphere(items, data.xanchor[j], 1.2 * s, kJointColor);
        continue;
      }
      const Vector3d a = data.xanchor[j], axis = data.xaxis[j];
      add_arrow(items, a - 4 * s * axis, a + 6 * s * axis, 0.35 * s, kJointColor);
    }
  }
  if (options.violations) {
    // Joint limits past their range: a red ball at the joint.
    const ConstraintRows& efc = data.efc;
    for (int r = 0; r < efc.count(); ++r) {
      if (efc.type[r] != ConstraintType::kLimitJoint || efc.pos[r] >= 0) continue;
      const int j = efc.id[r];
      if (j >= 0 && j < model.joints.count()) {
        add_sphere(items, data.xanchor[j], 1.5 * s, kViolationColor);
      }
    }
  }
}

}  // namespace

void add_overlay_items(const Model& model, const Data& data, const VisualOptions& options,
                       const Highlight& highlight, const OverlayScale& scale,
                       const Perturbation& perturbation, std::vector<DrawItem>& items) {
  add_contacts(data, options, highlight, scale, items);
  add_body_decorations(model, data, options, scale, items);
  if (options.perturbation && perturbation.mode != PerturbMode::kNone && perturbation.body > 0) {
    const double s = scale.size;
    if (perturbation.mode == PerturbMode::kTranslate) {
      const Vector3d anchor = anchor_world(perturbation, data);
      add_segment(items, anchor, perturbation.target, 0.3 * s, kPerturbColor);
      add_sphere(items, perturbation.target, 0.9 * s, kPerturbColor);
      add_sphere(items, anchor, 0.7 * s, kPerturbColor);
    } else {
      // The torque as an arrow along its axis, from the centre of mass.
      const Vector3d torque = perturbation.applied.head<3>();
      const double norm = torque.norm();
      if (norm > 1e-12) {
        const Vector3d from = data.xipos[perturbation.body];
        add_arrow(items, from, from + 10 * s * torque / norm, 0.4 * s, kPerturbColor);
      }
    }
  }
}

}  // namespace pliant::viewer
