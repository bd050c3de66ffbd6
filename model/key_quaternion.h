#pragma once

// How a keyframe's quaternion (free and ball joints, mocap bodies) is made
// unit, as MuJoCo 3.3.8's compiler makes it: divided by its norm, and left
// alone when the norm is within 1e-14 of 1 (a quaternion written to 15
// digits keeps its digits); one whose squared norm is below 1e-14 becomes the
// identity. The compiler and save_xml (which writes a keyframe so that this
// gives it back) share it.

#include <cmath>

namespace pliant {

inline void normalize_key_quaternion(double* q) {
  const double norm2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (norm2 < 1e-14) {
    q[0] = 1, q[1] = q[2] = q[3] = 0;
    return;
  }
  const double norm = std::sqrt(norm2);
  if (std::abs(norm - 1) > 1e-14) {
    for (int c = 0; c < 4; ++c) q[c] /= norm;
  }
}

}  // namespace pliant
