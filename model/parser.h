#pragma once

#include "model/spec.h"
#include "model/xml_tree.h"

namespace pliant {

// Reads an MJCF element tree (includes already expanded) into a ModelSpec:
// default classes applied, orientations resolved, every element and attribute
// checked. `directory` is where the model's relative asset paths start.
ModelSpec parse_mjcf(const XmlNode& root, const std::string& file, const std::string& directory);

}  // namespace pliant
