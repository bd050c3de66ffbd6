#include "model/xml_tree.h"

#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/load_error.h"

namespace pliant {
namespace fs = std::filesystem;

const std::string* XmlNode::find(const std::string& attribute) const {
  for (const XmlAttribute& a : attributes) {
    if (a.name == attribute) return &a.value;
  }
  return nullptr;
}

namespace {

struct IncludeContext {
  std::vector<std::string> stack;  // canonical paths of the files being read
};

XmlNode read_document(const std::string& text, const std::string& file, const fs::path& directory,
                      IncludeContext& context);

// Converts a tinyxml2 element, splicing the root children of included files
// in place of each <include>.
void convert_children(const tinyxml2::XMLElement& element, const std::string& file,
                      const fs::path& directory, IncludeContext& context, XmlNode& out) {
  for (const tinyxml2::XMLElement* child = element.FirstChildElement(); child != nullptr;
       child = child->NextSiblingElement()) {
    if (std::string(child->Name()) == "include") {
      const char* name = child->Attribute("file");
      if (name == nullptr) {
        throw LoadError(file, child->GetLineNum(),
                        "<include> needs a file attribute naming the MJCF file to include");
      }
      for (const tinyxml2::XMLAttribute* a = child->FirstAttribute(); a; a = a->Next()) {
        if (std::string(a->Name()) != "file") {
          throw LoadError(
              file, child->GetLineNum(),
              std::string("unknown attribute '") + a->Name() + "' on <include>; accepted: file");
        }
      }
      const fs::path path = directory / name;
      std::ifstream stream(path, std::ios::binary);
      if (!stream) {
        throw LoadError(file, child->GetLineNum(),
                        "cannot open included file '" + path.string() + "'");
      }
      std::stringstream buffer;
      buffer << stream.rdbuf();
      std::error_code ec;
      const std::string canonical = fs::weakly_canonical(path, ec).string();
      for (const std::string& open : context.stack) {
        if (open == canonical) {
          throw LoadError(file, child->GetLineNum(),
                          "include cycle: '" + path.string() + "' is already being read");
        }
      }
      context.stack.push_back(canonical);
      XmlNode included = read_document(buffer.str(), path.string(), path.parent_path(), context);
      context.stack.pop_back();
      for (XmlNode& node : included.children) out.children.push_back(std::move(node));
      continue;
    }
    XmlNode node;
    node.name = child->Name();
    node.file = file;
    node.line = child->GetLineNum();
    for (const tinyxml2::XMLAttribute* a = child->FirstAttribute(); a; a = a->Next()) {
      node.attributes.push_back({a->Name(), a->Value()});
    }
    convert_children(*child, file, directory, context, node);
    out.children.push_back(std::move(node));
  }
}

XmlNode read_document(const std::string& text, const std::string& file, const fs::path& directory,
                      IncludeContext& context) {
  tinyxml2::XMLDocument document;
  if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    std::string reason = document.ErrorStr() ? document.ErrorStr() : "unknown error";
    throw LoadError(file, document.ErrorLineNum(), "malformed XML: " + reason);
  }
  const tinyxml2::XMLElement* root = document.RootElement();
  if (root == nullptr || std::string(root->Name()) != "mujoco") {
    throw LoadError(file, root ? root->GetLineNum() : 0,
                    "the root element must be <mujoco>, found " +
                        (root ? "<" + std::string(root->Name()) + ">" : std::string("nothing")));
  }
  XmlNode node;
  node.name = root->Name();
  node.file = file;
  node.line = root->GetLineNum();
  for (const tinyxml2::XMLAttribute* a = root->FirstAttribute(); a; a = a->Next()) {
    node.attributes.push_back({a->Name(), a->Value()});
  }
  convert_children(*root, file, directory, context, node);
  return node;
}

}  // namespace

XmlNode read_xml_file(const std::string& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw LoadError(path, 0, "cannot open the model file");
  std::stringstream buffer;
  buffer << stream.rdbuf();
  IncludeContext context;
  std::error_code ec;
  context.stack.push_back(fs::weakly_canonical(path, ec).string());
  return read_document(buffer.str(), path, fs::path(path).parent_path(), context);
}

XmlNode read_xml_string(const std::string& text, const std::string& name,
                        const std::string& directory) {
  IncludeContext context;
  return read_document(text, name, directory, context);
}

}  // namespace pliant
