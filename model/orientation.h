#pragma once

// Orientation forms of MJCF (quat, axisangle, euler, xyaxes, zaxis) turned
// into unit quaternions, and the small rotation helpers the compiler needs.

#include <Eigen/Geometry>
#include <optional>
#include <string>

namespace pliant {

class AttributeReader;
struct CompilerSettings;

// The shortest rotation taking +z onto `direction` (which need not be unit).
// A direction opposite to +z gives a half turn about x.
Eigen::Quaterniond quat_z_to_vector(const Eigen::Vector3d& direction);

// Euler angles (rad) applied in the order of `sequence`, three letters from
// xyzXYZ: lowercase rotates about the moving axes, uppercase about the fixed.
Eigen::Quaterniond euler_to_quat(const Eigen::Vector3d& angles, const std::string& sequence);

// Reads whichever single orientation attribute the element carries; nullopt
// when none. Two or more at once is an error, as is a zero-length axis.
std::optional<Eigen::Quaterniond> read_orientation(AttributeReader& reader,
                                                   const CompilerSettings& compiler);

}  // namespace pliant
