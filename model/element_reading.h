#pragma once

// Attribute reads that several element parsers share.

#include <string>
#include <vector>

#include "model/attribute_reader.h"
#include "model/spec.h"

namespace pliant {

// Reads 1..N numbers over the first entries of `out`, keeping the rest: MJCF
// lets sizes, frictions and parameter vectors be given in part.
template <class Vector>
bool read_partial(AttributeReader& reader, const std::string& name, Vector& out, int max_count) {
  std::vector<double> values;
  if (!reader.read_numbers(name, values, 1, max_count)) return false;
  for (size_t i = 0; i < values.size(); ++i) out[i] = values[i];
  return true;
}

// "false", "true" or "auto" (decided by the compiler's autolimits).
inline void read_tristate(AttributeReader& reader, const std::string& name, TriState& out) {
  reader.read_keyword(
      name, out,
      {{"false", TriState::kFalse}, {"true", TriState::kTrue}, {"auto", TriState::kAuto}});
}

// An element's user data (`user`, any number of values), compiled into the
// model's *_user arrays as MuJoCo compiles it.
inline void read_user_data(AttributeReader& reader, std::vector<double>& user) {
  reader.read_numbers("user", user, 0, 1 << 20);
}

}  // namespace pliant
