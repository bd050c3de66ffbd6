#pragma once

#include "engine/data.h"

namespace pliant {

// Finds all contacts for the current geom poses into data.contacts
// (broadphase, filters, narrowphase, parameter mixing). Needs kinematics.
// Respects the contact flag and options.collision. Never throws.
void collide(const Model& model, Data& data);

}  // namespace pliant
