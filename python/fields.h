#pragma once

// The field tables (pliant/model_fields.h, pliant/data_fields.h) as Python
// properties: every size, option and array of Model and Data under its
// table name, with MuJoCo's shapes ((rows,) for one column, else (rows,
// columns)).

#include <pybind11/pybind11.h>

#include <memory>

#include "python/arrays.h"

namespace pliant::python {

// Sizes, options and arrays of the model: read-only copies.
void def_model_fields(py::class_<Model, std::shared_ptr<Model>>& cls);
// Every Data array that `cls` does not define already: a view of the
// engine's memory where its layout is MuJoCo's and its size fixed, else a
// read-only copy (a write to it is an error, never lost).
void def_data_fields(py::class_<PyData>& cls);
// pliant.model_fields(), pliant.data_fields(), pliant.model_sizes(),
// pliant.data_sizes(): the tables themselves.
void def_field_tables(py::module_& mod);

}  // namespace pliant::python
