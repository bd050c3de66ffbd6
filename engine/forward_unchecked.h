#pragma once

// forward() for the engine's own callers that have checked the Data against
// the Model already (step(), and the RK4 integrator's stages behind it):
// the same stages without checking every size again.

#include "pliant/data.h"

namespace pliant {

void forward_unchecked(const Model& model, Data& data, bool with_sensors);

}  // namespace pliant
