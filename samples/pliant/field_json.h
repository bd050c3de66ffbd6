#pragma once

// The field tables (pliant/model_fields.h, pliant/data_fields.h) as JSON:
// `pliant info --json`, `pliant dump --fields` and `pliant fields`.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pliant/data_fields.h"
#include "pliant/model_fields.h"

namespace pliant::cli {

// Every size (a number), option (a number, or a list) and array (a flat
// list, row by row) of the model under its table name, and under
// "pliant_only_fields" the names that MuJoCo does not have in this layout.
nlohmann::ordered_json model_json(const Model& model);

// Indices of the named Data fields; std::invalid_argument naming the first
// unknown one and what is accepted.
std::vector<int> data_field_indices(const std::string& comma_separated_names);

// The tables as Markdown (docs/fields.md) and as JSON (name, rows, columns,
// unit, doc, integer, mujoco of each field).
std::string fields_markdown();
nlohmann::ordered_json fields_json();

}  // namespace pliant::cli
