#include "python/dynamics_tools.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "engine/constraint/solve.h"
#include "pliant/derivatives.h"
#include "pliant/edit_model.h"
#include "pliant/inverse.h"
#include "pliant/model_fields.h"
#include "pliant/ray.h"
#include "pliant/save_xml.h"
#include "pliant/state.h"
#include "python/arrays.h"

namespace pliant::python {
namespace {

using ModelPtr = std::shared_ptr<Model>;
using InArray = py::array_t<double, py::array::c_style | py::array::forcecast>;
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

py::array_t<double> matrix(const Eigen::MatrixXd& a) {
  py::array_t<double> out({a.rows(), a.cols()});
  Eigen::Map<RowMatrix>(out.mutable_data(), a.rows(), a.cols()) = a;
  return out;
}

// A Data made for `model` (ValueError otherwise), marked busy while `f`
// runs on it, with the mirrors pushed before and pulled after.
template <typename F>
void on_data(const ModelPtr& m, PyData& d, F f) {
  check_same_model(m, d);
  if (d.busy) throw std::runtime_error("this pliant.Data is being stepped by another thread");
  d.busy = true;
  d.push();
  try {
    f();
  } catch (...) {
    d.busy = false;
    d.pull();
    throw;
  }
  d.busy = false;
  d.pull();
}

// The values of a Python array for a table field of `count` values.
std::vector<double> values_of(const py::handle& values, const std::string& name, long count) {
  const auto in = InArray::ensure(values);
  if (!in || in.size() != count) {
    throw py::value_error(name + " takes " + std::to_string(count) + " values, got " +
                          (in ? std::to_string(in.size()) : std::string("no array")));
  }
  return std::vector<double>(in.data(), in.data() + count);
}

}  // namespace

// model.opt_<name>: the option flags `flags` as a bit mask (bit b for
// flags[b]), a set bit meaning the flag is `set_is_on`; a mask beyond the
// flags is refused, naming `accepted`.
template <size_t N>
void def_flag_mask(py::class_<Model, ModelPtr>& model, const std::string& name,
                   bool OptionFlags::*const (&flags)[N], bool set_is_on, const char* accepted,
                   const char* doc) {
  model.def_property(("opt_" + name).c_str(),
                     [&flags, set_is_on](const Model& m) {
                       int mask = 0;
                       for (size_t b = 0; b < N; ++b)
                         mask |= (m.options.flags.*flags[b] == set_is_on) << b;
                       return mask;
                     },
                     [&flags, set_is_on, name, accepted](Model& m, long mask) {
                       if (mask < 0 || mask >= (1L << N)) {
                         throw py::value_error(name + " is " + std::to_string(mask) +
                                               "; accepted: a mask of " + accepted);
                       }
                       for (size_t b = 0; b < N; ++b)
                         m.options.flags.*flags[b] = (((mask >> b) & 1) != 0) == set_is_on;
                     },
                     doc);
}

void def_dynamics_tools(py::module_& mod, py::class_<Model, ModelPtr>& model) {
  // Model arrays and options by table index: what python/pliant/_model.py
  // turns into writable attributes.
  model.def("_read_field", [](const Model& m, int index) {
    const FieldShape shape = model_field_shape(ModelSizes(m), index);
    const std::vector<double> v = read_model_field(m, index);
    py::array_t<double> out({static_cast<long>(shape.rows), static_cast<long>(shape.columns)});
    std::copy(v.begin(), v.end(), out.mutable_data());
    return out;
  });
  model.def("_write_field", [](Model& m, int index, const py::handle& values) {
    const std::string name = model_field_infos()[index].name;
    const std::vector<double> v =
        values_of(values, name, model_field_shape(ModelSizes(m), index).count());
    edit_model_field(m, index, v.data(), static_cast<long>(v.size()));
  });
  model.def("_field_not_editable",
            [](const Model&, int index) { return model_field_not_editable(index); });
  model.def("_read_option", [](const Model& m, int index) {
    const std::vector<double> v = read_model_option(m, index);
    py::array_t<double> out(static_cast<long>(v.size()));
    std::copy(v.begin(), v.end(), out.mutable_data());
    return out;
  });
  model.def("_write_option", [](Model& m, int index, const py::handle& values) {
    const std::string name = model_option_infos()[index].name;
    const std::vector<double> v =
        values_of(values, name, static_cast<long>(read_model_option(m, index).size()));
    edit_model_option(m, index, v.data(), static_cast<long>(v.size()));
  });

  // Names and ids by Pliant's object type codes (pliant.mujoco maps
  // mjtObj's onto them).
  model.def("_name2id", [](const Model& m, int type, const std::string& name) {
    return m.id(static_cast<ObjectType>(type), name);
  });
  model.def("_id2name", [](const Model& m, int type, int id) -> py::object {
    const std::string& name = m.name(static_cast<ObjectType>(type), id);
    if (name.empty()) return py::none();
    return py::str(name);
  });
  // model.opt.disableflags and enableflags: the flags as MuJoCo's bit masks
  // (mjtDisableBit, mjtEnableBit, 3.3.8's order).
  using Flag = bool OptionFlags::*;
  static constexpr Flag kDisable[] = {
      &OptionFlags::constraint, &OptionFlags::equality,     &OptionFlags::frictionloss,
      &OptionFlags::limit,      &OptionFlags::contact,      &OptionFlags::spring,
      &OptionFlags::damper,     &OptionFlags::gravity,      &OptionFlags::clampctrl,
      &OptionFlags::warmstart,  &OptionFlags::filterparent, &OptionFlags::actuation,
      &OptionFlags::refsafe,    &OptionFlags::sensor,       &OptionFlags::midphase,
      &OptionFlags::eulerdamp,  &OptionFlags::autoreset,    &OptionFlags::nativeccd,
      &OptionFlags::island};
  static constexpr Flag kEnable[] = {&OptionFlags::override_contacts, &OptionFlags::energy,
                                     &OptionFlags::fwdinv, &OptionFlags::invdiscrete,
                                     &OptionFlags::multiccd};
  def_flag_mask(model, "disableflags", kDisable, false, "mjtDisableBit (0 to 2^19 - 1)",
                "mjtDisableBit mask: a set bit turns that part off");
  def_flag_mask(model, "enableflags", kEnable, true, "mjtEnableBit (0 to 31)",
                "mjtEnableBit mask: override, energy, fwdinv, invdiscrete, multiccd");
  mod.def(
      "ray",
      [](const ModelPtr& m, const PyData& d, const py::handle& origin, const py::handle& direction,
         const py::object& groups, bool include_static, int exclude_body) {
        const auto o = InArray::ensure(origin), v = InArray::ensure(direction);
        if (!o || o.size() != 3 || !v || v.size() != 3) {
          throw py::value_error("origin and direction must hold 3 numbers each");
        }
        check_same_model(m, d);
        bool flags[kRayGeomGroups];
        RayFilter filter;
        if (!groups.is_none()) {
          const auto g =
              py::array_t<int, py::array::c_style | py::array::forcecast>::ensure(groups);
          if (!g || g.size() != kRayGeomGroups) {
            throw py::value_error("geomgroup must hold 6 flags (one per geom group 0..5)");
          }
          for (int k = 0; k < kRayGeomGroups; ++k) flags[k] = g.data()[k] != 0;
          filter.geom_groups = flags;
        }
        filter.include_static = include_static;
        filter.exclude_body = exclude_body;
        const RayHit hit = cast_ray(*m, d.data, Vector3d(o.data()), Vector3d(v.data()), filter);
        return py::make_tuple(hit.distance, hit.geom);
      },
      py::arg("model").none(false), py::arg("data").none(false), py::arg("origin"),
      py::arg("direction"), py::arg("geomgroup") = py::none(), py::arg("include_static") = true,
      py::arg("exclude_body") = -1,
      "(distance, geom) of the nearest geom along origin + t direction, t >= 0; (-1, -1) when "
      "none (mj_ray)");
  mod.def(
      "set_const",
      [](const ModelPtr& m, const py::object& data) {
        if (!data.is_none()) check_same_model(m, data.cast<PyData&>());
        set_const(*m);
      },
      py::arg("model").none(false), py::arg("data") = py::none(),
      "Recomputes the constants that depend on the model's parameters, at qpos0 "
      "(mj_setConst); data is accepted for MuJoCo's signature and not used");
  mod.def(
      "save_xml", [](const ModelPtr& m, const std::string& path) { save_xml(*m, path); },
      py::arg("model").none(false), py::arg("path"),
      "Writes the compiled model as MJCF that loads back the same (mj_saveLastXML)");
  mod.def(
      "to_xml", [](const ModelPtr& m) { return to_xml(*m); }, py::arg("model").none(false),
      "The compiled model as MJCF text");
  mod.def(
      "inverse", [](const ModelPtr& m, PyData& d) { on_data(m, d, [&] { inverse(*m, d.data); }); },
      py::arg("model").none(false), py::arg("data").none(false),
      "Inverse dynamics: data.qfrc_inverse, the force that gives data.qacc (mj_inverse)");
  mod.def(
      "transition_fd",
      [](const ModelPtr& m, PyData& d, double eps, bool centred, bool sensors, bool linearise,
         int threads) {
        if (threads < 1) {
          throw py::value_error("transition_fd: threads is " + std::to_string(threads) +
                                "; accepted: 1 or more");
        }
        TransitionDerivatives t;
        DifferenceOptions o;
        o.eps = eps;
        o.centred = centred;
        o.sensors = sensors;
        o.linearise_solve = linearise;
        o.threads = threads;
        on_data(m, d, [&] {
          py::gil_scoped_release release;
          t = transition_derivatives(*m, d.data, o);
        });
        return py::make_tuple(matrix(t.A), matrix(t.B), matrix(t.C), matrix(t.D));
      },
      py::arg("model").none(false), py::arg("data").none(false), py::arg("eps") = 1e-6,
      py::arg("centred") = false, py::arg("sensors") = true, py::arg("linearise_solve") = false,
      py::arg("threads") = 1,
      "(A, B, C, D): derivatives of the step x' = f(x, u) and of the sensors, x = (qpos "
      "tangent, qvel, act) (mjd_transitionFD); linearise_solve and threads as "
      "pliant::DifferenceOptions (no constraint solve per column; qpos columns on threads)");
  mod.def(
      "inverse_fd",
      [](const ModelPtr& m, PyData& d, double eps, bool subtract_actuation, bool sensors) {
        InverseDerivatives r;
        DifferenceOptions o;
        o.eps = eps;
        o.sensors = sensors;
        on_data(m, d, [&] { r = inverse_derivatives(*m, d.data, subtract_actuation, o); });
        using namespace pybind11::literals;
        return py::dict("DfDq"_a = matrix(r.DfDq), "DfDv"_a = matrix(r.DfDv),
                        "DfDa"_a = matrix(r.DfDa), "DsDq"_a = matrix(r.DsDq),
                        "DsDv"_a = matrix(r.DsDv), "DsDa"_a = matrix(r.DsDa),
                        "DmDq"_a = matrix(r.DmDq));
      },
      py::arg("model").none(false), py::arg("data").none(false), py::arg("eps") = 1e-6,
      py::arg("subtract_actuation") = false, py::arg("sensors") = true,
      "Derivatives of inverse dynamics, each with a row per output (mjd_inverseFD's are the "
      "transposes)");
  mod.def(
      "copy_data",
      [](const ModelPtr& m, PyData& dst, PyData& src) {
        check_same_model(m, src);
        src.push();
        on_data(m, dst, [&] { copy_data(*m, dst.data, src.data); });
      },
      py::arg("model").none(false), py::arg("dst").none(false), py::arg("src").none(false),
      "dst <- src (mj_copyData)");
  mod.def(
      "_contacts",
      [](const PyData& d) {
        const long n = static_cast<long>(d.data.contacts.size());
        py::array_t<double> dist(n), pos({n, 3L}), frame({n, 9L}), friction({n, 5L}),
            solref({n, 2L}), solreffriction({n, 2L}), solimp({n, 5L}), includemargin(n), mu(n);
        py::array_t<int> geom({n, 2L}), dim(n), efc_address(n);
        for (long i = 0; i < n; ++i) {
          const Contact& c = d.data.contacts[i];
          dist.mutable_at(i) = c.dist;
          includemargin.mutable_at(i) = c.includemargin;
          mu.mutable_at(i) = c.mu;
          for (int k = 0; k < 3; ++k) pos.mutable_at(i, k) = c.pos[k];
          for (int k = 0; k < 9; ++k) frame.mutable_at(i, k) = c.frame(k / 3, k % 3);
          for (int k = 0; k < 5; ++k) friction.mutable_at(i, k) = c.friction[k];
          solref.mutable_at(i, 0) = c.solref.timeconst;
          solref.mutable_at(i, 1) = c.solref.dampratio;
          solreffriction.mutable_at(i, 0) = c.solreffriction.timeconst;
          solreffriction.mutable_at(i, 1) = c.solreffriction.dampratio;
          const double imp[5] = {c.solimp.dmin, c.solimp.dmax, c.solimp.width, c.solimp.midpoint,
                                 c.solimp.power};
          for (int k = 0; k < 5; ++k) solimp.mutable_at(i, k) = imp[k];
          geom.mutable_at(i, 0) = c.geom1;
          geom.mutable_at(i, 1) = c.geom2;
          dim.mutable_at(i) = c.dim;
          efc_address.mutable_at(i) = c.efc_address;
        }
        using namespace pybind11::literals;
        return py::dict("dist"_a = dist, "pos"_a = pos, "frame"_a = frame, "friction"_a = friction,
                        "solref"_a = solref, "solreffriction"_a = solreffriction,
                        "solimp"_a = solimp, "includemargin"_a = includemargin, "mu"_a = mu,
                        "geom"_a = geom, "dim"_a = dim, "efc_address"_a = efc_address);
      },
      py::arg("data").none(false));
  mod.def(
      "_solver_statistics",
      [](const PyData& d) {
        const SolverStatistics& s = d.data.solver;
        const long n = static_cast<long>(s.per_iteration.size());
        py::array_t<double> improvement(n), gradient(n);
        py::array_t<int> active(n), changes(n), evaluations(n);
        for (long i = 0; i < n; ++i) {
          const IterationStatistics& it = s.per_iteration[i];
          improvement.mutable_at(i) = it.improvement;
          gradient.mutable_at(i) = it.gradient;
          active.mutable_at(i) = it.active;
          changes.mutable_at(i) = it.state_changes;
          evaluations.mutable_at(i) = it.line_search_evaluations;
        }
        using namespace pybind11::literals;
        return py::dict("iterations"_a = s.iterations, "converged"_a = s.converged,
                        "improvement"_a = improvement, "gradient"_a = gradient,
                        "nactive"_a = active, "nchange"_a = changes, "neval"_a = evaluations);
      },
      py::arg("data").none(false));
  // What data.solver_niter and data.solver_fwdinv read each step, without
  // the per-iteration arrays.
  mod.def(
      "_solver_iterations", [](const PyData& d) { return d.data.solver.iterations; },
      py::arg("data").none(false));
  mod.def(
      "_solver_fwdinv",
      [](const PyData& d) {
        py::array_t<double> fwdinv(2);
        for (int k = 0; k < 2; ++k) fwdinv.mutable_at(k) = d.data.solver_fwdinv[k];
        return fwdinv;
      },
      py::arg("data").none(false));
  mod.def(
      "contact_force",
      [](const ModelPtr& m, const PyData& d, int i) {
        check_same_model(m, d);
        if (i < 0 || i >= static_cast<int>(d.data.contacts.size())) {
          throw py::index_error("contact " + std::to_string(i) + " does not exist; the step has " +
                                std::to_string(d.data.contacts.size()));
        }
        py::array_t<double> out(6);
        contact_force(*m, d.data, i, out.mutable_data());
        return out;
      },
      py::arg("model").none(false), py::arg("data").none(false), py::arg("id"),
      "Contact id's force in its contact frame (normal, tangent 1, tangent 2, torsion, "
      "rolling 1, rolling 2), N and N m (mj_contactForce)");
}

}  // namespace pliant::python
