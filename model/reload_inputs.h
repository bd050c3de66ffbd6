#pragma once

// The values to write so that loading gives back a compiled model's values
// bit for bit. The loader normalises quaternions and axes (a unit vector
// divided by its computed norm may move by an ulp) and composes a mesh
// geom's frame with its mesh's principal frame; writing the compiled value
// itself would then load as a neighbour. Each function below mirrors what
// the loader does to one kind of value (model/parser.cpp, orientation.cpp,
// compiler.cpp) and searches the doubles near the compiled value, and
// small multiples of it, for one the loader turns into exactly that value.
// When none is found (rare), the compiled value itself is returned.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pliant {

// The quaternion of a body, geom, site, camera or inertial: normalised when
// read, again when placed in its (identity) frame, and when compiled.
Eigen::Quaterniond frame_quat_to_write(const Eigen::Quaterniond& compiled);

// A quaternion normalised once: a weld's relpose, a mesh's refquat.
Eigen::Quaterniond unit_quat_to_write(const Eigen::Quaterniond& compiled);

// A joint axis or a light direction (normalised once).
Eigen::Vector3d unit_vector_to_write(const Eigen::Vector3d& compiled);

// A keyframe's quaternion (free and ball joints in qpos, mocap bodies in
// mquat): q / |q| as the compiler's normalize_quaternion computes it.
Eigen::Vector4d key_quat_to_write(const Eigen::Vector4d& compiled);

// A mesh geom's frame: the compiler sets pos = p + q' mesh_pos and
// quat = normalise(q' mesh_quat), q' being the written q normalised twice.
// Gives the p and q to write for the compiled pos and quat.
void mesh_geom_frame_to_write(const Eigen::Vector3d& pos, const Eigen::Quaterniond& quat,
                              const Eigen::Vector3d& mesh_pos, const Eigen::Quaterniond& mesh_quat,
                              Eigen::Vector3d& written_pos, Eigen::Quaterniond& written_quat);

}  // namespace pliant
