#pragma once

// A small element tree for writing XML: each element has attributes in the
// order they were set and children in the order they were added. Numbers
// are written in the shortest text that reads back (strtod) to the same
// double, so values survive a round trip through text exactly.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <deque>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace pliant {

// The shortest decimal text that reads back as `value` ("0.1", "-0", "1e-05").
std::string format_number(double value);

class XmlElement {
 public:
  explicit XmlElement(std::string name) : name_(std::move(name)) {}

  XmlElement& set(const char* name, const std::string& value);
  XmlElement& set(const char* name, const char* value) { return set(name, std::string(value)); }
  XmlElement& set(const char* name, double value) { return set(name, format_number(value)); }
  XmlElement& set(const char* name, int value) { return set(name, std::to_string(value)); }
  XmlElement& set_bool(const char* name, bool value) { return set(name, value ? "true" : "false"); }
  // Numbers separated by spaces.
  XmlElement& set(const char* name, std::span<const double> values);
  XmlElement& set(const char* name, std::span<const int> values);
  template <int N>
  XmlElement& set(const char* name, const Eigen::Matrix<double, N, 1>& values) {
    return set(name, std::span<const double>(values.data(), N));
  }
  // (w, x, y, z), MJCF's order.
  XmlElement& set(const char* name, const Eigen::Quaterniond& q);
  // Sets `name` only when `value` is not empty.
  XmlElement& set_name(const std::string& value) {
    return value.empty() ? *this : set("name", value);
  }

  // A new child, appended; the reference stays valid as more are added.
  XmlElement& add(std::string name) { return children_.emplace_back(std::move(name)); }
  bool empty() const { return children_.empty() && attributes_.empty(); }
  bool has_children() const { return !children_.empty(); }

  // The element and its children, indented two spaces a level.
  void write(std::string& out, int depth = 0) const;

 private:
  std::string name_;
  std::vector<std::pair<std::string, std::string>> attributes_;
  std::deque<XmlElement> children_;
};

}  // namespace pliant
