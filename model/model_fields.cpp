#include "pliant/model_fields.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "model/field_traits.h"

namespace pliant {
namespace {

using fields::ColumnOf;
using fields::Single;

// The table's size names as local variables, so that its row and column
// expressions ("nbody", "3 * nmocap") evaluate as written.
#define PLIANT_SIZE_LOCAL(name, expression, doc) [[maybe_unused]] const int name = sizes.name;

template <class T>
using SingleOf = Single<std::remove_cvref_t<T>>;

struct ArrayOps {
  FieldInfo info;
  FieldShape (*shape)(const ModelSizes& sizes);
  long (*count)(const Model& m);
  void (*read)(const Model& m, double* out);
  void (*write)(Model& m, const double* in);
};

#define PLIANT_ARRAY_OPS(name, member, rows, columns, unit, doc, mujoco)                           \
  ArrayOps{{#name, #rows, #columns, unit, doc,                                                     \
            ColumnOf<decltype(std::declval<Model&>().member)>::kInteger, mujoco},                  \
           [](const ModelSizes& sizes) {                                                           \
             PLIANT_MODEL_SIZES(PLIANT_SIZE_LOCAL, PLIANT_SIZE_LOCAL)                              \
             return FieldShape{rows, columns};                                                     \
           },                                                                                      \
           [](const Model& m) { return ColumnOf<decltype(m.member)>::count(m.member); },           \
           [](const Model& m, double* out) { ColumnOf<decltype(m.member)>::read(m.member, out); }, \
           [](Model& m, const double* in) { ColumnOf<decltype(m.member)>::write(m.member, in); }},
#define PLIANT_MUJOCO_ARRAY(name, member, rows, columns, unit, doc) \
  PLIANT_ARRAY_OPS(name, member, rows, columns, unit, doc, true)
#define PLIANT_OWN_ARRAY(name, member, rows, columns, unit, doc) \
  PLIANT_ARRAY_OPS(name, member, rows, columns, unit, doc, false)

const ArrayOps kArrays[] = {PLIANT_MODEL_FIELDS(PLIANT_MUJOCO_ARRAY, PLIANT_OWN_ARRAY)};

#define PLIANT_OPTION_OPS(name, member, rows, columns, unit, doc, mujoco)                          \
  ArrayOps{{#name, #rows, #columns, unit, doc,                                                     \
            SingleOf<decltype(std::declval<Model&>().member)>::kInteger, mujoco},                  \
           [](const ModelSizes&) {                                                                 \
             return FieldShape{rows, columns};                                                     \
           },                                                                                      \
           [](const Model& m) { return SingleOf<decltype(m.member)>::count(m.member); },           \
           [](const Model& m, double* out) { SingleOf<decltype(m.member)>::read(m.member, out); }, \
           [](Model& m, const double* in) { SingleOf<decltype(m.member)>::write(m.member, in); }},
#define PLIANT_MUJOCO_OPTION(name, member, rows, columns, unit, doc) \
  PLIANT_OPTION_OPS(name, member, rows, columns, unit, doc, true)
#define PLIANT_OWN_OPTION(name, member, rows, columns, unit, doc) \
  PLIANT_OPTION_OPS(name, member, rows, columns, unit, doc, false)

const ArrayOps kOptions[] = {PLIANT_MODEL_OPTIONS(PLIANT_MUJOCO_OPTION, PLIANT_OWN_OPTION)};

template <size_t N>
std::vector<FieldInfo> infos(const ArrayOps (&ops)[N]) {
  std::vector<FieldInfo> out;
  for (const ArrayOps& op : ops) out.push_back(op.info);
  return out;
}

const ArrayOps& checked(const ArrayOps* ops, size_t n, int index, const char* what) {
  if (index < 0 || static_cast<size_t>(index) >= n) {
    throw std::out_of_range(std::string("pliant: no model ") + what + " of index " +
                            std::to_string(index));
  }
  return ops[index];
}

int find(const ArrayOps* ops, size_t n, const std::string& name) {
  for (size_t i = 0; i < n; ++i) {
    if (name == ops[i].info.name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<double> read(const ArrayOps& op, const Model& m) {
  std::vector<double> out(op.count(m));
  op.read(m, out.data());
  return out;
}

void write(const ArrayOps& op, const FieldShape& shape, Model& m, const double* values,
           long count) {
  const long have = op.count(m);
  if (count != shape.count() || count != have) {
    throw std::invalid_argument(std::string("pliant: ") + op.info.name + " takes " +
                                std::to_string(shape.rows) + " x " + std::to_string(shape.columns) +
                                " values (" + op.info.rows + " x " + op.info.columns + "), got " +
                                std::to_string(count));
  }
  op.write(m, values);
}

}  // namespace

ModelSizes::ModelSizes(const Model& m) {
#define PLIANT_SET_SIZE(name, expression, doc) name = expression;
  PLIANT_MODEL_SIZES(PLIANT_SET_SIZE, PLIANT_SET_SIZE)
#undef PLIANT_SET_SIZE
}

std::string ModelSizes::difference(const ModelSizes& other) const {
#define PLIANT_SIZE_DIFFERENCE(name, expression, doc)                      \
  if (name != other.name) {                                                \
    return std::string(#name) + " " + std::to_string(name) + " against " + \
           std::to_string(other.name) + " (" + doc + ")";                  \
  }
  PLIANT_MODEL_SIZES(PLIANT_SIZE_DIFFERENCE, PLIANT_SIZE_DIFFERENCE)
#undef PLIANT_SIZE_DIFFERENCE
  return "";
}

std::span<const SizeInfo> model_size_infos() {
#define PLIANT_SIZE_INFO(name, expression, doc) SizeInfo{#name, doc, true},
#define PLIANT_OWN_SIZE_INFO(name, expression, doc) SizeInfo{#name, doc, false},
  static const SizeInfo sizes[] = {PLIANT_MODEL_SIZES(PLIANT_SIZE_INFO, PLIANT_OWN_SIZE_INFO)};
#undef PLIANT_SIZE_INFO
#undef PLIANT_OWN_SIZE_INFO
  return sizes;
}

int model_size(const ModelSizes& sizes, int index) {
#define PLIANT_SIZE_VALUE(name, expression, doc) sizes.name,
  const int values[] = {PLIANT_MODEL_SIZES(PLIANT_SIZE_VALUE, PLIANT_SIZE_VALUE)};
#undef PLIANT_SIZE_VALUE
  if (index < 0 || index >= static_cast<int>(std::size(values))) {
    throw std::out_of_range("pliant: no model size of index " + std::to_string(index));
  }
  return values[index];
}

std::span<const FieldInfo> model_field_infos() {
  static const std::vector<FieldInfo> out = infos(kArrays);
  return out;
}

std::span<const FieldInfo> model_option_infos() {
  static const std::vector<FieldInfo> out = infos(kOptions);
  return out;
}

int find_model_field(const std::string& name) { return find(kArrays, std::size(kArrays), name); }
int find_model_option(const std::string& name) { return find(kOptions, std::size(kOptions), name); }

FieldShape model_field_shape(const ModelSizes& sizes, int index) {
  return checked(kArrays, std::size(kArrays), index, "field").shape(sizes);
}

FieldShape model_option_shape(int index) {
  return checked(kOptions, std::size(kOptions), index, "option").shape(ModelSizes());
}

std::vector<double> read_model_field(const Model& m, int index) {
  return read(checked(kArrays, std::size(kArrays), index, "field"), m);
}

std::vector<double> read_model_option(const Model& m, int index) {
  return read(checked(kOptions, std::size(kOptions), index, "option"), m);
}

void write_model_field(Model& m, int index, const double* values, long count) {
  const ArrayOps& op = checked(kArrays, std::size(kArrays), index, "field");
  write(op, op.shape(ModelSizes(m)), m, values, count);
}

void write_model_option(Model& m, int index, const double* values, long count) {
  const ArrayOps& op = checked(kOptions, std::size(kOptions), index, "option");
  write(op, op.shape(ModelSizes()), m, values, count);
}

std::string check_model_field_sizes(const Model& m) {
  const ModelSizes sizes(m);
  for (const ArrayOps& op : kArrays) {
    const FieldShape shape = op.shape(sizes);
    const long have = op.count(m);
    if (have != shape.count()) {
      return std::string(op.info.name) + " holds " + std::to_string(have) +
             " values, the table says " + op.info.rows + " x " + op.info.columns + " = " +
             std::to_string(shape.rows) + " x " + std::to_string(shape.columns);
    }
  }
  return "";
}

}  // namespace pliant
