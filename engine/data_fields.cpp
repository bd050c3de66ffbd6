#include "pliant/data_fields.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/workspace.h"
#include "model/field_traits.h"

namespace pliant {

// MuJoCo's cinert layout: rotational inertia (xx, yy, zz, xy, xz, yz), first
// moment, mass.
template <>
struct fields::Element<SpatialInertia> {
  static constexpr int kWidth = 10;
  static constexpr bool kInteger = false;
  static constexpr bool kAsStored = false;
  static SpatialInertia initial() { return SpatialInertia(); }
  static void read(const SpatialInertia& v, double* out) {
    std::copy(v.rotational.begin(), v.rotational.end(), out);
    for (int i = 0; i < 3; ++i) out[6 + i] = v.first_moment[i];
    out[9] = v.mass;
  }
  static void write(SpatialInertia& v, const double* in) {
    std::copy(in, in + 6, v.rotational.begin());
    for (int i = 0; i < 3; ++i) v.first_moment[i] = in[6 + i];
    v.mass = in[9];
  }
};

namespace {

using fields::ColumnOf;

// The sizes as local variables, so that the table's expressions evaluate as written.
#define PLIANT_MODEL_SIZE_LOCAL(name, expression, doc) [[maybe_unused]] const int name = sizes.name;
#define PLIANT_DATA_SIZE_LOCAL(name, expression, doc) \
  [[maybe_unused]] const int name = step_sizes.name;

struct FieldOps {
  FieldInfo info;
  bool varies;
  FieldShape (*shape)(const ModelSizes& sizes, const DataSizes& step_sizes);
  long (*count)(const Data& d);
  void (*read)(const Data& d, double* out);
  void (*write)(Data& d, const double* in);
  double* (*values)(Data& d);
  void (*allocate)(Data& d, const ModelSizes& sizes);
};

// A field varies when its row count is a size of the step.
constexpr bool is_step_size(std::string_view rows) {
#define PLIANT_DATA_SIZE_NAME(name, expression, doc) rows == #name ||
  return PLIANT_DATA_SIZES(PLIANT_DATA_SIZE_NAME) false;
#undef PLIANT_DATA_SIZE_NAME
}

#define PLIANT_FIELD_OPS(name, member, rows, columns, unit, doc, mujoco)                          \
  FieldOps{{#name, #rows, #columns, unit, doc,                                                    \
            ColumnOf<decltype(std::declval<Data&>().member)>::kInteger, mujoco},                  \
           is_step_size(#rows),                                                                   \
           [](const ModelSizes& sizes, const DataSizes& step_sizes) {                             \
             PLIANT_MODEL_SIZES(PLIANT_MODEL_SIZE_LOCAL, PLIANT_MODEL_SIZE_LOCAL)                 \
             PLIANT_DATA_SIZES(PLIANT_DATA_SIZE_LOCAL)                                            \
             return FieldShape{rows, columns};                                                    \
           },                                                                                     \
           [](const Data& d) { return ColumnOf<decltype(d.member)>::count(d.member); },           \
           [](const Data& d, double* out) { ColumnOf<decltype(d.member)>::read(d.member, out); }, \
           [](Data& d, const double* in) { ColumnOf<decltype(d.member)>::write(d.member, in); },  \
           [](Data& d) { return ColumnOf<decltype(d.member)>::values(d.member); },                \
           [](Data& d, const ModelSizes& sizes) {                                                 \
             const DataSizes step_sizes;                                                          \
             PLIANT_MODEL_SIZES(PLIANT_MODEL_SIZE_LOCAL, PLIANT_MODEL_SIZE_LOCAL)                 \
             PLIANT_DATA_SIZES(PLIANT_DATA_SIZE_LOCAL)                                            \
             ColumnOf<decltype(d.member)>::allocate(d.member, rows, columns);                     \
           }},
#define PLIANT_MUJOCO_FIELD(name, member, rows, columns, unit, doc) \
  PLIANT_FIELD_OPS(name, member, rows, columns, unit, doc, true)
#define PLIANT_OWN_FIELD(name, member, rows, columns, unit, doc) \
  PLIANT_FIELD_OPS(name, member, rows, columns, unit, doc, false)

const FieldOps kFields[] = {PLIANT_DATA_FIELDS(PLIANT_MUJOCO_FIELD, PLIANT_OWN_FIELD)};

const FieldOps& checked(int index) {
  if (index < 0 || index >= static_cast<int>(std::size(kFields))) {
    throw std::out_of_range("pliant: no Data field of index " + std::to_string(index));
  }
  return kFields[index];
}

}  // namespace

DataSizes::DataSizes(const Data& d) {
#define PLIANT_SET_DATA_SIZE(name, expression, doc) name = expression;
  PLIANT_DATA_SIZES(PLIANT_SET_DATA_SIZE)
#undef PLIANT_SET_DATA_SIZE
}

std::span<const SizeInfo> data_size_infos() {
#define PLIANT_DATA_SIZE_INFO(name, expression, doc) SizeInfo{#name, doc, true},
  static const SizeInfo sizes[] = {PLIANT_DATA_SIZES(PLIANT_DATA_SIZE_INFO)};
#undef PLIANT_DATA_SIZE_INFO
  return sizes;
}

std::span<const FieldInfo> data_field_infos() {
  static const std::vector<FieldInfo> infos = [] {
    std::vector<FieldInfo> out;
    for (const FieldOps& op : kFields) out.push_back(op.info);
    return out;
  }();
  return infos;
}

int find_data_field(const std::string& name) {
  for (size_t i = 0; i < std::size(kFields); ++i) {
    if (name == kFields[i].info.name) return static_cast<int>(i);
  }
  return -1;
}

bool data_field_varies(int index) { return checked(index).varies; }

FieldShape data_field_shape(const Data& d, int index) {
  return checked(index).shape(d.model_sizes(), DataSizes(d));
}

std::vector<double> read_data_field(const Data& d, int index) {
  const FieldOps& op = checked(index);
  std::vector<double> out(op.count(d));
  op.read(d, out.data());
  return out;
}

void write_data_field(Data& d, int index, const double* values, long count) {
  const FieldOps& op = checked(index);
  const FieldShape shape = op.shape(d.model_sizes(), DataSizes(d));
  if (count != shape.count() || count != op.count(d)) {
    throw std::invalid_argument(std::string("pliant: ") + op.info.name + " takes " +
                                std::to_string(shape.rows) + " x " + std::to_string(shape.columns) +
                                " values (" + op.info.rows + " x " + op.info.columns + "), got " +
                                std::to_string(count));
  }
  op.write(d, values);
}

double* data_field_values(Data& d, int index) { return checked(index).values(d); }

void allocate_data_fields(const Model& model, Data& d) {
  const ModelSizes sizes(model);
  for (const FieldOps& op : kFields) op.allocate(d, sizes);
}

// Data is made here, where its table is: every array from the table, then
// the values that are not zero.
Data::Data(const Model& m) : sizes_(m) {
  allocate_data_fields(m, *this);
  qpos = Eigen::Map<const VectorXd>(m.qpos0.data(), m.nq);
  for (int b = 0, k = 0; b < m.body_count(); ++b) {
    if (m.bodies.mocap[b] < 0) continue;
    mocap_pos[k] = m.bodies.pos[b];
    mocap_quat[k++] = m.bodies.quat[b];
  }
  std::fill(actuator_moment_end.begin(), actuator_moment_end.end(), m.nv);
  workspace_.get().scratch_nv = VectorXd::Zero(m.nv);
}

}  // namespace pliant
