#pragma once

// `--edit NAME:INDEX:VALUE` (repeatable) and `--set-const` for the
// subcommands that load a model (`info`, `dump`): parameters changed as a
// user randomising a model would (pliant/edit_model.h), so the results can
// be compared with MuJoCo's after the same change.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "pliant/model.h"

namespace pliant::cli {

struct ModelEdits {
  std::vector<std::string> edits;  // "body_mass:3:2.5": value 3 (flat, row-major) of body_mass
  bool set_const = false;
};

void add_model_edit_options(CLI::App* command, ModelEdits& edits);

// Applies the edits in order, then set_const when asked. A bad edit throws
// LoadError naming it and what is accepted.
void apply_model_edits(const ModelEdits& edits, Model& model);

}  // namespace pliant::cli
