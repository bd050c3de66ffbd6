// Height field against a convex geom (docs/physics.md §7), as MuJoCo 3.3.8
// computes it with its native convex collision off.
//
// The geom is taken into the field's frame, where the grid spans
// [-x, x] x [-y, y] and the surface is z = z_top * elevation. After a
// bounding-sphere test, the geom's extent along the field's axes (support
// points) selects the cells it can reach. Each cell is cut along its diagonal
// from (r, c) to (r + 1, c + 1) into two triangles; a triangle, raised by the
// margin, over the field's base at z = -z_bottom is a prism of six vertices.
// Every prism whose top rises above the geom's lowest point meets the geom by
// MPR (the prism not inflated, the geom by margin / 2, from the prism's mean
// vertex and the geom's centre): one contact per prism, dist = -depth, at
// most kMaxPairContacts, row by row and along each row.

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/collision/pair.h"

namespace pliant::collision {

namespace {

// The field's frame: the geom's pose relative to the field.
GeomShape in_field_frame(const GeomShape& field, const GeomShape& geom) {
  GeomShape local = geom;
  local.pos = field.mat.transpose() * (geom.pos - field.pos);
  local.mat = field.mat.transpose() * geom.mat;
  return local;
}

}  // namespace

int hfield_convex(const GeomShape& a, const GeomShape& b, double margin, RawContact* out) {
  const HfieldView& h = a.hfield;
  if (h.elevation == nullptr || h.nrow < 2 || h.ncol < 2) return 0;
  const Eigen::Vector4d& size = h.size;
  const GeomShape geom = in_field_frame(a, b);

  // The geom's bounding sphere against the field's box.
  const Vector3d& centre = geom.pos;
  const double reach = b.rbound + margin;
  for (int k = 0; k < 2; ++k) {
    if (size[k] < centre[k] - reach || -size[k] > centre[k] + reach) return 0;
  }
  if (size[2] < centre[2] - reach || -size[3] > centre[2] + reach) return 0;

  // The geom's bounding box in the field's frame, from its support points.
  Vector3d low, high;
  for (int k = 0; k < 3; ++k) {
    const Vector3d axis = Vector3d::Unit(k);
    high[k] = support_point(geom, axis)[k];
    low[k] = support_point(geom, -axis)[k];
  }
  if (low[0] - margin > size[0] || high[0] + margin < -size[0] || low[1] - margin > size[1] ||
      high[1] + margin < -size[1] || low[2] - margin > size[2] || high[2] + margin < -size[3]) {
    return 0;
  }

  // The cells under the box (grid lines c at x = c dx - size[0]).
  const int last_col = h.ncol - 1, last_row = h.nrow - 1;
  const int cmin =
      std::max(0, static_cast<int>(std::floor((low[0] + size[0]) / (2 * size[0]) * last_col)));
  const int cmax = std::min(
      last_col, static_cast<int>(std::ceil((high[0] + size[0]) / (2 * size[0]) * last_col)));
  const int rmin =
      std::max(0, static_cast<int>(std::floor((low[1] + size[1]) / (2 * size[1]) * last_row)));
  const int rmax = std::min(
      last_row, static_cast<int>(std::ceil((high[1] + size[1]) / (2 * size[1]) * last_row)));
  const double dx = (2.0 * size[0]) / last_col, dy = (2.0 * size[1]) / last_row;

  // The prism: base corners 0-2 at -size[3], top corners 3-5 at the
  // elevation raised by the margin. Vertices enter along the strip (r + 1, c),
  // (r, c), (r + 1, c + 1), (r, c + 1), ...; each shifts the older ones down.
  std::array<Vector3d, 6> corner;
  for (Vector3d& v : corner) v = Vector3d(0, 0, -size[3]);
  GeomShape prism;
  prism.type = GeomType::kHfield;
  prism.prism = corner.data();
  prism.native_ccd = a.native_ccd;
  prism.mpr_tolerance = a.mpr_tolerance;
  prism.mpr_iterations = a.mpr_iterations;

  int count = 0;
  for (int r = rmin; r < rmax; ++r) {
    int strip = 0;
    for (int c = cmin; c <= cmax; ++c) {
      for (const int row : {r + 1, r}) {
        for (int k = 0; k < 2; ++k) {
          corner[k].head<2>() = corner[k + 1].head<2>();
          corner[k + 3] = corner[k + 4];
        }
        const Eigen::Vector2d xy(dx * c - size[0], dy * row - size[1]);
        corner[2].head<2>() = xy;
        corner[5] << xy, static_cast<double>(h.elevation[row * h.ncol + c]) * size[2] + margin;
        if (++strip < 3) continue;
        // A prism whose top is below the geom cannot touch it.
        if (corner[3][2] < low[2] && corner[4][2] < low[2] && corner[5][2] < low[2]) continue;
        Vector3d prism_centre = Vector3d::Zero();
        for (const Vector3d& v : corner) prism_centre += v;
        prism_centre *= 1.0 / 6.0;
        RawContact contact;
        if (a.native_ccd) {
          if (ccd_penetration(prism, prism_centre, 0, geom, geom.pos, 0.5 * margin, &contact) ==
              0) {
            continue;
          }
          // The smooth geom's own surface normal (MPR's contacts have it).
          Vector3d outward = -contact.normal;
          if (smooth_surface_normal(geom, contact.pos, &outward)) contact.normal = -outward;
        } else if (mpr_penetration(prism, prism_centre, 0, geom, geom.pos, 0.5 * margin,
                                   &contact) == 0) {
          continue;
        }
        contact.pos = a.mat * contact.pos + a.pos;
        contact.normal = a.mat * contact.normal;
        out[count++] = contact;
        if (count == kMaxPairContacts) return count;
      }
    }
  }
  return count;
}

}  // namespace pliant::collision
