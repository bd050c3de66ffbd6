#pragma once

// MuJoCo's toolbox in Python, with MuJoCo's argument order: Jacobians
// (pliant.jac, jac_body, ..., as mj_jac*) and states (pliant.state_size,
// get_state, set_state, as mj_stateSize, mj_getState, mj_setState).

#include <pybind11/pybind11.h>

namespace pliant::python {

void def_toolbox(pybind11::module_& mod);

}  // namespace pliant::python
