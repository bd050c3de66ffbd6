#pragma once

// How the field tables (pliant/model_fields.h, pliant/data_fields.h) read,
// write and size the containers they name. Element<T> is one row of a column
// (a double, an int, a Vector3d, a quaternion, a SolImp ...): how many values
// it has and how they map to MuJoCo's layout. Column<C> is a whole container
// (std::vector of elements, an Eigen vector or matrix): its value count, its
// reading and writing as one flat row-major array, and its allocation.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <type_traits>
#include <vector>

#include "pliant/impedance.h"
#include "pliant/model.h"
#include "pliant/solver_params.h"

namespace pliant::fields {

template <class T, class = void>
struct Element;

// Scalars: real, integer, flag and enum values.
template <class T>
struct Element<T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>> {
  static constexpr int kWidth = 1;
  static constexpr bool kInteger = !std::is_floating_point_v<T>;
  // The values lie in memory as MuJoCo lays them out (a numpy view can share them).
  static constexpr bool kAsStored = std::is_same_v<T, double>;
  static T initial() { return T{}; }
  static void read(const T& v, double* out) {
    if constexpr (std::is_enum_v<T>) {
      *out = static_cast<double>(static_cast<int>(v));
    } else {
      *out = static_cast<double>(v);
    }
  }
  static void write(T& v, const double* in) {
    if constexpr (std::is_enum_v<T>) {
      v = static_cast<T>(static_cast<int>(*in));
    } else {
      v = static_cast<T>(*in);
    }
  }
};

// Object types as MuJoCo 3.x codes them: 3.x put mjOBJ_FLEX at 9, after
// the light, so every later type is one higher than Pliant's ObjectType
// (which keeps 2.x's codes). A flex, which Pliant does not have, reads as
// unknown.
template <>
struct Element<ObjectType> {
  static constexpr int kWidth = 1;
  static constexpr bool kInteger = true;
  static constexpr bool kAsStored = false;
  static constexpr int kFlex = 9;
  static ObjectType initial() { return ObjectType::kUnknown; }
  static void read(const ObjectType& v, double* out) {
    const int code = static_cast<int>(v);
    *out = code >= kFlex ? code + 1 : code;
  }
  static void write(ObjectType& v, const double* in) {
    const int code = static_cast<int>(*in);
    v = static_cast<ObjectType>(code > kFlex ? code - 1 : code == kFlex ? 0 : code);
  }
};

// Fixed-size Eigen column vectors (Vector2d ... Vector6d).
template <int N>
struct Element<Eigen::Matrix<double, N, 1>> {
  static constexpr int kWidth = N;
  static constexpr bool kInteger = false;
  static constexpr bool kAsStored = true;
  static Eigen::Matrix<double, N, 1> initial() { return Eigen::Matrix<double, N, 1>::Zero(); }
  static void read(const Eigen::Matrix<double, N, 1>& v, double* out) {
    for (int i = 0; i < N; ++i) out[i] = v[i];
  }
  static void write(Eigen::Matrix<double, N, 1>& v, const double* in) {
    for (int i = 0; i < N; ++i) v[i] = in[i];
  }
};

// Quaternions as (w, x, y, z); Eigen stores (x, y, z, w).
template <>
struct Element<Eigen::Quaterniond> {
  static constexpr int kWidth = 4;
  static constexpr bool kInteger = false;
  static constexpr bool kAsStored = false;
  static Eigen::Quaterniond initial() { return Eigen::Quaterniond::Identity(); }
  static void read(const Eigen::Quaterniond& q, double* out) {
    out[0] = q.w();
    out[1] = q.x();
    out[2] = q.y();
    out[3] = q.z();
  }
  static void write(Eigen::Quaterniond& q, const double* in) {
    q = Eigen::Quaterniond(in[0], in[1], in[2], in[3]);
  }
};

// 3x3 matrices row by row; Eigen stores them column by column.
template <>
struct Element<Eigen::Matrix3d> {
  static constexpr int kWidth = 9;
  static constexpr bool kInteger = false;
  static constexpr bool kAsStored = false;
  static Eigen::Matrix3d initial() { return Eigen::Matrix3d::Identity(); }
  static void read(const Eigen::Matrix3d& m, double* out) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) out[3 * r + c] = m(r, c);
    }
  }
  static void write(Eigen::Matrix3d& m, const double* in) {
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) m(r, c) = in[3 * r + c];
    }
  }
};

template <class T, size_t N>
struct Element<std::array<T, N>> {
  static constexpr int kWidth = static_cast<int>(N);
  static constexpr bool kInteger = Element<T>::kInteger;
  static constexpr bool kAsStored = Element<T>::kAsStored;
  static std::array<T, N> initial() { return {}; }
  static void read(const std::array<T, N>& a, double* out) {
    for (size_t i = 0; i < N; ++i) Element<T>::read(a[i], out + i);
  }
  static void write(std::array<T, N>& a, const double* in) {
    for (size_t i = 0; i < N; ++i) Element<T>::write(a[i], in + i);
  }
};

// Structs of doubles, member by member in declaration order (MuJoCo's layout).
template <class T, int N, double T::*... members>
struct Members {
  static constexpr int kWidth = N;
  static constexpr bool kInteger = false;
  static constexpr bool kAsStored = false;
  static T initial() { return T{}; }
  static void read(const T& v, double* out) {
    int i = 0;
    ((out[i++] = v.*members), ...);
  }
  static void write(T& v, const double* in) {
    int i = 0;
    ((v.*members = in[i++]), ...);
  }
};
template <>
struct Element<SolRef> : Members<SolRef, 2, &SolRef::timeconst, &SolRef::dampratio> {};
template <>
struct Element<SolImp> : Members<SolImp, 5, &SolImp::dmin, &SolImp::dmax, &SolImp::width,
                                 &SolImp::midpoint, &SolImp::power> {};
