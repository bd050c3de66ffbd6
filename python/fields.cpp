#include "python/fields.h"

#include <pybind11/numpy.h>

#include <string>
#include <vector>

#include "pliant/data_fields.h"
#include "pliant/model_fields.h"

namespace pliant::python {
namespace {

// A read-only numpy array of `values` in the given shape: int32 for integer
// fields (MuJoCo's int arrays), float64 otherwise.
py::array copy_of(const std::vector<double>& values, const FieldShape& shape, bool integer) {
  std::vector<py::ssize_t> dims{shape.rows};
  if (shape.columns != 1) dims.push_back(shape.columns);
  py::array out;
  if (integer) {
    py::array_t<int> a(dims);
    int* p = a.mutable_data();
    for (size_t i = 0; i < values.size(); ++i) p[i] = static_cast<int>(values[i]);
    out = a;
  } else {
    py::array_t<double> a(dims);
    std::copy(values.begin(), values.end(), a.mutable_data());
    out = a;
  }
  out.attr("flags").attr("writeable") = false;
  return out;
}

py::list info_list(std::span<const FieldInfo> infos) {
  using namespace pybind11::literals;
  py::list out;
  for (const FieldInfo& f : infos) {
    out.append(py::dict("name"_a = f.name, "rows"_a = f.rows, "columns"_a = f.columns,
                        "unit"_a = f.unit, "doc"_a = f.doc, "integer"_a = f.integer,
                        "mujoco"_a = f.mujoco));
  }
  return out;
}

py::list size_list(std::span<const SizeInfo> sizes) {
  py::list out;
  for (const SizeInfo& s : sizes) out.append(py::make_tuple(s.name, s.doc));
  return out;
}

std::string doc_of(const FieldInfo& f) {
  std::string doc = std::string(f.doc) + " [" + f.rows + " x " + f.columns + "]";
  if (*f.unit) doc += " (" + std::string(f.unit) + ")";
  return doc;
}

}  // namespace

void def_model_fields(py::class_<Model, std::shared_ptr<Model>>& cls) {
  const auto sizes = model_size_infos();
  for (size_t i = 0; i < sizes.size(); ++i) {
    const int index = static_cast<int>(i);
    cls.def_property_readonly(
        sizes[i].name, [index](const Model& m) { return model_size(ModelSizes(m), index); },
        sizes[i].doc);
  }
  const auto options = model_option_infos();
  for (size_t i = 0; i < options.size(); ++i) {
    const int index = static_cast<int>(i);
    const FieldInfo info = options[i];
    cls.def_property_readonly(
        info.name,
        [index, info](const Model& m) -> py::object {
          const std::vector<double> v = read_model_option(m, index);
          if (v.size() == 1) {
            return info.integer ? py::object(py::int_(static_cast<long>(v[0])))
                                : py::object(py::float_(v[0]));
          }
          return copy_of(v, {1, static_cast<int>(v.size())}, false).attr("reshape")(v.size());
        },
        doc_of(info).c_str());
  }
  const auto fields = model_field_infos();
  for (size_t i = 0; i < fields.size(); ++i) {
    const int index = static_cast<int>(i);
    const FieldInfo info = fields[i];
    cls.def_property_readonly(
        info.name,
        [index, info](const Model& m) {
          return copy_of(read_model_field(m, index), model_field_shape(ModelSizes(m), index),
                         info.integer);
        },
        doc_of(info).c_str());
  }
}

void def_data_fields(py::class_<PyData>& cls) {
  for (const SizeInfo& s : data_size_infos()) {
    const std::string name = s.name;
    cls.def_property_readonly(
        s.name,
        [name](const PyData& d) {
          const DataSizes sizes(d.data);
#define PLIANT_PY_DATA_SIZE(size, expression, doc) \
  if (name == #size) return sizes.size;
          PLIANT_DATA_SIZES(PLIANT_PY_DATA_SIZE)
#undef PLIANT_PY_DATA_SIZE
          return 0;
        },
        s.doc);
  }
  const auto fields = data_field_infos();
  for (size_t i = 0; i < fields.size(); ++i) {
    const FieldInfo info = fields[i];
    if (py::hasattr(cls, info.name)) continue;  // defined with its own conventions
    const int index = static_cast<int>(i);
    cls.def_property_readonly(
        info.name,
        [index, info](py::object self) -> py::array {
          PyData& d = self.cast<PyData&>();
          const FieldShape shape = data_field_shape(d.data, index);
          double* values = data_field_values(d.data, index);
          if (values != nullptr && !data_field_varies(index)) {
            return view(self, values, shape.rows, shape.columns == 1 ? 0 : shape.columns);
          }
          return copy_of(read_data_field(d.data, index), shape, info.integer);
        },
        doc_of(info).c_str());
  }
}

void def_field_tables(py::module_& mod) {
  mod.def(
      "model_fields", [] { return info_list(model_field_infos()); },
      "The arrays of Model: name, rows, columns, unit, doc, integer, mujoco");
  mod.def(
      "model_options", [] { return info_list(model_option_infos()); },
      "The options and statistics of Model, as model_fields()");
  mod.def(
      "data_fields", [] { return info_list(data_field_infos()); },
      "The arrays of Data, as model_fields()");
  mod.def(
      "model_sizes", [] { return size_list(model_size_infos()); },
      "The sizes of Model: (name, doc)");
  mod.def(
      "data_sizes", [] { return size_list(data_size_infos()); },
      "The sizes of Data's last step: (name, doc)");
}

}  // namespace pliant::python
