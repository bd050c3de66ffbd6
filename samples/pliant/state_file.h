#pragma once

// A state as a JSON file, shared by the subcommands that start from one
// (`jacobian`, `dump`) and by the MuJoCo reference script:
//
//   {"qpos": [...], "qvel": [...], "act": [...], "ctrl": [...],
//    "qacc_warmstart": [...]}
//
// qpos and qvel are required; act, ctrl and the solver's warm start are
// optional. Each list must have the model's size (nq, nv, na, nu, nv).

#include <string>

#include "pliant/data.h"

namespace pliant::cli {

// Reads the file into data; throws LoadError (file, what is wrong, what is
// accepted) and leaves data unchanged on bad input.
void read_state_file(const std::string& path, const Model& model, Data& data);

}  // namespace pliant::cli
