#pragma once

// Pushing bodies with the mouse, as in MuJoCo's viewer: Ctrl + left drag
// pulls a point of the selected body towards the cursor with a spring;
// Ctrl + right drag turns the body towards a target orientation with a
// torsional spring. Both act through data.xfrc_applied.

#include "pliant/data.h"
#include "viewer/camera.h"

namespace pliant::viewer {

enum class PerturbMode { kNone, kTranslate, kRotate };

struct Perturbation {
  PerturbMode mode = PerturbMode::kNone;
  int body = -1;
  Vector3d local_anchor{0, 0, 0};       // the grabbed point, in the body frame
  Vector3d target{0, 0, 0};             // m, world point the anchor is pulled to
  Quaterniond target_orientation;       // world orientation the body is turned to
  Vector6d applied = Vector6d::Zero();  // the last (torque; force) applied
  // Spring natural frequency (rad/s) and damping ratio, per unit of mass or
  // inertia so that light and heavy bodies respond alike.
  double frequency = 10;
  double damping_ratio = 1;
};

// World position of the grabbed point.
Vector3d anchor_world(const Perturbation& perturbation, const Data& data);

// Starts pulling body `body` at world point `grab` (translate) or turning it.
void begin_perturbation(Perturbation& perturbation, PerturbMode mode, int body,
                        const Vector3d& grab, const Data& data);
// Moves the target by a mouse motion (fractions of the viewport height).
void move_perturbation(Perturbation& perturbation, const CameraView& view, double dx, double dy);
void end_perturbation(Perturbation& perturbation, Data& data);

// Writes the spring force and torque into data.xfrc_applied of the
// perturbed body (call before each step; needs positions and velocities of
// the previous forward pass).
void apply_perturbation(Perturbation& perturbation, const Model& model, Data& data);

}  // namespace pliant::viewer
