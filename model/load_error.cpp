#include "pliant/load_error.h"

#include <utility>

namespace pliant {
namespace {

std::string format_location(const std::string& file, int line, const std::string& message) {
  std::string out = file.empty() ? std::string("<model>") : file;
  if (line > 0) {
    out.append(":");
    out.append(std::to_string(line));
  }
  out.append(": ");
  out.append(message);
  return out;
}

}  // namespace

LoadError::LoadError(std::string file, int line, std::string message)
    : std::runtime_error(format_location(file, line, message)),
      file_(std::move(file)),
      line_(line),
      message_(std::move(message)) {}

}  // namespace pliant
