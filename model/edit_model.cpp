#include "pliant/edit_model.h"

#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "pliant/model_fields.h"

namespace pliant {
namespace {

// Integer arrays that are parameters, with the values each accepts.
enum class Codes { kAny, kNonNegative, kFlag, kCondim };

bool integer_parameter(std::string_view name, Codes* codes) {
  static const std::pair<std::string_view, Codes> kParameters[] = {
      {"geom_contype", Codes::kNonNegative},
      {"geom_conaffinity", Codes::kNonNegative},
      {"geom_condim", Codes::kCondim},
      {"geom_priority", Codes::kAny},
      {"geom_group", Codes::kAny},
      {"site_group", Codes::kAny},
      {"jnt_group", Codes::kAny},
      {"actuator_group", Codes::kAny},
      {"jnt_limited", Codes::kFlag},
      {"jnt_actfrclimited", Codes::kFlag},
      {"jnt_actgravcomp", Codes::kFlag},
      {"tendon_limited", Codes::kFlag},
      {"tendon_actfrclimited", Codes::kFlag},
      {"actuator_ctrllimited", Codes::kFlag},
      {"actuator_forcelimited", Codes::kFlag},
      {"actuator_actlimited", Codes::kFlag},
      {"actuator_actearly", Codes::kFlag},
      {"eq_active0", Codes::kFlag},
      {"light_active", Codes::kFlag},
      {"light_castshadow", Codes::kFlag},
  };
  for (const auto& [known, accepted] : kParameters) {
    if (name == known) {
      *codes = accepted;
      return true;
    }
  }
  return false;
}

bool accepted(double v, Codes codes) {
  if (v != std::floor(v)) return false;
  switch (codes) {
    case Codes::kAny:
      return true;
    case Codes::kNonNegative:
      return v >= 0;
    case Codes::kFlag:
      return v == 0 || v == 1;
    case Codes::kCondim:
      return v == 1 || v == 3 || v == 4 || v == 6;
  }
  return false;
}

const char* codes_text(Codes codes) {
  switch (codes) {
    case Codes::kAny:
      return "integers";
    case Codes::kNonNegative:
      return "non-negative integers";
    case Codes::kFlag:
      return "0 or 1";
    case Codes::kCondim:
      return "1, 3, 4 or 6";
  }
  return "";
}

void check_finite(const std::string& name, const double* values, long count) {
  for (long i = 0; i < count; ++i) {
    if (!std::isfinite(values[i])) {
      throw std::invalid_argument(name + ": value " + std::to_string(i) +
                                  " is NaN or infinite; nothing was written");
    }
  }
}

}  // namespace

std::string model_field_not_editable(int index) {
  const auto infos = model_field_infos();
  if (index < 0 || index >= static_cast<int>(infos.size())) {
    throw std::out_of_range("model field " + std::to_string(index) + " does not exist");
  }
  const std::string_view name = infos[index].name;
  if (name == "mesh_vert" || name == "mesh_face" || name == "hfield_data") {
    return std::string(name) +
           " holds data that collision structures are built from at load (convex hulls, "
           "height-field prisms): load a model with the new data instead";
  }
  Codes codes;
  if (infos[index].integer && !integer_parameter(name, &codes)) {
    return std::string(name) +
           " is part of the model's structure (an id, address, count or type code): load a "
           "model with the structure wanted instead";
  }
  return "";
}

void edit_model_field(Model& m, int index, const double* values, long count) {
  const std::string reason = model_field_not_editable(index);
  if (!reason.empty()) throw std::invalid_argument(reason);
  const FieldInfo& info = model_field_infos()[index];
  check_finite(info.name, values, count);
  Codes codes;
  if (info.integer && integer_parameter(info.name, &codes)) {
    for (long i = 0; i < count; ++i) {
      if (!accepted(values[i], codes)) {
        throw std::invalid_argument(std::string(info.name) + ": value " + std::to_string(i) +
                                    " is " + std::to_string(values[i]) +
                                    "; accepted: " + codes_text(codes) + "; nothing was written");
      }
    }
  }
  // Physical quantities that cannot be negative.
  static const std::string_view kNonNegative[] = {
      "body_mass",        "body_inertia",        "dof_armature",   "dof_damping",    "geom_size",
      "dof_frictionloss", "tendon_frictionloss", "tendon_damping", "tendon_armature"};
  for (std::string_view known : kNonNegative) {
    if (info.name != known) continue;
    for (long i = 0; i < count; ++i) {
      if (values[i] < 0) {
        throw std::invalid_argument(std::string(info.name) + ": value " + std::to_string(i) +
                                    " is negative; accepted: values >= 0; nothing was written");
      }
    }
  }
  write_model_field(m, index, values, count);
}

void edit_model_option(Model& m, int index, const double* values, long count) {
  const auto infos = model_option_infos();
  if (index < 0 || index >= static_cast<int>(infos.size())) {
    throw std::out_of_range("model option " + std::to_string(index) + " does not exist");
  }
  const std::string name = infos[index].name;
  if (name.rfind("stat_", 0) == 0) {
    throw std::invalid_argument(name + " is a statistic set_const computes; it is not an option");
  }
  check_finite(name, values, count);
  // Enums take their codes; counts and the time step their ranges.
  const std::pair<const char*, double> kLargest[] = {
      {"opt_integrator", 3}, {"opt_cone", 1}, {"opt_jacobian", 2}, {"opt_solver", 2}};
  for (const auto& [known, largest] : kLargest) {
    if (name == known &&
        (values[0] != std::floor(values[0]) || values[0] < 0 || values[0] > largest)) {
      throw std::invalid_argument(name + " is " + std::to_string(values[0]) +
                                  "; accepted: an integer code from 0 to " +
                                  std::to_string(static_cast<int>(largest)));
    }
  }
  if ((name == "opt_iterations" || name == "opt_noslip_iterations" ||
       name == "opt_ls_iterations") &&
      (values[0] != std::floor(values[0]) || values[0] < 0)) {
    throw std::invalid_argument(name + " is " + std::to_string(values[0]) +
                                "; accepted: a non-negative integer");
  }
  if (name == "opt_disableactuator" &&
      (values[0] != std::floor(values[0]) || values[0] < 0 || values[0] > 2147483647.0)) {
    throw std::invalid_argument("opt_disableactuator is " + std::to_string(values[0]) +
                                "; accepted: a bit mask of actuator groups 0 to 30");
  }
  if (name == "opt_timestep" && !(values[0] > 0)) {
    throw std::invalid_argument("opt_timestep is " + std::to_string(values[0]) +
                                "; accepted: a positive time step in seconds");
  }
  write_model_option(m, index, values, count);
}

}  // namespace pliant
