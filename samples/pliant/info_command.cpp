// `pliant info MODEL.xml [--json]`: what a model contains. The JSON form uses
// MuJoCo's field names and enum codes, so it can be compared field by field.

#include <iostream>
#include <nlohmann/json.hpp>

#include "pliant/load.h"
#include "pliant/sensor_types.h"
#include "samples/pliant/commands.h"
#include "samples/pliant/field_json.h"
#include "samples/pliant/model_edits.h"

namespace pliant::cli {
namespace {

int g_exit_code = 0;

using nlohmann::json;

const char* joint_type_name(JointType type) {
  static const char* names[] = {"free", "ball", "slide", "hinge"};
  return names[static_cast<int>(type)];
}

const char* object_type_name(ObjectType type) {
  switch (type) {
    case ObjectType::kBody:
      return "body";
    case ObjectType::kXBody:
      return "xbody";
    case ObjectType::kJoint:
      return "joint";
    case ObjectType::kGeom:
      return "geom";
    case ObjectType::kSite:
      return "site";
    case ObjectType::kCamera:
      return "camera";
    case ObjectType::kTendon:
      return "tendon";
    case ObjectType::kActuator:
      return "actuator";
    default:
      return "object";
  }
}

void print_summary(const Model& m, std::ostream& out) {
  out << "model '" << m.model_name << "' from " << m.file << "\n";
  out << "  nq " << m.nq << "  nv " << m.nv << "  nu " << m.nu << "  na " << m.na << "\n";
  out << "  bodies " << m.bodies.count() << "  joints " << m.joints.count() << "  geoms "
      << m.geoms.count() << "  sites " << m.sites.count() << "  tendons " << m.tendons.count()
      << "  equalities " << m.equalities.count() << "  sensors " << m.sensors.count() << "  meshes "
      << m.meshes.count() << "  keyframes " << m.keyframes.count() << "\n";
  double total_mass = 0;
  for (double mass : m.bodies.mass) total_mass += mass;
  out << "  total mass " << total_mass << " kg, timestep " << m.options.timestep << " s\n";
  out << "bodies:\n";
  for (int b = 0; b < m.bodies.count(); ++b) {
    out << "  " << b << " " << (m.bodies.name[b].empty() ? "(unnamed)" : m.bodies.name[b])
        << "  parent " << m.bodies.parent[b] << "  mass " << m.bodies.mass[b] << "  geoms "
        << m.bodies.geom_count[b] << "  dofs " << m.bodies.dof_count[b] << "\n";
  }
  out << "joints:\n";
  for (int j = 0; j < m.joints.count(); ++j) {
    out << "  " << j << " " << (m.joints.name[j].empty() ? "(unnamed)" : m.joints.name[j]) << "  "
        << joint_type_name(m.joints.type[j]) << "  body " << m.joints.body[j];
    if (m.joints.limited[j]) {
      out << "  range [" << m.joints.range[j][0] << ", " << m.joints.range[j][1] << "]";
    }
    out << "\n";
  }
  out << "actuators:\n";
  for (int a = 0; a < m.actuators.count(); ++a) {
    out << "  " << a << " " << (m.actuators.name[a].empty() ? "(unnamed)" : m.actuators.name[a])
        << "  gear " << m.actuators.gear[a][0];
    if (m.actuators.ctrl_limited[a]) {
      out << "  ctrlrange [" << m.actuators.ctrl_range[a][0] << ", " << m.actuators.ctrl_range[a][1]
          << "]";
    }
    out << "\n";
  }
  out << "sensors:\n";
  const Sensors& sn = m.sensors;
  for (int s = 0; s < sn.count(); ++s) {
    out << "  " << s << " " << (sn.name[s].empty() ? "(unnamed)" : sn.name[s]) << "  "
        << sensor_kind(sn.type[s]).element;
    if (sn.obj_id[s] >= 0) {
      out << "  " << object_type_name(sn.obj_type[s]) << " '"
          << m.name(sn.obj_type[s], sn.obj_id[s]) << "'";
    }
    if (sn.ref_id[s] >= 0) {
      out << "  " << (sn.type[s] == SensorType::kCamProjection ? "camera" : "ref") << " "
          << object_type_name(sn.ref_type[s]) << " '" << m.name(sn.ref_type[s], sn.ref_id[s])
          << "'";
    }
    out << "  dim " << sn.dim[s] << "  adr " << sn.adr[s];
    if (sn.cutoff[s] > 0) out << "  cutoff " << sn.cutoff[s];
    if (sn.noise[s] > 0) out << "  noise " << sn.noise[s];
    out << "\n";
  }
  out << "warnings: " << (m.warnings.empty() ? "none" : "") << "\n";
  for (const std::string& w : m.warnings) out << "  " << w << "\n";
}

}  // namespace

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

void add_info_command(CLI::App& app) {
  CLI::App* info = app.add_subcommand("info", "Load a model and print what it contains");
  static std::string path;
  static bool as_json = false;
  static ModelEdits edits;
  info->add_option("model", path, "MJCF model file")->required();
  info->add_flag("--json", as_json, "One JSON object with MuJoCo's field names and codes");
  add_model_edit_options(info, edits);
  info->callback([] {
    try {
      Model model = load_model(path);
      apply_model_edits(edits, model);
      if (as_json) {
        std::cout << model_json(model).dump() << "\n";
      } else {
        print_summary(model, std::cout);
      }
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

void add_fields_command(CLI::App& app) {
  CLI::App* fields =
      app.add_subcommand("fields", "Print the field tables of Model and Data (docs/fields.md)");
  static bool as_json = false;
  fields->add_flag("--json", as_json, "One JSON object instead of Markdown");
  fields->callback([] {
    if (as_json) {
      std::cout << fields_json().dump(1) << "\n";
    } else {
      std::cout << fields_markdown();
    }
  });
}

}  // namespace pliant::cli
