#pragma once

// Where the model's cameras and lights are (MuJoCo's mj_camlight): each is
// placed on its body (mode fixed), then moved by its mode: track and
// trackcom keep the world orientation and offset they had at qpos0 from the
// body or its subtree's centre of mass; targetbody and targetbodycom turn
// towards the target body (or its subtree's centre of mass), a camera with
// its x axis horizontal.

#include "pliant/data.h"

namespace pliant {

// data.cam_xpos, cam_xmat, light_xpos, light_xdir; needs the body poses and
// subtree_com.
void camera_light_poses(const Model& model, Data& data);

// The model constants these modes use (cam_pos0, cam_poscom0, cam_mat0,
// light_pos0, light_poscom0, light_dir0), from a Data at qpos0 whose body
// poses and subtree_com are current.
void camera_light_constants(Model& model, const Data& data);

}  // namespace pliant
