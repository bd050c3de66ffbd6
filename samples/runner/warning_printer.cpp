#include "samples/runner/warning_printer.h"

#include <string>

namespace pliant {
namespace {

std::string describe(WarningKind kind, int index) {
  std::string text = warning_text(kind);
  const size_t at = text.find("INDEX");
  if (at != std::string::npos) text.replace(at, 5, std::to_string(index));
  return text;
}

}  // namespace

WarningPrinter::WarningPrinter(const Model& model, std::ostream& out) : out_(out) {
  for (const std::string& w : model.warnings) out_ << "warning: " << w << "\n";
  for (const ParameterWarning& w : model.parameter_warnings) {
    out_ << "warning: " << w.message << "\n";
  }
}

void WarningPrinter::after_step(const Data& data) {
  for (int k = 0; k < static_cast<int>(WarningKind::kCount); ++k) {
    const Warning& w = data.warnings[k];
    if (w.count == 0 || printed_[k]) continue;
    printed_[k] = true;
    out_ << "warning: step " << w.last_step << " (time " << data.time
         << " s): " << describe(static_cast<WarningKind>(k), w.last_index)
         << " (shown once; counted at the end)\n";
  }
}

void WarningPrinter::summary(const Data& data) {
  for (int k = 0; k < static_cast<int>(WarningKind::kCount); ++k) {
    const Warning& w = data.warnings[k];
    if (w.count == 0) continue;
    out_ << "warning: " << w.count << " time" << (w.count == 1 ? "" : "s") << ", last at step "
         << w.last_step << ": " << describe(static_cast<WarningKind>(k), w.last_index) << "\n";
  }
}

}  // namespace pliant
