#pragma once

// Pliant's typed columns and MuJoCo's flat arrays, both as flat vectors, so
// FieldReport can compare them.

#include <mujoco/mujoco.h>

#include <vector>

#include "pliant/model.h"

namespace pliant::conformance {

template <class T>
std::vector<double> reals_of(const T* data, int count) {
  return std::vector<double>(data, data + count);
}
inline std::vector<int> ints_of(const int* data, int count) {
  return std::vector<int>(data, data + count);
}
inline std::vector<int> bytes_of(const mjtByte* data, int count) {
  return std::vector<int>(data, data + count);
}

template <int N>
std::vector<double> flat(const std::vector<Eigen::Matrix<double, N, 1>>& rows) {
  std::vector<double> out;
  for (const auto& row : rows) out.insert(out.end(), row.data(), row.data() + N);
  return out;
}
inline std::vector<double> flat(const std::vector<Quaterniond>& rows) {
  std::vector<double> out;
  for (const Quaterniond& q : rows) out.insert(out.end(), {q.w(), q.x(), q.y(), q.z()});
  return out;
}
template <size_t N>
std::vector<double> flat(const std::vector<std::array<double, N>>& rows) {
  std::vector<double> out;
  for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
  return out;
}
inline std::vector<double> flat(const std::vector<SolRef>& rows) {
  std::vector<double> out;
  for (const SolRef& s : rows) out.insert(out.end(), {s.timeconst, s.dampratio});
  return out;
}
inline std::vector<double> flat(const std::vector<SolImp>& rows) {
  std::vector<double> out;
  for (const SolImp& s : rows)
    out.insert(out.end(), {s.dmin, s.dmax, s.width, s.midpoint, s.power});
  return out;
}
// Rotation matrices row by row, as MuJoCo stores them.
inline std::vector<double> flat(const std::vector<Eigen::Matrix3d>& rows) {
  std::vector<double> out;
  for (const Eigen::Matrix3d& r : rows) {
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) out.push_back(r(i, k));  // row-major like MuJoCo
    }
  }
  return out;
}

template <class E>
std::vector<int> codes(const std::vector<E>& values) {
  std::vector<int> out;
  for (E v : values) out.push_back(static_cast<int>(v));
  return out;
}
inline std::vector<int> bools(const std::vector<bool>& values) {
  return std::vector<int>(values.begin(), values.end());
}

}  // namespace pliant::conformance
