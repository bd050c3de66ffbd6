#pragma once

// Whether a world point lies in a site's volume (its sphere, capsule,
// ellipsoid, cylinder or box, boundary included): the contact sensor's
// `site` side and the insidesite sensor.

#include "pliant/data.h"

namespace pliant {

bool inside_site(const Model& model, const Data& data, int site, const Vector3d& point);

}  // namespace pliant
