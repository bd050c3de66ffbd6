#pragma once

#include <string>

#include "pliant/load_error.h"
#include "pliant/model.h"

namespace pliant {

// Parses and compiles an MJCF file into a Model. Throws LoadError (file,
// line, message) on any problem; never returns a partly built model. The
// quantities that need dynamics (inverse weights, mean inertia) are left for
// the engine: engine/load.h is the loader for simulation.
Model compile_model_file(const std::string& path);

// The same for MJCF held in memory. Includes and asset files resolve against
// `directory`; `name` stands for the file in error messages.
Model compile_model_string(const std::string& xml, const std::string& directory = ".",
                           const std::string& name = "<string>");

}  // namespace pliant
