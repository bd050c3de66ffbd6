// `pliant info MODEL.xml [--json]`: what a model contains. The JSON form uses
// MuJoCo's field names and enum codes, so it can be compared field by field.

#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/load.h"
#include "samples/pliant/commands.h"

namespace pliant::cli {
namespace {

int g_exit_code = 0;

using nlohmann::json;

template <class T>
json flat(const std::vector<T>& rows) {
  json out = json::array();
  for (const T& row : rows) {
    for (int i = 0; i < static_cast<int>(row.size()); ++i) out.push_back(row[i]);
  }
  return out;
}

json flat(const std::vector<Quaterniond>& rows) {
  json out = json::array();
  for (const Quaterniond& q : rows) {
    for (double v : {q.w(), q.x(), q.y(), q.z()}) out.push_back(v);
  }
  return out;
}

template <class E>
json codes(const std::vector<E>& values) {
  json out = json::array();
  for (E v : values) out.push_back(static_cast<int>(v));
  return out;
}

json info_json(const Model& m) {
  json j;
  j["nq"] = m.nq;
  j["nv"] = m.nv;
  j["nu"] = m.nu;
  j["nbody"] = m.bodies.count();
  j["njnt"] = m.joints.count();
  j["ngeom"] = m.geoms.count();
  j["nsite"] = m.sites.count();
  j["neq"] = m.equalities.count();
  j["ntendon"] = m.tendons.count();
  j["body_parentid"] = m.bodies.parent;
  j["body_mass"] = m.bodies.mass;
  j["body_pos"] = flat(m.bodies.pos);
  j["body_quat"] = flat(m.bodies.quat);
  j["body_ipos"] = flat(m.bodies.ipos);
  j["body_iquat"] = flat(m.bodies.iquat);
  j["body_inertia"] = flat(m.bodies.inertia);
  j["jnt_type"] = codes(m.joints.type);
  j["jnt_qposadr"] = m.joints.qpos_adr;
  j["jnt_dofadr"] = m.joints.dof_adr;
  j["jnt_range"] = flat(m.joints.range);
  j["dof_armature"] = m.dofs.armature;
  j["dof_damping"] = m.dofs.damping;
  j["geom_type"] = codes(m.geoms.type);
  j["geom_bodyid"] = m.geoms.body;
  j["geom_size"] = flat(m.geoms.size);
  j["geom_pos"] = flat(m.geoms.pos);
  j["geom_quat"] = flat(m.geoms.quat);
  j["geom_rbound"] = m.geoms.rbound;
  j["geom_friction"] = flat(m.geoms.friction);
  json solref = json::array(), solimp = json::array();
  for (const SolRef& s : m.geoms.solref) solref.insert(solref.end(), {s.timeconst, s.dampratio});
  for (const SolImp& s : m.geoms.solimp) {
    solimp.insert(solimp.end(), {s.dmin, s.dmax, s.width, s.midpoint, s.power});
  }
  j["geom_solref"] = solref;
  j["geom_solimp"] = solimp;
  j["qpos0"] = m.qpos0;
  j["opt_timestep"] = m.options.timestep;
  return j;
}

const char* joint_type_name(JointType type) {
  static const char* names[] = {"free", "ball", "slide", "hinge"};
  return names[static_cast<int>(type)];
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
  info->add_option("model", path, "MJCF model file")->required();
  info->add_flag("--json", as_json, "One JSON object with MuJoCo's field names and codes");
  info->callback([] {
    try {
      const Model model = load_model(path);
      if (as_json) {
        std::cout << info_json(model).dump() << "\n";
      } else {
        print_summary(model, std::cout);
      }
    } catch (const LoadError& e) {
      std::cerr << "error: " << e.what() << "\n";
      set_exit_code(kExitBadInput);
    }
  });
}

}  // namespace pliant::cli
