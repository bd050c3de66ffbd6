#pragma once

// Decorations that explain the simulation: contact points, contact normals
// and forces, friction cones, body frames, joint axes, centres of mass,
// inertia boxes, constraint violations and the perturbation spring.

#include <vector>

#include "viewer/perturbation.h"
#include "viewer/scene.h"

namespace pliant::viewer {

void add_overlay_items(const Model& model, const Data& data, const VisualOptions& options,
                       const Highlight& highlight, const OverlayScale& scale,
                       const Perturbation& perturbation, std::vector<DrawItem>& items);

}  // namespace pliant::viewer
