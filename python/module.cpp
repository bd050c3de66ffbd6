// pliant._pliant: the compiled half of the Python module `pliant`
// (python/pliant/__init__.py re-exports it). MuJoCo-like conventions:
// Model.from_xml_path, Data(model) with numpy views of the engine's arrays,
// step/forward/reset, and rollout for batches.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <memory>
#include <stdexcept>
#include <string>

#include "pliant/energy.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/load_error.h"
#include "pliant/model_fields.h"
#include "pliant/state.h"
#include "pliant/step.h"
#include "python/arrays.h"
#include "python/batch_rollout.h"
#include "python/dynamics_tools.h"
#include "python/fields.h"
#include "python/render.h"
#include "python/state_rollout.h"
#include "python/toolbox.h"

namespace pliant::python {
namespace {

using ModelPtr = std::shared_ptr<Model>;
using InArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// An integer key (Python int or numpy integer); TypeError for anything else.
int as_index(const py::object& key, const char* kind) {
  PyObject* index = PyNumber_Index(key.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    throw py::type_error(std::string("a ") + kind + " is named by a string or an integer id");
  }
  const long value = PyLong_AsLong(index);
  Py_DECREF(index);
  if (value == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::index_error(std::string(kind) + " id out of range");
  }
  if (value < INT_MIN || value > INT_MAX)
    throw py::index_error(std::string(kind) + " id out of range");
  return static_cast<int>(value);
}

// A named object of a model, as model.body("torso") returns it.
struct ObjectRef {
  std::string kind;
  int id;
  std::string name;
};

ObjectRef lookup(const Model& m, ObjectType type, const char* kind, int count,
                 const py::object& key) {
  if (!py::isinstance<py::str>(key)) {
    const int id = as_index(key, kind);
    if (id < 0 || id >= count) {
      throw py::index_error(std::string(kind) + " " + std::to_string(id) + " does not exist; the " +
                            "model has " + std::to_string(count));
    }
    return {kind, id, m.name(type, id)};
  }
  const std::string name = key.cast<std::string>();
  const int id = m.id(type, name);
  if (id < 0)
    throw py::key_error(std::string("the model has no ") + kind + " named '" + name + "'");
  return {kind, id, name};
}

// Marks a Data as in use for the length of a step, forward or reset: a
// second thread reaching the same Data meanwhile (step releases the GIL)
// gets an error instead of sharing its memory. Set and cleared with the GIL.
class InUse {
 public:
  explicit InUse(PyData& d) : d_(d) {
    if (d_.busy) {
      throw std::runtime_error(
          "this pliant.Data is being stepped by another thread; give "
          "each thread its own Data");
    }
    d_.busy = true;
  }
  ~InUse() { d_.busy = false; }
  InUse(const InUse&) = delete;
  InUse& operator=(const InUse&) = delete;

