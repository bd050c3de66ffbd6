#pragma once

// Mesh file readers (internal to the model library): STL (binary or ASCII),
// OBJ through tinyobjloader, and MSH (MuJoCo's binary mesh format), each
// reading vertices and faces the way MuJoCo 2.2.2 does.

#include <string>

#include "model/raw_mesh.h"

namespace pliant {

// Reads the mesh file `path`, chosen by extension (case-insensitive): .stl
// (repeated vertices merged as 2.2.2 merges them), .obj (only the first
// object's faces, three fresh vertices per triangle) or .msh. With `flip`,
// every face is re-wound (2.2.2 does so when the scale mirrors the mesh).
// The faces may be empty (an OBJ or MSH file with vertices only); the
// vertices are unscaled. Any problem throws LoadError(xml_file, xml_line,
// ...) naming `path`. `format` ("stl", "obj" or "msh", from the MJCF
// content_type) overrides the extension when it is not empty.
RawMesh read_raw_mesh_file(const std::string& path, bool flip, const std::string& xml_file,
                           int xml_line, const std::string& format = "");

}  // namespace pliant
