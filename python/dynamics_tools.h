#pragma once

// Inverse dynamics, derivatives, model editing, saving and contacts for
// the Python module (python/dynamics_tools.cpp).

#include <pybind11/pybind11.h>

#include <memory>

#include "pliant/model.h"

namespace pliant::python {

namespace py = pybind11;

void def_dynamics_tools(py::module_& mod, py::class_<Model, std::shared_ptr<Model>>& model);

}  // namespace pliant::python
