#pragma once

// The Python Data: an engine Data plus the arrays whose layout differs from
// MuJoCo's Python conventions. Quaternions are (w, x, y, z) in MuJoCo and
// (x, y, z, w) in Eigen's storage, and xfrc_applied is (force, torque) in
// MuJoCo and (torque, force) in Pliant; those three arrays are mirrors,
// written to the engine before and read back after every step, forward and
// reset. Every other array is a view of the engine's own memory.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>

#include "pliant/data.h"

namespace pliant::python {

namespace py = pybind11;

using RowMatrix4 = Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor>;
using RowMatrix6 = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor>;

struct PyData {
  explicit PyData(std::shared_ptr<Model> model);

  std::shared_ptr<Model> model;  // its parameters may be edited between steps
  Data data;
  RowMatrix4 xquat, mocap_quat;  // (w, x, y, z)
  RowMatrix6 xfrc_applied;       // (force, torque) at each body's centre of mass
  bool busy = false;             // a step, forward or reset is running on it

  // Mirrors into the engine (mocap_quat, xfrc_applied), before it runs.
  void push();
  // The engine into the mirrors (xquat, mocap_quat, xfrc_applied), after.
  void pull();
};

// Throws (ValueError) when `data` was made for a model of other sizes than
// `model`; the same model object passes at once.
void check_same_model(const std::shared_ptr<Model>& model, const PyData& data);

// A numpy array over `count` rows of `columns` doubles at `values`, sharing
// the memory and keeping `owner` (the Python object that holds it) alive.
// columns 0 makes a 1-D array.
py::array_t<double> view(py::handle owner, double* values, long count, long columns = 0);

// Copies the `count` values of `values` (already shape-checked) to `out`.
void assign(const py::array_t<double, py::array::c_style | py::array::forcecast>& values,
            double* out, long count);

}  // namespace pliant::python
