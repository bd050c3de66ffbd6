#include "engine/camera_light.h"

namespace pliant {
namespace {

enum Mode { kFixed = 0, kTrack = 1, kTrackCom = 2, kTargetBody = 3, kTargetBodyCom = 4 };

// The pose a camera has on its body (mode fixed).
void fixed_camera(const Model& m, const Data& d, int i, Vector3d& pos, Matrix3d& mat) {
  const int body = m.cameras.body[i];
  pos = d.xpos[body] + d.xmat[body] * m.cameras.pos[i];
  mat = (d.xquat[body] * m.cameras.quat[i]).toRotationMatrix();
}

void fixed_light(const Model& m, const Data& d, int i, Vector3d& pos, Vector3d& dir) {
  const int body = m.lights.body[i];
  pos = d.xpos[body] + d.xmat[body] * m.lights.pos[i];
  dir = d.xmat[body] * m.lights.dir[i];
}

// Whether the mode keeps the offset and orientation of qpos0.
bool tracks(int mode) { return mode == kTrack || mode == kTrackCom; }

// A tracking camera's or light's position: its qpos0 offset from the body
// (track) or from the body's subtree centre of mass (trackcom).
Vector3d tracked_position(const Data& d, int mode, int body, const Vector3d& pos0,
                          const Vector3d& poscom0) {
  return mode == kTrack ? Vector3d(d.xpos[body] + pos0) : Vector3d(d.subtree_com[body] + poscom0);
}

// The point a targeting camera or light looks at; false for the other
// modes and without a target.
bool target_point(const Data& d, int mode, int target, Vector3d& point) {
  if ((mode != kTargetBody && mode != kTargetBodyCom) || target < 0) return false;
  point = mode == kTargetBody ? d.xpos[target] : d.subtree_com[target];
  return true;
}

// The body whose subtree's centre of mass poscom0 is measured from: the
// target's when there is one, as MuJoCo 3.3.8 measures it.
int com_body(int body, int target) { return target >= 0 ? target : body; }

}  // namespace

void camera_light_poses(const Model& m, Data& d) {
  const Cameras& c = m.cameras;
  for (int i = 0; i < c.count(); ++i) {
    Vector3d& pos = d.cam_xpos[i];
    Matrix3d& mat = d.cam_xmat[i];
    fixed_camera(m, d, i, pos, mat);
    const int body = c.body[i], mode = c.mode[i];
    Vector3d point;
    if (tracks(mode)) {
      mat = c.mat0[i];
      pos = tracked_position(d, mode, body, c.pos0[i], c.poscom0[i]);
    } else if (target_point(d, mode, c.target_body[i], point)) {
      // z: away from the target; x: horizontal (orthogonal to z and world
      // up); y completes the frame.
      const Vector3d z = (pos - point).normalized();
      const Vector3d x = Vector3d::UnitZ().cross(z).normalized();
      const Vector3d y = z.cross(x).normalized();
      mat.col(0) = x;
      mat.col(1) = y;
      mat.col(2) = z;
    }
  }
  const Lights& l = m.lights;
  for (int i = 0; i < l.count(); ++i) {
    Vector3d& pos = d.light_xpos[i];
    Vector3d& dir = d.light_xdir[i];
    fixed_light(m, d, i, pos, dir);
    const int body = l.body[i], mode = l.mode[i];
    Vector3d point;
    if (tracks(mode)) {
      dir = l.dir0[i];
      pos = tracked_position(d, mode, body, l.pos0[i], l.poscom0[i]);
    } else if (target_point(d, mode, l.target_body[i], point)) {
      dir = (point - pos).normalized();
    }
  }
}

void camera_light_constants(Model& m, const Data& d) {
  Cameras& c = m.cameras;
  for (int i = 0; i < c.count(); ++i) {
    Vector3d pos;
    Matrix3d mat;
    fixed_camera(m, d, i, pos, mat);
    c.pos0[i] = pos - d.xpos[c.body[i]];
    c.poscom0[i] = pos - d.subtree_com[com_body(c.body[i], c.target_body[i])];
    c.mat0[i] = mat;
  }
  Lights& l = m.lights;
  for (int i = 0; i < l.count(); ++i) {
    Vector3d pos, dir;
    fixed_light(m, d, i, pos, dir);
    l.pos0[i] = pos - d.xpos[l.body[i]];
    l.poscom0[i] = pos - d.subtree_com[com_body(l.body[i], l.target_body[i])];
    l.dir0[i] = dir;
  }
}

}  // namespace pliant
