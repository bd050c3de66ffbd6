#pragma once

#include <stdexcept>
#include <string>

namespace pliant {

// Raised by the loader for any problem with a model file. Loading either
// returns a complete Model or throws this; nothing is half-loaded.
//
// what() reads "FILE:LINE: MESSAGE" (or "FILE: MESSAGE" when no line applies),
// where MESSAGE says what is wrong and what is accepted.
class LoadError : public std::runtime_error {
 public:
  LoadError(std::string file, int line, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }  // 0 when the error is about the file as a whole
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

}  // namespace pliant
