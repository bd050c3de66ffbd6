#pragma once

// A small read-only element tree built from MJCF text with tinyxml2, with
// every <include> expanded in place. Each node remembers the file and line it
// came from, so any later error can point at the user's text.

#include <memory>
#include <string>
#include <vector>

namespace pliant {

struct XmlAttribute {
  std::string name;
  std::string value;
};

struct XmlNode {
  std::string name;
  std::vector<XmlAttribute> attributes;
  std::vector<XmlNode> children;
  std::string file;  // the file this element was written in
  int line = 0;

  // The attribute's value, or nullptr when absent.
  const std::string* find(const std::string& attribute) const;
};

// Reads `path` and expands includes (paths relative to the including file).
// Throws LoadError on a missing file, malformed XML, an include cycle or an
// include whose file does not have a <mujoco> root.
// `root` names the element the file must have at its top (MJCF: mujoco).
XmlNode read_xml_file(const std::string& path, const std::string& root = "mujoco");

// Same, for MJCF text held in memory; includes resolve against `directory`.
XmlNode read_xml_string(const std::string& text, const std::string& name,
                        const std::string& directory);

}  // namespace pliant