 private:
  PyData& d_;
};

// Reads a [rows, columns] or [rows, steps, columns] array and checks it.
InArray checked(const char* what, const py::handle& object, std::vector<long> shape) {
  InArray a = InArray::ensure(object);
  if (!a) throw py::type_error(std::string(what) + " must be an array of numbers");
  bool ok = a.ndim() == static_cast<long>(shape.size());
  for (size_t d = 0; ok && d < shape.size(); ++d) ok = shape[d] < 0 || a.shape(d) == shape[d];
  if (!ok) {
    std::string want = "(", got = "(";
    const char* names[] = {"B", "T"};
    for (size_t d = 0; d < shape.size(); ++d) {
      want += (d ? ", " : "") + (shape[d] < 0 ? std::string(names[d]) : std::to_string(shape[d]));
    }
    for (long d = 0; d < a.ndim(); ++d) got += (d ? ", " : "") + std::to_string(a.shape(d));
    throw py::value_error(std::string(what) + " needs shape " + want + "), got " + got + ")");
  }
  return a;
}

py::tuple rollout(const ModelPtr& model, const py::handle& qpos0_in, const py::handle& qvel0_in,
                  const py::handle& ctrl_in, int threads) {
  const Model& m = *model;
  if (threads < 1) throw py::value_error("threads must be at least 1");
  const InArray qpos0 = checked("qpos0", qpos0_in, {-1, m.nq});
  const long batch = qpos0.shape(0);
  const InArray qvel0 = checked("qvel0", qvel0_in, {batch, m.nv});
  const InArray ctrl = checked("ctrl", ctrl_in, {batch, -1, m.nu});
  const long steps = ctrl.shape(1);
  py::array_t<double> qpos({batch, steps, static_cast<long>(m.nq)});
  py::array_t<double> qvel({batch, steps, static_cast<long>(m.nv)});
  double* qpos_out = qpos.mutable_data();
  double* qvel_out = qvel.mutable_data();
  const double *q0 = qpos0.data(), *v0 = qvel0.data(), *u = ctrl.data();
  {
    py::gil_scoped_release release;
    batch_rollout(m, batch, steps, q0, v0, u, qpos_out, qvel_out, threads);
  }
  return py::make_tuple(qpos, qvel);
}

// pliant.rollout from full states (python/pliant/_rollout.py checks the
// arguments and makes the outputs): models, one per row.
py::tuple state_rollout_binding(const py::list& model_list, const py::handle& initial_in,
                                const py::object& control_in, unsigned control_spec,
                                const py::object& warmstart_in, long steps, RolloutPool& pool,
                                bool with_sensordata) {
  StateRollout job;
  std::vector<ModelPtr> keep;
  for (const py::handle& item : model_list) keep.push_back(item.cast<ModelPtr>());
  if (keep.empty()) throw py::value_error("no model");
  const Model& m = *keep[0];
  for (const ModelPtr& other : keep) {
    const std::string difference = ModelSizes(*other).difference(ModelSizes(m));
    if (!difference.empty())
      throw py::value_error("the models of one rollout must have the same sizes: " + difference);
    job.models.push_back(other.get());
  }
  const long nstate = state_size(m, kStateFullPhysics);
  const long ncontrol = state_size(m, control_spec);
  const InArray initial = checked("initial_state", initial_in, {-1, nstate});
  job.batch = initial.shape(0);
  if (keep.size() != 1 && static_cast<long>(keep.size()) != job.batch)
    throw py::value_error("give one model, or one per initial state (" + std::to_string(job.batch) +
                          "), not " + std::to_string(keep.size()));
  if (keep.size() == 1) job.models.assign(job.batch, keep[0].get());
  job.steps = steps;
  InArray control, warmstart;
  if (!control_in.is_none()) {
    control = checked("control", control_in, {job.batch, steps, ncontrol});
    job.control = control.data();
    job.control_spec = control_spec;
  }
  if (!warmstart_in.is_none()) {
    warmstart = checked("initial_warmstart", warmstart_in, {job.batch, m.nv});
    job.warmstart = warmstart.data();
  }
  job.initial_state = initial.data();
  py::array_t<double> state({job.batch, steps, nstate});
  py::array_t<double> sensordata(
      {with_sensordata ? job.batch : 0L, steps, static_cast<long>(m.sensors.data_size)});
  job.state_out = state.mutable_data();
  job.sensordata_out = with_sensordata ? sensordata.mutable_data() : nullptr;
  {
    py::gil_scoped_release release;
    state_rollout(job, pool);
  }
  return py::make_tuple(state, with_sensordata ? py::object(sensordata) : py::object(py::none()));
}

// Where one of Data's arrays lives: its first value, rows and columns (0: a
// vector of `rows` values).
struct Block {
  double* values;
  long rows, columns;
};

enum class Access {
  kAssignable,  // a view, and `data.NAME = array` copies a whole array in
  kView,        // a view; the property itself cannot be assigned
  kReadOnly,    // a view numpy refuses to write through
};

// Defines property `name` of pliant.Data over the block `locate` finds.
template <typename Locate>
void def_array(py::class_<PyData>& cls, const char* name, Locate locate, Access access) {
  const auto get = [locate, access](py::object self) {
    const Block b = locate(self.cast<PyData&>());
    py::array_t<double> a = view(self, b.values, b.rows, b.columns);
    if (access == Access::kReadOnly) a.attr("flags").attr("writeable") = false;
    return a;
  };
  if (access != Access::kAssignable) {
    cls.def_property_readonly(name, get);
    return;
  }
  cls.def_property(name, get, [locate, name](PyData& d, const py::handle& value) {
    const Block b = locate(d);
    std::vector<long> shape{b.rows};
    if (b.columns) shape.push_back(b.columns);
    assign(checked(name, value, shape), b.values, b.rows * (b.columns ? b.columns : 1));
  });
}

}  // namespace

PYBIND11_MODULE(_pliant, mod) {
  mod.doc() = "Pliant: rigid-body physics with MuJoCo-style soft constraints";
  py::register_exception<LoadError>(mod, "LoadError", PyExc_ValueError);

  py::class_<ObjectRef>(mod, "ObjectRef", "A named object of a model: its kind, id and name")
      .def_readonly("kind", &ObjectRef::kind)
      .def_readonly("id", &ObjectRef::id)
      .def_readonly("name", &ObjectRef::name)
      .def("__repr__", [](const ObjectRef& o) {
        return "<" + o.kind + " " + std::to_string(o.id) + " '" + o.name + "'>";
      });

  py::class_<Model, ModelPtr> model(mod, "Model", "A compiled model; its parameters are writable");
  model
      .def_static(
          "from_xml_path",
          [](const std::string& path) { return ModelPtr(new Model(load_model(path))); },
          py::arg("path"), "Loads an MJCF file; raises pliant.LoadError with its file and line")
      .def_static(
          "from_xml_string",
          [](const std::string& xml, const std::string& directory) {
            return ModelPtr(new Model(load_model_from_string(xml, directory)));
          },
          py::arg("xml"), py::arg("directory") = ".",
          "Loads MJCF text; files it names are found from `directory`")
      .def_property_readonly("timestep", [](const Model& m) { return m.options.timestep; })
      .def_property_readonly("name", [](const Model& m) { return m.model_name; });
  def_model_fields(model);
  struct Kind {
    const char* method;
    ObjectType type;
    int (*count)(const Model&);
  };
  static const Kind kinds[] = {
      {"body", ObjectType::kBody, [](const Model& m) { return m.body_count(); }},
      {"joint", ObjectType::kJoint, [](const Model& m) { return m.joints.count(); }},
      {"geom", ObjectType::kGeom, [](const Model& m) { return m.geoms.count(); }},
      {"site", ObjectType::kSite, [](const Model& m) { return m.sites.count(); }},
      {"camera", ObjectType::kCamera, [](const Model& m) { return m.cameras.count(); }},
      {"tendon", ObjectType::kTendon, [](const Model& m) { return m.tendons.count(); }},
      {"actuator", ObjectType::kActuator, [](const Model& m) { return m.actuators.count(); }},
      {"sensor", ObjectType::kSensor, [](const Model& m) { return m.sensors.count(); }},
      {"key", ObjectType::kKey, [](const Model& m) { return m.keyframes.count(); }},
  };
  for (const Kind& k : kinds) {
    model.def(
        k.method,
        [k](const Model& m, const py::object& key) {
          return lookup(m, k.type, k.method, k.count(m), key);
        },
        py::arg("name_or_id"));
  }

  py::class_<PyData> data(mod, "Data", "The state and every stage's results of one simulation");
  data.def(py::init([](const ModelPtr& m) { return new PyData(m); }), py::arg("model").none(false))
      .def_property(
          "time", [](const PyData& d) { return d.data.time; },
          [](PyData& d, double t) { d.data.time = t; })
      .def_property_readonly("model", [](const PyData& d) { return d.model; })
      .def_property(
          "threads", [](const PyData& d) { return d.data.threads; },
          [](PyData& d, int threads) {
            if (threads < 1) throw py::value_error("threads must be at least 1");
            d.data.threads = threads;
          },
          "threads one step may use (narrow phase, constraint islands); results are "
          "bit-identical for any count")
      .def_property_readonly(
          "energy",
          [](const PyData& d) {
            py::array_t<double> e(2);
            e.mutable_at(0) = d.data.energy_potential;
            e.mutable_at(1) = d.data.energy_kinetic;
            return e;
          },
          "(potential, kinetic) energy in J: after a step with the energy flag on, or after "
          "pliant.energy (a copy)");
  const auto vector = [](VectorXd Data::*field) {
    return [field](PyData& d) { return Block{(d.data.*field).data(), (d.data.*field).size(), 0}; };
  };
  // Inputs: views of the engine's memory (the mirrors for mocap_quat and
  // xfrc_applied); writes take effect at the next step.
  def_array(data, "qpos", vector(&Data::qpos), Access::kAssignable);
  def_array(data, "qvel", vector(&Data::qvel), Access::kAssignable);
  def_array(data, "act", vector(&Data::act), Access::kAssignable);
  def_array(data, "ctrl", vector(&Data::ctrl), Access::kAssignable);
  def_array(data, "qfrc_applied", vector(&Data::qfrc_applied), Access::kAssignable);
  def_array(
      data, "mocap_pos",
      [](PyData& d) {
        const long n = static_cast<long>(d.data.mocap_pos.size());
        return Block{n ? d.data.mocap_pos[0].data() : nullptr, n, 3};
      },
      Access::kAssignable);
  def_array(
      data, "mocap_quat",
      [](PyData& d) {
        return Block{d.mocap_quat.data(), d.mocap_quat.rows(), 4};
      },
      Access::kAssignable);
  def_array(
      data, "xfrc_applied",
      [](PyData& d) {
        return Block{d.xfrc_applied.data(), d.xfrc_applied.rows(), 6};
      },
      Access::kAssignable);
  // Results: views of what the last step computed.
  def_array(data, "qacc", vector(&Data::qacc), Access::kView);
  def_array(data, "sensordata", vector(&Data::sensordata), Access::kView);
  def_array(
      data, "xpos",
      [](PyData& d) {
        return Block{d.data.xpos[0].data(), static_cast<long>(d.data.xpos.size()), 3};
      },
      Access::kView);
  // A mirror (w, x, y, z) refreshed after each step: read-only, so a write
  // is an error rather than lost.
  def_array(
      data, "xquat",
      [](PyData& d) {
        return Block{d.xquat.data(), d.xquat.rows(), 4};
      },
      Access::kReadOnly);

  def_data_fields(data);
  def_field_tables(mod);
  def_toolbox(mod);
  def_dynamics_tools(mod, model);
  def_render(mod);

  mod.def(
      "step",
      [](const ModelPtr& m, PyData& d, int nstep) {
        check_same_model(m, d);
        if (nstep < 0) throw py::value_error("nstep must not be negative");
        const InUse in_use(d);
        d.push();
        {
          py::gil_scoped_release release;
          for (int i = 0; i < nstep; ++i) step(*m, d.data);
        }
        d.pull();
      },
      py::arg("model").none(false), py::arg("data").none(false), py::arg("nstep") = 1,
      "Steps the simulation nstep times");
  mod.def(
      "forward",
      [](const ModelPtr& m, PyData& d) {
        check_same_model(m, d);
        const InUse in_use(d);
        d.push();
        {
          py::gil_scoped_release release;
          forward(*m, d.data);
        }
        d.pull();
      },
      py::arg("model").none(false), py::arg("data").none(false),
      "Computes every stage for the current state");
  mod.def(
      "reset",
      [](const ModelPtr& m, PyData& d, const py::object& key) {
        check_same_model(m, d);
        const InUse in_use(d);
        if (key.is_none()) {
          reset_data(*m, d.data);
        } else {
          const int k = py::isinstance<py::str>(key)
                            ? lookup(*m, ObjectType::kKey, "key", m->keyframes.count(), key).id
                            : as_index(key, "key");
          reset_to_keyframe(*m, d.data, k);
        }
        d.pull();
      },
      py::arg("model").none(false), py::arg("data").none(false), py::arg("key") = py::none(),
      "Resets to qpos0 (or to keyframe `key`, an index or a name)");
  py::class_<RolloutPool>(mod, "_RolloutPool", "Threads kept for rollouts across calls")
      .def(py::init([](int threads) {
             if (threads < 1) throw py::value_error("threads must be at least 1");
             return std::make_unique<RolloutPool>(threads);
           }),
           py::arg("threads"))
      .def_property_readonly("threads", &RolloutPool::size);
  mod.def("_state_rollout", &state_rollout_binding);
  mod.def(
      "energy",
      [](const ModelPtr& m, PyData& d) {
        check_same_model(m, d);
        d.push();
        compute_energy(*m, d.data);
      },
      py::arg("model").none(false), py::arg("data"),
      "Potential and kinetic energy into data.energy (mj_energyPos and mj_energyVel); needs "
      "the position and velocity stages (pliant.forward)");
  mod.def("_rollout", &rollout, py::arg("model").none(false), py::arg("qpos0"), py::arg("qvel0"),
          py::arg("ctrl"), py::arg("threads") = 1,
          "Steps B trajectories of T steps: qpos0 [B, nq], qvel0 [B, nv], ctrl [B, T, nu]; "
          "returns (qpos [B, T, nq], qvel [B, T, nv]), the state after each step");
}

}  // namespace pliant::python
