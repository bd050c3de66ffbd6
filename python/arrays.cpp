#include "python/arrays.h"

namespace pliant::python {

PyData::PyData(std::shared_ptr<Model> m)
    : model(std::move(m)),
      data(*model),
      xquat(model->body_count(), 4),
      mocap_quat(model->nmocap, 4),
      xfrc_applied(RowMatrix6::Zero(model->body_count(), 6)) {
  pull();
}

void PyData::push() {
  for (int i = 0; i < mocap_quat.rows(); ++i) {
    data.mocap_quat[i] =
        Quaterniond(mocap_quat(i, 0), mocap_quat(i, 1), mocap_quat(i, 2), mocap_quat(i, 3));
  }
  for (int i = 0; i < xfrc_applied.rows(); ++i) {
    data.xfrc_applied[i] << xfrc_applied.row(i).tail<3>().transpose(),
        xfrc_applied.row(i).head<3>().transpose();
  }
}

void PyData::pull() {
  const auto put = [](RowMatrix4& out, int i, const Quaterniond& q) {
    out.row(i) << q.w(), q.x(), q.y(), q.z();
  };
  for (int i = 0; i < xquat.rows(); ++i) put(xquat, i, data.xquat[i]);
  for (int i = 0; i < mocap_quat.rows(); ++i) put(mocap_quat, i, data.mocap_quat[i]);
  for (int i = 0; i < xfrc_applied.rows(); ++i) {
    xfrc_applied.row(i) << data.xfrc_applied[i].tail<3>().transpose(),
        data.xfrc_applied[i].head<3>().transpose();
  }
}

void check_same_model(const std::shared_ptr<Model>& model, const PyData& d) {
  if (model.get() != d.model.get()) check_data_matches(*model, d.data);
}

py::array_t<double> view(py::handle owner, double* values, long count, long columns) {
  static double empty = 0;  // numpy needs a pointer even for no elements
  double* base = values ? values : &empty;
  constexpr long kItem = sizeof(double);
  if (columns == 0) return py::array_t<double>({count}, {kItem}, base, owner);
  return py::array_t<double>({count, columns}, {columns * kItem, kItem}, base, owner);
}

void assign(const py::array_t<double, py::array::c_style | py::array::forcecast>& values,
            double* out, long count) {
  const double* in = values.data();
  for (long i = 0; i < count; ++i) out[i] = in[i];
}

}  // namespace pliant::python
