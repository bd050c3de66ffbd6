#pragma once

// Loading a model for simulation: parse and compile the MJCF (model/), then
// measure the quantities that need dynamics at qpos0 (inverse weights, mean
// inertia, lengths). This is the loader to use; model/loader.h alone gives a
// model without those constants.

#include <string>

#include "pliant/load_error.h"
#include "pliant/model.h"

namespace pliant {

// Throws LoadError (file, line, message) on any problem in the file.
Model load_model(const std::string& path);

Model load_model_from_string(const std::string& xml, const std::string& directory = ".",
                             const std::string& name = "<string>");

}  // namespace pliant
