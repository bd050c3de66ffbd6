#include "model/attribute_reader.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "model/numeric_limits.h"
#include "pliant/load_error.h"

namespace pliant {

bool parse_numbers(const std::string& text, std::vector<double>& out) {
  out.clear();
  std::istringstream stream(text);
  std::string token;
  while (stream >> token) {
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || errno == ERANGE || !std::isfinite(value)) {
      return false;
    }
    out.push_back(value);
  }
  return true;
}

std::optional<std::string> AttributeReader::text(const std::string& name) {
  if (std::find(known_.begin(), known_.end(), name) == known_.end()) known_.push_back(name);
  const std::string* value = node_.find(name);
  // An attribute written as "" (or only spaces) is absent, as MuJoCo 3.3.8
  // reads it.
  if (value == nullptr || value->find_first_not_of(" \t\n\r") == std::string::npos) {
    return std::nullopt;
  }
  return *value;
}

bool AttributeReader::has(const std::string& name) { return text(name).has_value(); }

bool AttributeReader::read(const std::string& name, std::string& out) {
  std::optional<std::string> value = text(name);
  if (!value) return false;
  out = *value;
  return true;
}

bool AttributeReader::read_numbers(const std::string& name, std::vector<double>& out, int min_count,
                                   int max_count) {
  std::optional<std::string> value = text(name);
  if (!value) return false;
  if (!parse_numbers(*value, out)) {
    fail("attribute '" + name + "' of <" + node_.name + "> has '" + *value +
         "', which is not a list of finite numbers");
  }
  for (const double v : out) {
    if (std::abs(v) > kMaxValue) {
      std::ostringstream number;
      number << v;
      fail("attribute '" + name + "' of <" + node_.name + "> has " + number.str() +
           ", beyond the largest magnitude a model value may have (1e10)");
    }
  }
  const int count = static_cast<int>(out.size());
  if (count < min_count || count > max_count) {
    std::string expected = min_count == max_count
                               ? std::to_string(min_count)
                               : std::to_string(min_count) + " to " + std::to_string(max_count);
    fail("attribute '" + name + "' of <" + node_.name + "> has " + std::to_string(count) +
         " value" + (count == 1 ? "" : "s") + "; expected " + expected);
  }
  return true;
}

bool AttributeReader::read_integers(const std::string& name, std::vector<int>& out, int min_count,
                                    int max_count) {
  std::vector<double> values;
  if (!read_numbers(name, values, min_count, max_count)) return false;
  out.clear();
  for (double v : values) {
    if (v != std::floor(v) || std::abs(v) > 2e9) {
      fail("attribute '" + name + "' of <" + node_.name + "> must hold whole numbers");
    }
    out.push_back(static_cast<int>(v));
  }
  return true;
}

bool AttributeReader::read(const std::string& name, double& out) {
  std::vector<double> values;
  if (!read_numbers(name, values, 1, 1)) return false;
  out = values[0];
  return true;
}

bool AttributeReader::read(const std::string& name, int& out) {
  std::vector<int> values;
  if (!read_integers(name, values, 1, 1)) return false;
  out = values[0];
  return true;
}

bool AttributeReader::read_bool(const std::string& name, bool& out) {
  return read_keyword(name, out, {{"false", false}, {"true", true}});
}

void AttributeReader::accept_unused(const std::string& name, const std::string& why) {
  if (has(name)) note("'" + name + "' is accepted and not used: " + why);
}

void AttributeReader::note(const std::string& message) {
  if (notes_ == nullptr) return;
  notes_->push_back(node_.file + ":" + std::to_string(node_.line) + ": <" + node_.name + "> " +
                    message);
}

void AttributeReader::finish() {
  for (const XmlAttribute& attribute : node_.attributes) {
    if (std::find(known_.begin(), known_.end(), attribute.name) != known_.end()) continue;
    std::string accepted;
    for (const std::string& name : known_) accepted += (accepted.empty() ? "" : ", ") + name;
    fail("unknown attribute '" + attribute.name + "' on <" + node_.name +
         ">; accepted: " + (accepted.empty() ? std::string("none") : accepted));
  }
}

void AttributeReader::fail(const std::string& message) const {
  throw LoadError(node_.file, node_.line, message);
}

}  // namespace pliant
