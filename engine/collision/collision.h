#pragma once

#include "pliant/data.h"
#include "solvers/parallel_loop.h"

namespace pliant {

// Finds all contacts for the current geom poses into data.contacts
// (broadphase, filters, narrowphase, parameter mixing). Needs kinematics.
// Respects the contact flag and options.collision. Never throws.
void collide(const Model& model, Data& data);
// The same with its passes on `loop` (nullptr: this thread); the contacts
// are the same, in the same order.
void collide(const Model& model, Data& data, ParallelLoop* loop);

// Signed distance between two geoms (< 0: penetration) when it is below
// `distmax`, else distmax: the narrowphase run with distmax as the margin,
// its deepest contact kept. When that contact exists and `fromto` is given,
// fromto holds the nearest point on geom1's surface then geom2's; otherwise
// it is zeroed. Needs kinematics.
double geom_distance(const Model& model, const Data& data, int geom1, int geom2, double distmax,
                     double fromto[6] = nullptr);

}  // namespace pliant
