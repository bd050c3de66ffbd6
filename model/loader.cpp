#include "model/loader.h"

#include <filesystem>

#include "model/compiler.h"
#include "model/parser.h"
#include "model/xml_tree.h"

namespace pliant {

Model compile_model_file(const std::string& path) {
  const XmlNode root = read_xml_file(path);
  const std::string directory = std::filesystem::path(path).parent_path().string();
  Model model = compile_model(parse_mjcf(root, path, directory));
  model.file = path;
  return model;
}

Model compile_model_string(const std::string& xml, const std::string& directory,
                           const std::string& name) {
  const XmlNode root = read_xml_string(xml, name, directory);
  return compile_model(parse_mjcf(root, name, directory));
}

}  // namespace pliant
