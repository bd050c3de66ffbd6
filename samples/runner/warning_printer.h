#pragma once

// Prints on stderr what the engine records while a command steps a model:
// the model's compile-time and parameter warnings once when stepping starts,
// then the first occurrence of each kind of step warning (NaN or huge state,
// solver at its iteration limit) with its step, time and dof, and at the end
// how often each kind happened. Used by `pliant dump`, `run` and `bench`, so
// that a diverging model never passes silently.

#include <array>
#include <ostream>

#include "pliant/data.h"

namespace pliant {

class WarningPrinter {
 public:
  WarningPrinter(const Model& model, std::ostream& out);

  // Prints the kinds that happened for the first time since the last call.
  void after_step(const Data& data);
  // One line per kind that happened: how many times, and the last step.
  void summary(const Data& data);

 private:
  std::ostream& out_;
  std::array<bool, static_cast<int>(WarningKind::kCount)> printed_{};
};

}  // namespace pliant
