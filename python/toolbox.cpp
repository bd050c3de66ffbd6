#include "python/toolbox.h"

#include <pybind11/numpy.h>

#include <memory>
#include <string>

#include "pliant/jacobian.h"
#include "pliant/state.h"
#include "python/arrays.h"

// The engine's std::out_of_range (a bad id) and std::invalid_argument (a
// bad mask, another model's Data) reach Python as pybind11 translates them:
// IndexError and ValueError.

namespace pliant::python {
namespace {

using ModelPtr = std::shared_ptr<Model>;
using OutArray = py::array_t<double, py::array::c_style>;

// The memory of an output array of `count` float64 values in C order, or
// null for None; ValueError naming what is wrong otherwise.
double* output(const py::object& array, const char* name, long count) {
  if (array.is_none()) return nullptr;
  if (!py::isinstance<OutArray>(array)) {
    throw py::type_error(std::string(name) + " must be a float64 numpy array or None");
  }
  OutArray a = py::reinterpret_borrow<OutArray>(array);  // the caller's memory, no copy
  if (a.size() != count || !a.writeable()) {
    throw py::value_error(std::string(name) + " must be a writeable array of " +
                          std::to_string(count) + " values (3 x nv), got " +
                          std::to_string(a.size()));
  }
  return a.mutable_data();
}

Vector3d point_of(const py::handle& point) {
  const auto p = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(point);
  if (!p || p.size() != 3) throw py::value_error("point must hold 3 numbers");
  return Vector3d(p.data()[0], p.data()[1], p.data()[2]);
}

using ObjectJacobian = void (*)(const Model&, const Data&, double*, double*, int);

void def_object_jacobian(py::module_& mod, const char* name, ObjectJacobian f, const char* doc) {
  mod.def(
      name,
      [f](const ModelPtr& m, const PyData& d, const py::object& jacp, const py::object& jacr,
          int id) {
        double* p = output(jacp, "jacp", 3L * m->nv);
        double* r = output(jacr, "jacr", 3L * m->nv);
        check_same_model(m, d);
        f(*m, d.data, p, r, id);
      },
      py::arg("m").none(false), py::arg("d").none(false), py::arg("jacp"), py::arg("jacr"),
      py::arg("id"), doc);
}

using PointJacobian = void (*)(const Model&, const Data&, double*, double*, const Vector3d&, int);

void def_point_jacobian(py::module_& mod, const char* name, PointJacobian f, const char* doc) {
  mod.def(
      name,
      [f](const ModelPtr& m, const PyData& d, const py::object& jacp, const py::object& jacr,
          const py::handle& point, int body) {
        double* p = output(jacp, "jacp", 3L * m->nv);
        double* r = output(jacr, "jacr", 3L * m->nv);
        const Vector3d x = point_of(point);
        check_same_model(m, d);
        f(*m, d.data, p, r, x, body);
      },
      py::arg("m").none(false), py::arg("d").none(false), py::arg("jacp"), py::arg("jacr"),
      py::arg("point"), py::arg("body"), doc);
}

}  // namespace

void def_toolbox(py::module_& mod) {
  def_point_jacobian(mod, "jac", jacobian,
                     "Jacobians (3 x nv) of a world point attached to a body into jacp, jacr "
                     "(mj_jac)");
  def_object_jacobian(mod, "jac_body", jacobian_body, "Of a body's frame origin (mj_jacBody)");
  def_object_jacobian(mod, "jac_body_com", jacobian_body_com,
                      "Of a body's centre of mass (mj_jacBodyCom)");
  def_object_jacobian(mod, "jac_geom", jacobian_geom, "Of a geom's centre (mj_jacGeom)");
  def_object_jacobian(mod, "jac_site", jacobian_site, "Of a site (mj_jacSite)");
  mod.def(
      "jac_subtree_com",
      [](const ModelPtr& m, const PyData& d, const py::object& jacp, int body) {
        double* p = output(jacp, "jacp", 3L * m->nv);
        check_same_model(m, d);
        jacobian_subtree_com(*m, d.data, p, body);
      },
      py::arg("m").none(false), py::arg("d").none(false), py::arg("jacp"), py::arg("body"),
      "Translational Jacobian of a subtree's centre of mass (mj_jacSubtreeCom)");
  def_point_jacobian(mod, "jac_dot", jacobian_dot,
                     "Time derivative of jac's Jacobians (mj_jacDot)");

  mod.def(
      "state_size", [](const ModelPtr& m, unsigned spec) { return state_size(*m, spec); },
      py::arg("m").none(false), py::arg("spec"), "Values in a state of mask spec (mj_stateSize)");
  mod.def(
      "get_state",
      [](const ModelPtr& m, PyData& d, const py::object& state, unsigned spec) {
        check_same_model(m, d);
        double* out = output(state, "state", state_size(*m, spec));
        if (out == nullptr) throw py::type_error("state must be a float64 numpy array");
        d.push();  // the mirrors (mocap_quat, xfrc_applied) into the engine
        get_state(*m, d.data, out, spec);
      },
      py::arg("m").none(false), py::arg("d").none(false), py::arg("state"), py::arg("spec"),
      "The components of spec into state, in MuJoCo's order and layout (mj_getState)");
  mod.def(
      "set_state",
      [](const ModelPtr& m, PyData& d, const py::handle& state, unsigned spec) {
        check_same_model(m, d);
        const auto in =
            py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(state);
        const int size = state_size(*m, spec);
        if (!in || in.size() != size) {
          throw py::value_error("state must hold " + std::to_string(size) +
                                " numbers for this spec");
        }
        d.push();
        set_state(*m, d.data, in.data(), spec);
        d.pull();
      },
      py::arg("m").none(false), py::arg("d").none(false), py::arg("state"), py::arg("spec"),
      "Sets the components of spec from state (mj_setState)");
  py::enum_<StateBits>(mod, "State", py::arithmetic(), "MuJoCo's mjtState bits")
      .value("TIME", kStateTime)
      .value("QPOS", kStateQpos)
      .value("QVEL", kStateQvel)
      .value("ACT", kStateAct)
      .value("WARMSTART", kStateWarmstart)
      .value("CTRL", kStateCtrl)
      .value("QFRC_APPLIED", kStateQfrcApplied)
      .value("XFRC_APPLIED", kStateXfrcApplied)
      .value("EQ_ACTIVE", kStateEqActive)
      .value("MOCAP_POS", kStateMocapPos)
      .value("MOCAP_QUAT", kStateMocapQuat)
      .value("USERDATA", kStateUserdata)
      .value("PLUGIN", kStatePlugin)
      .value("PHYSICS", kStatePhysics)
      .value("FULLPHYSICS", kStateFullPhysics)
      .value("USER", kStateUser)
      .value("INTEGRATION", kStateIntegration);
}

}  // namespace pliant::python
