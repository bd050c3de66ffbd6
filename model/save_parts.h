#pragma once

// The pieces of save_xml (pliant/save_xml.h): each writes one part of the
// MJCF of a compiled model into the <mujoco> element.

#include <span>
#include <string>
#include <vector>

#include "model/xml_writer.h"
#include "pliant/model.h"
#include "pliant/solver_params.h"

namespace pliant::save {

// The name of object `id` of `type`, for an attribute that must name it;
// throws LoadError when it has none (only an edited Model can).
const std::string& required_name(const Model& model, ObjectType type, int id, const char* what);

inline void set_solref(XmlElement& e, const char* name, const SolRef& s) {
  const double values[] = {s.timeconst, s.dampratio};
  e.set(name, std::span<const double>(values));
}

// An element's user data row, when any of it is not zero (the rows are
// padded to <size nuser_*>, which write_settings writes).
inline void set_user(XmlElement& e, const std::vector<std::vector<double>>& rows, int i) {
  const std::vector<double>& row = rows[i];
  for (double v : row) {
    if (v != 0) {
      e.set("user", std::span<const double>(row.data(), row.size()));
      return;
    }
  }
}

inline void set_solimp(XmlElement& e, const char* name, const SolImp& s) {
  const double values[] = {s.dmin, s.dmax, s.width, s.midpoint, s.power};
  e.set(name, std::span<const double>(values));
}

// <compiler>, <option> and <statistic> (save_xml.cpp).
void write_settings(const Model& model, XmlElement& root);
// <asset>: textures, materials, meshes, height fields (save_assets.cpp).
void write_assets(const Model& model, XmlElement& root);
// <worldbody> and every body in it (save_bodies.cpp).
void write_worldbody(const Model& model, XmlElement& root);
// <contact>, <equality> and <tendon> (save_constraints.cpp).
void write_contacts(const Model& model, XmlElement& root);
void write_equalities(const Model& model, XmlElement& root);
void write_tendons(const Model& model, XmlElement& root);
// <default>: the classes that carry what an element cannot say itself (a
// fixed tendon's width and colour).
void write_tendon_classes(const Model& model, XmlElement& root);
// <actuator>, <sensor> and <keyframe> (save_actuators.cpp).
void write_actuators(const Model& model, XmlElement& root);
void write_sensors(const Model& model, XmlElement& root);
void write_keyframes(const Model& model, XmlElement& root);

}  // namespace pliant::save
