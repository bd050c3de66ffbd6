#include "model/xml_tree.h"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "pliant/load_error.h"

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
                      IncludeContext& context, const std::string& root_name = "mujoco");

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

// The element tinyxml2 names in its error text ("... name=geom"), or "".
std::string element_in_error(const tinyxml2::XMLDocument& document) {
  const std::string raw = document.ErrorStr() ? document.ErrorStr() : "";
  const size_t at = raw.rfind("name=");
  if (at == std::string::npos) return "";
  size_t end = at + 5;
  while (end < raw.size() && !std::isspace(static_cast<unsigned char>(raw[end]))) ++end;
  return raw.substr(at + 5, end - at - 5);
}

// An attribute written twice on line `line` of `text`, or "".
std::string repeated_attribute(const std::string& text, int line) {
  size_t start = 0;
  for (int i = 1; i < line && start != std::string::npos; ++i) {
    start = text.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos) return "";
  const std::string row = text.substr(start, text.find('\n', start) - start);
  std::vector<std::string> names;
  for (size_t eq = row.find('='); eq != std::string::npos; eq = row.find('=', eq + 1)) {
    size_t end = eq;
    while (end > 0 && std::isspace(static_cast<unsigned char>(row[end - 1]))) --end;
    size_t begin = end;
    while (begin > 0 &&
           (std::isalnum(static_cast<unsigned char>(row[begin - 1])) || row[begin - 1] == '_')) {
      --begin;
    }
    const std::string name = row.substr(begin, end - begin);
    if (std::find(names.begin(), names.end(), name) != names.end()) return name;
    names.push_back(name);
  }
  return "";
}

// tinyxml2's error, as a sentence saying what is wrong and what is expected.
std::string describe_xml_error(const tinyxml2::XMLDocument& document, const std::string& text) {
  const std::string element = element_in_error(document);
  const std::string in = element.empty() ? "" : " <" + element + ">";
  switch (document.ErrorID()) {
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT:
      return "the file is empty; an MJCF model is XML with one <mujoco> root element";
    case tinyxml2::XML_ERROR_PARSING_TEXT:
      return "this is not XML: an MJCF model is XML with one <mujoco> root element";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      return "malformed XML: element" + in +
             " is not closed; end it with '/>' or a matching end tag";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: {
      const std::string twice = repeated_attribute(text, document.ErrorLineNum());
      if (!twice.empty()) {
        return "malformed XML: attribute '" + twice + "' appears twice on" + in +
               "; give each attribute once";
      }
      return "malformed XML: an attribute of" + in +
             " cannot be read; write attributes as name=\"value\"";
    }
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED:
      return "malformed XML: elements nest deeper than 100 levels, the most Pliant reads";
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      return "malformed XML: element" + in + " cannot be read; check its '<', '>' and quotes";
    default:
      return std::string("malformed XML: ") + document.ErrorName() +
             (element.empty() ? "" : " at <" + element + ">");
  }
}

XmlNode read_document(const std::string& text, const std::string& file, const fs::path& directory,
                      IncludeContext& context, const std::string& root_name) {
  tinyxml2::XMLDocument document;
  if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    throw LoadError(file, document.ErrorLineNum(), describe_xml_error(document, text));
  }
  const tinyxml2::XMLElement* root = document.RootElement();
  if (root == nullptr || std::string(root->Name()) != root_name) {
    throw LoadError(file, root ? root->GetLineNum() : 0,
                    "the root element must be <" + root_name + ">, found " +
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

XmlNode read_xml_file(const std::string& path, const std::string& root) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw LoadError(path, 0, "cannot open the model file");
  std::stringstream buffer;
  buffer << stream.rdbuf();
  IncludeContext context;
  std::error_code ec;
  context.stack.push_back(fs::weakly_canonical(path, ec).string());
  return read_document(buffer.str(), path, fs::path(path).parent_path(), context, root);
}

XmlNode read_xml_string(const std::string& text, const std::string& name,
                        const std::string& directory) {
  IncludeContext context;
  return read_document(text, name, directory, context);
}

}  // namespace pliant
