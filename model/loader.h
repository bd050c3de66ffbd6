#pragma once

#include <string>

#include "model/load_error.h"
#include "model/model.h"

namespace pliant {

// Loads an MJCF file into a Model. Throws LoadError (file, line, message) on
// any problem; never returns a partly loaded model.
Model load_model(const std::string& path);

// Loads MJCF held in memory. Includes and asset files resolve against
// `directory`; `name` stands for the file in error messages.
Model load_model_from_string(const std::string& xml, const std::string& directory = ".",
                             const std::string& name = "<string>");

}  // namespace pliant
