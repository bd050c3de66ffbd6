#include "samples/pliant/model_edits.h"

#include <stdexcept>

#include "pliant/edit_model.h"
#include "pliant/load_error.h"
#include "pliant/model_fields.h"

namespace pliant::cli {

void add_model_edit_options(CLI::App* command, ModelEdits& edits) {
  command->add_option("--edit", edits.edits,
                      "Change one model value first: NAME:INDEX:VALUE (INDEX counts the "
                      "field's values row by row; repeatable)");
  command->add_flag("--set-const", edits.set_const,
                    "After the edits, recompute the constants that depend on them (set_const)");
}

void apply_model_edits(const ModelEdits& edits, Model& model) {
  for (const std::string& edit : edits.edits) {
    const size_t first = edit.find(':'), second = edit.find(':', first + 1);
    const auto bad = [&](const std::string& why) { return LoadError("--edit " + edit, 0, why); };
    if (first == std::string::npos || second == std::string::npos) {
      throw bad("accepted: NAME:INDEX:VALUE, e.g. body_mass:1:2.5");
    }
    const std::string name = edit.substr(0, first);
    long index = 0;
    double value = 0;
    try {
      index = std::stol(edit.substr(first + 1, second - first - 1));
      value = std::stod(edit.substr(second + 1));
    } catch (const std::exception&) {
      throw bad("INDEX must be an integer and VALUE a number");
    }
    try {
      const int option = find_model_option(name);
      if (option >= 0) {
        std::vector<double> values = read_model_option(model, option);
        if (index < 0 || index >= static_cast<long>(values.size())) {
          throw std::invalid_argument(name + " has " + std::to_string(values.size()) + " values");
        }
        values[index] = value;
        edit_model_option(model, option, values.data(), static_cast<long>(values.size()));
        continue;
      }
      const int field = find_model_field(name);
      if (field < 0) throw std::invalid_argument("no model field or option is named " + name);
      std::vector<double> values = read_model_field(model, field);
      if (index < 0 || index >= static_cast<long>(values.size())) {
        throw std::invalid_argument(name + " has " + std::to_string(values.size()) + " values");
      }
      values[index] = value;
      edit_model_field(model, field, values.data(), static_cast<long>(values.size()));
    } catch (const std::invalid_argument& e) {
      throw bad(e.what());
    }
  }
  if (edits.set_const) set_const(model);
}

}  // namespace pliant::cli
