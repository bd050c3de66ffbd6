#pragma once

// pliant._Renderer and pliant._PassiveViewer: the offscreen renderer and the
// passive viewer window of viewer/, for pliant.Renderer and
// pliant.viewer.launch_passive (python/pliant/_render.py, viewer.py). Built
// when the viewer is (PLIANT_PYTHON_RENDER); otherwise the module has
// neither and the Python side says why.

#include <pybind11/pybind11.h>

namespace pliant::python {

void def_render(pybind11::module_& mod);

}  // namespace pliant::python