// MuJoCo's efc_KBIP: stiffness, damping, impedance, its derivative.
template <>
struct Element<Impedance>
    : Members<Impedance, 4, &Impedance::K, &Impedance::B, &Impedance::d, &Impedance::dd> {};

template <class C, class = void>
struct Column;

// A std::vector of fixed-width elements: one element a row.
template <class T>
struct Column<std::vector<T>, std::enable_if_t<(Element<T>::kWidth > 0)>> {
  using E = Element<T>;
  static constexpr bool kInteger = E::kInteger;
  static long count(const std::vector<T>& c) { return static_cast<long>(c.size()) * E::kWidth; }
  static void read(const std::vector<T>& c, double* out) {
    for (size_t i = 0; i < c.size(); ++i) E::read(c[i], out + i * E::kWidth);
  }
  static void write(std::vector<T>& c, const double* in) {
    for (size_t i = 0; i < c.size(); ++i) E::write(c[i], in + i * E::kWidth);
  }
  static void allocate(std::vector<T>& c, int rows, int /*columns*/) {
    c.assign(rows, E::initial());
  }
  // The first value, when the memory holds the values as read() gives them.
  static double* values(std::vector<T>& c) {
    if constexpr (E::kAsStored) {
      return c.empty() ? nullptr : reinterpret_cast<double*>(c.data());
    } else {
      return nullptr;
    }
  }
};

// Flags: std::vector<bool> packs its bits.
template <>
struct Column<std::vector<bool>> {
  static constexpr bool kInteger = true;
  static long count(const std::vector<bool>& c) { return static_cast<long>(c.size()); }
  static void read(const std::vector<bool>& c, double* out) {
    for (size_t i = 0; i < c.size(); ++i) out[i] = c[i] ? 1 : 0;
  }
  static void write(std::vector<bool>& c, const double* in) {
    for (size_t i = 0; i < c.size(); ++i) c[i] = in[i] != 0;
  }
  static void allocate(std::vector<bool>& c, int rows, int /*columns*/) { c.assign(rows, false); }
  static double* values(std::vector<bool>&) { return nullptr; }
};

// Rows of their own length (keyframes: one row of nq values per key).
template <>
struct Column<std::vector<std::vector<double>>> {
  static constexpr bool kInteger = false;
  static long count(const std::vector<std::vector<double>>& c) {
    long n = 0;
    for (const auto& row : c) n += static_cast<long>(row.size());
    return n;
  }
  static void read(const std::vector<std::vector<double>>& c, double* out) {
    for (const auto& row : c) out = std::copy(row.begin(), row.end(), out);
  }
  static void write(std::vector<std::vector<double>>& c, const double* in) {
    for (auto& row : c) {
      std::copy(in, in + row.size(), row.begin());
      in += row.size();
    }
  }
  static void allocate(std::vector<std::vector<double>>& c, int rows, int columns) {
    c.assign(rows, std::vector<double>(columns, 0.0));
  }
  static double* values(std::vector<std::vector<double>>&) { return nullptr; }
};

// A dense vector: rows x columns values in one block.
template <>
struct Column<Eigen::VectorXd> {
  static constexpr bool kInteger = false;
  static long count(const Eigen::VectorXd& c) { return c.size(); }
  static void read(const Eigen::VectorXd& c, double* out) {
    std::copy(c.data(), c.data() + c.size(), out);
  }
  static void write(Eigen::VectorXd& c, const double* in) {
    std::copy(in, in + c.size(), c.data());
  }
  static void allocate(Eigen::VectorXd& c, int rows, int columns) {
    c = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rows) * columns);
  }
  static double* values(Eigen::VectorXd& c) { return c.size() ? c.data() : nullptr; }
};

// A dense matrix, read row by row (Eigen stores it column by column).
template <>
struct Column<Eigen::MatrixXd> {
  static constexpr bool kInteger = false;
  static long count(const Eigen::MatrixXd& c) { return c.size(); }
  static void read(const Eigen::MatrixXd& c, double* out) {
    for (Eigen::Index r = 0; r < c.rows(); ++r) {
      for (Eigen::Index k = 0; k < c.cols(); ++k) *out++ = c(r, k);
    }
  }
  static void write(Eigen::MatrixXd& c, const double* in) {
    for (Eigen::Index r = 0; r < c.rows(); ++r) {
      for (Eigen::Index k = 0; k < c.cols(); ++k) c(r, k) = *in++;
    }
  }
  static void allocate(Eigen::MatrixXd& c, int rows, int columns) {
    c = Eigen::MatrixXd::Zero(rows, columns);
  }
  static double* values(Eigen::MatrixXd&) { return nullptr; }
};

// A single value or small struct (options): one row.
template <class T>
struct Single {
  using E = Element<T>;
  static constexpr bool kInteger = E::kInteger;
  static long count(const T&) { return E::kWidth; }
  static void read(const T& v, double* out) { E::read(v, out); }
  static void write(T& v, const double* in) { E::write(v, in); }
};

template <class C>
using ColumnOf = Column<std::remove_cvref_t<C>>;

}  // namespace pliant::fields
