#include "model/xml_writer.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace pliant {
namespace {

// Attribute values in double quotes: the five characters XML reserves.
void append_escaped(std::string& out, const std::string& text) {
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
}

template <class T>
std::string join(std::span<const T> values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ' ';
    if constexpr (std::is_same_v<T, double>) {
      text += format_number(values[i]);
    } else {
      text += std::to_string(values[i]);
    }
  }
  return text;
}

}  // namespace

std::string format_number(double value) {
  // MJCF has no text for infinities and NaN, and a compiled Model holds none.
  if (!std::isfinite(value)) {
    throw std::invalid_argument("pliant: a model value is not finite and cannot be written");
  }
  // to_chars without a precision gives the shortest text that reads back as
  // the same double (round-trip exact with a correctly rounded strtod).
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

XmlElement& XmlElement::set(const char* name, const std::string& value) {
  attributes_.emplace_back(name, value);
  return *this;
}

XmlElement& XmlElement::set(const char* name, std::span<const double> values) {
  return set(name, join(values));
}

XmlElement& XmlElement::set(const char* name, std::span<const int> values) {
  return set(name, join(values));
}

XmlElement& XmlElement::set(const char* name, const Eigen::Quaterniond& q) {
  const double wxyz[] = {q.w(), q.x(), q.y(), q.z()};
  return set(name, std::span<const double>(wxyz));
}

void XmlElement::write(std::string& out, int depth) const {
  out.append(2 * static_cast<size_t>(depth), ' ');
  out += '<';
  out += name_;
  for (const auto& [name, value] : attributes_) {
    out += ' ';
    out += name;
    out += "=\"";
    append_escaped(out, value);
    out += '"';
  }
  if (children_.empty()) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  for (const XmlElement& child : children_) child.write(out, depth + 1);
  out.append(2 * static_cast<size_t>(depth), ' ');
  out += "</";
  out += name_;
  out += ">\n";
}

}  // namespace pliant
