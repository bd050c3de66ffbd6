#include "engine/site_volume.h"

#include <algorithm>
#include <cmath>

namespace pliant {

bool inside_site(const Model& m, const Data& d, int site, const Vector3d& p) {
  const Vector3d q = d.site_xmat[site].transpose() * (p - d.site_xpos[site]);
  const Vector3d& s = m.sites.size[site];
  switch (m.sites.type[site]) {
    case GeomType::kSphere:
      return q.squaredNorm() <= s[0] * s[0];
    case GeomType::kCapsule: {
      const double z = std::max(std::abs(q.z()) - s[1], 0.0);
      return q.x() * q.x() + q.y() * q.y() + z * z <= s[0] * s[0];
    }
    case GeomType::kEllipsoid:
      return (q.array() / s.array()).matrix().squaredNorm() <= 1;
    case GeomType::kCylinder:
      return q.x() * q.x() + q.y() * q.y() <= s[0] * s[0] && std::abs(q.z()) <= s[1];
    case GeomType::kBox:
      return (q.array().abs() <= s.array()).all();
    default:
      return false;
  }
}

}  // namespace pliant
