#pragma once

// Orientation forms of MJCF (quat, axisangle, euler, xyaxes, zaxis) turned
// into unit quaternions, and the small rotation helpers the compiler needs.

#include <Eigen/Geometry>
#include <optional>
#include <string>

namespace pliant {

class AttributeReader;
struct CompilerSettings;

// Every quaternion here is rounded as MuJoCo 3.3.8's compiler rounds it
// (products in its order, unit by its rule: model/unit_quaternion.h), so
// that compiled frames equal 3.3.8's to the bit where the sines and cosines
// of the C library agree.

// The shortest rotation taking +z onto `direction` (which need not be unit).
// A direction within 1e-7 of -z gives a half turn about x.
Eigen::Quaterniond quat_z_to_vector(const Eigen::Vector3d& direction);

// Euler angles (rad) applied in the order of `sequence`, three letters from
// xyzXYZ: lowercase rotates about the moving axes, uppercase about the fixed.
Eigen::Quaterniond euler_to_quat(const Eigen::Vector3d& angles, const std::string& sequence);

// An angle in degrees in radians, as 3.3.8 converts orientations and
// <replicate>'s euler: degrees / 180 * pi.
double degrees_as_compiler(double degrees);

// Reads whichever single orientation attribute the element carries; nullopt
// when none. Two or more at once is an error, as is a zero-length axis.
std::optional<Eigen::Quaterniond> read_orientation(AttributeReader& reader,
                                                   const CompilerSettings& compiler);

}  // namespace pliant
