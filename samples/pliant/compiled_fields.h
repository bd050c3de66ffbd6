#pragma once

// Every compiled field of a Model under MuJoCo 3.3.8's mjModel names and
// layouts (flat arrays, enums as MuJoCo's integer codes, quaternions w x y z,
// matrices row by row), for `pliant info --json` and for the tests that
// compare a compiled model with MuJoCo's field by field.

#include <string>
#include <utility>
#include <vector>

#include "model/model.h"

namespace pliant {

struct CompiledField {
  std::string name;            // MuJoCo's name: "body_mass", "nq", "opt_timestep", ...
  std::vector<double> values;  // flat; a size or scalar is one value
  bool integer = false;        // ids, counts, codes and flags
  bool scalar = false;         // a size or an option: one number, not an array
};

std::vector<CompiledField> compiled_fields(const Model& model);

}  // namespace pliant
