#pragma once

// Compares two models by the field table (pliant/model_fields.h): every
// size, option and array, and every object's name. Used by the save_xml
// round-trip tests, default and extended.

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pliant/model.h"
#include "pliant/model_fields.h"

namespace pliant::test_support {

struct ModelDifference {
  int compared = 0;                 // sizes, options, arrays and name lists compared
  std::vector<std::string> differ;  // one line per field that differs
  // Per differing option or array: its largest difference relative to the
  // larger magnitude of the two values.
  std::map<std::string, double> largest_relative;
  std::map<std::string, double> largest_absolute;  // the same, absolute
  bool same() const { return differ.empty(); }
  std::string text() const {
    std::string out;
    for (const std::string& line : differ) out += line + "\n";
    return out;
  }
};

// "name: N of M values differ, the largest by D (relative R) at index I".
inline std::string describe(const char* name, const std::vector<double>& a,
                            const std::vector<double>& b, double* relative = nullptr,
                            double* absolute = nullptr) {
  if (a.size() != b.size()) {
    return std::string(name) + ": " + std::to_string(a.size()) + " against " +
           std::to_string(b.size()) + " values";
  }
  size_t count = 0, worst = 0;
  double largest = -1;
  for (size_t i = 0; i < a.size(); ++i) {
    // Bitwise equality up to the sign of zero.
    if (a[i] == b[i]) continue;
    ++count;
    const double d = std::abs(a[i] - b[i]);
    if (!(d <= largest)) {
      largest = d;
      worst = i;
    }
  }
  if (count == 0) return "";
  char line[256];
  const double scale = std::max(std::abs(a[worst]), std::abs(b[worst]));
  if (absolute != nullptr) *absolute = largest;
  if (relative != nullptr) {
    *relative = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      const double m = std::max(std::abs(a[i]), std::abs(b[i]));
      if (a[i] != b[i]) *relative = std::max(*relative, std::abs(a[i] - b[i]) / m);
    }
  }
  std::snprintf(line, sizeof(line),
                ": %zu of %zu values differ, the largest by %.3g (relative %.3g) at index %zu "
                "(%.17g against %.17g)",
                count, a.size(), largest, scale > 0 ? largest / scale : 0.0, worst, a[worst],
                b[worst]);
  return name + std::string(line);
}

// Every table field of `a` against `b`, exactly (equal doubles; -0 equals 0).
inline ModelDifference model_difference(const Model& a, const Model& b) {
  ModelDifference out;
  const ModelSizes sa(a), sb(b);
  for (size_t i = 0; i < model_size_infos().size(); ++i) {
    ++out.compared;
    const int va = model_size(sa, static_cast<int>(i)), vb = model_size(sb, static_cast<int>(i));
    if (va != vb) {
      out.differ.push_back(std::string(model_size_infos()[i].name) + ": " + std::to_string(va) +
                           " against " + std::to_string(vb));
    }
  }
  if (!out.same()) return out;  // arrays of other sizes say nothing more
  for (size_t i = 0; i < model_option_infos().size(); ++i) {
    ++out.compared;
    double relative = 0, absolute = 0;
    const char* name = model_option_infos()[i].name;
    const std::string line =
        describe(name, read_model_option(a, static_cast<int>(i)),
                 read_model_option(b, static_cast<int>(i)), &relative, &absolute);
    if (!line.empty()) {
      out.differ.push_back(line);
      out.largest_relative[name] = relative;
      out.largest_absolute[name] = absolute;
    }
  }
  for (size_t i = 0; i < model_field_infos().size(); ++i) {
    ++out.compared;
    double relative = 0, absolute = 0;
    const char* name = model_field_infos()[i].name;
    const std::string line =
        describe(name, read_model_field(a, static_cast<int>(i)),
                 read_model_field(b, static_cast<int>(i)), &relative, &absolute);
    if (!line.empty()) {
      out.differ.push_back(line);
      out.largest_relative[name] = relative;
      out.largest_absolute[name] = absolute;
    }
  }
  // Names, type by type (ObjectType codes 1 to 23).
  const int counts[] = {0,
                        a.body_count(),
                        0,
                        a.joints.count(),
                        0,
                        a.geoms.count(),
                        a.sites.count(),
                        a.cameras.count(),
                        a.lights.count(),
                        a.meshes.count(),
                        0,
                        a.hfields.count(),
                        a.textures.count(),
                        a.materials.count(),
                        a.pairs.count(),
                        a.excludes.count(),
                        a.equalities.count(),
                        a.tendons.count(),
                        a.actuators.count(),
                        a.sensors.count(),
                        0,
                        0,
                        0,
                        a.keyframes.count()};
  for (int type = 1; type < static_cast<int>(std::size(counts)); ++type) {
    if (counts[type] == 0) continue;
    ++out.compared;
    for (int id = 0; id < counts[type]; ++id) {
      const std::string& na = a.name(static_cast<ObjectType>(type), id);
      const std::string& nb = b.name(static_cast<ObjectType>(type), id);
      if (na != nb) {
        out.differ.push_back("name of object " + std::to_string(id) + " of type " +
                             std::to_string(type) + ": '" + na + "' against '" + nb + "'");
        break;
      }
    }
  }
  if (a.model_name != b.model_name) {
    out.differ.push_back("model name '" + a.model_name + "' against '" + b.model_name + "'");
  }
  return out;
}

// The one limit of save_xml (pliant/save_xml.h): a quaternion no text
// loads into (an inertial frame from diagonalising a tensor, a mesh geom's
// frame composed with its mesh's) comes back up to 2 ulps of a unit
// quaternion off (4.5e-16 absolute), a mesh geom's position by 2 ulps of
// its own (4.5e-16 relative); the constants the loader measures at qpos0
// from those frames (inverse weights, acc0, a springdamper's stiffness and
// damping, the mean inertia) follow within 1e-12 relative. True when every
// difference is of that kind.
inline bool only_quaternion_ulps(const ModelDifference& d) {
  if (d.largest_relative.size() != d.differ.size()) return false;  // sizes or names
  for (const auto& [field, relative] : d.largest_relative) {
    if (field == "body_iquat" || field == "geom_quat") {
      if (d.largest_absolute.at(field) > 4.5e-16) return false;
      continue;
    }
    if (field == "geom_pos") {
      if (relative > 4.5e-16) return false;
      continue;
    }
    const bool measured = field == "body_invweight0" || field == "dof_invweight0" ||
                          field == "tendon_invweight0" || field == "actuator_acc0" ||
                          field == "jnt_stiffness" || field == "dof_damping" ||
                          field == "stat_meaninertia";
    if (!measured || relative > 1e-12) return false;
  }
  return true;
}

}  // namespace pliant::test_support
