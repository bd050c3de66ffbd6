#pragma once

// Typed reading of one element's attributes with precise errors. Every read
// names an attribute the element accepts; finish() then rejects whatever the
// element carries that no read asked for, listing the accepted names. One
// parser function per element kind serves both defaults and real elements.

#include <Eigen/Core>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/xml_tree.h"

namespace pliant {

class AttributeReader {
 public:
  // `notes` (the model's, may be null) collects the sentences of
  // accept_unused and note.
  explicit AttributeReader(const XmlNode& node, std::vector<std::string>* notes = nullptr)
      : node_(node), notes_(notes) {}

  const XmlNode& node() const { return node_; }

  // Raw text of the attribute, if present.
  std::optional<std::string> text(const std::string& name);
  bool has(const std::string& name);

  // Each read leaves `out` untouched when the attribute is absent and returns
  // whether it was present.
  bool read(const std::string& name, double& out);
  bool read(const std::string& name, int& out);
  bool read(const std::string& name, std::string& out);
  bool read_bool(const std::string& name, bool& out);  // "true" or "false"
  // Exactly out.size() numbers.
  template <int N>
  bool read(const std::string& name, Eigen::Matrix<double, N, 1>& out) {
    std::vector<double> values;
    if (!read_numbers(name, values, N, N)) return false;
    for (int i = 0; i < N; ++i) out[i] = values[i];
    return true;
  }
  // Between min_count and max_count numbers.
  bool read_numbers(const std::string& name, std::vector<double>& out, int min_count,
                    int max_count);
  bool read_integers(const std::string& name, std::vector<int>& out, int min_count, int max_count);

  // One of a fixed set of keywords.
  template <class T>
  bool read_keyword(const std::string& name, T& out,
                    std::initializer_list<std::pair<const char*, T>> choices) {
    return read_keyword(
        name, out, std::span<const std::pair<const char*, T>>(choices.begin(), choices.size()));
  }
  template <class T>
  bool read_keyword(const std::string& name, T& out,
                    std::span<const std::pair<const char*, T>> choices) {
    std::optional<std::string> value = text(name);
    if (!value) return false;
    std::string accepted;
    for (const auto& [word, code] : choices) {
      if (*value == word) {
        out = code;
        return true;
      }
      accepted += accepted.empty() ? "" : ", ";
      accepted += word;
    }
    fail("attribute '" + name + "' of <" + node_.name + "> is '" + *value +
         "'; accepted: " + accepted);
  }

  // Reads nothing: `name` is documented MJCF that Pliant accepts and does
  // not use. When the element carries it, the notes get one sentence naming
  // it (with file and line) and saying why.
  void accept_unused(const std::string& name, const std::string& why);
  // Adds "FILE:LINE: <element> MESSAGE" to the notes.
  void note(const std::string& message);

  // Rejects attributes that no read asked for.
  void finish();

  [[noreturn]] void fail(const std::string& message) const;

 private:
  const XmlNode& node_;
  std::vector<std::string>* notes_;
  std::vector<std::string> known_;
};

// Splits whitespace-separated numbers; false when a token is not a finite number.
bool parse_numbers(const std::string& text, std::vector<double>& out);

}  // namespace pliant
