#pragma once

#include "pliant/model.h"

namespace pliant {

// Scans every solref and solimp of the model (geoms, joint limits, dof and
// tendon friction, tendon limits, equalities, explicit pairs) and records in
// model.parameter_warnings, once per model, each value the engine will use
// differently from how it was written: a positive time constant below
// 2 * timestep raised by the refsafe rule, a solref with mixed signs
// replaced by the default (0.02, 1), a solimp clamped into range. Each
// warning also goes to model.warnings as a sentence.
void record_parameter_warnings(Model& model);

}  // namespace pliant
