#include "samples/pliant/compiled_fields.h"

#include <array>

namespace pliant {
namespace {

// Appends fields of one entity table; each add() flattens a column.
class FieldList {
 public:
  explicit FieldList(std::vector<CompiledField>& out) : out_(out) {}

  void ints(const std::string& name, const std::vector<int>& column) {
    push(name, std::vector<double>(column.begin(), column.end()), true);
  }
  void flags(const std::string& name, const std::vector<bool>& column) {
    push(name, std::vector<double>(column.begin(), column.end()), true);
  }
  template <class E>
  void codes(const std::string& name, const std::vector<E>& column) {
    std::vector<double> v;
    for (E e : column) v.push_back(static_cast<int>(e));
    push(name, v, true);
  }
  void reals(const std::string& name, const std::vector<double>& column) {
    push(name, column, false);
  }
  template <int N>
  void reals(const std::string& name, const std::vector<Eigen::Matrix<double, N, 1>>& column) {
    std::vector<double> v;
    for (const auto& row : column) v.insert(v.end(), row.data(), row.data() + N);
    push(name, v, false);
  }
  template <size_t N>
  void reals(const std::string& name, const std::vector<std::array<double, N>>& column) {
    std::vector<double> v;
    for (const auto& row : column) v.insert(v.end(), row.begin(), row.end());
    push(name, v, false);
  }
  template <size_t N>
  void ints(const std::string& name, const std::vector<std::array<int, N>>& column) {
    std::vector<double> v;
    for (const auto& row : column) v.insert(v.end(), row.begin(), row.end());
    push(name, v, true);
  }
  void reals(const std::string& name, const std::vector<Quaterniond>& column) {
    std::vector<double> v;
    for (const Quaterniond& q : column) v.insert(v.end(), {q.w(), q.x(), q.y(), q.z()});
    push(name, v, false);
  }
  void reals(const std::string& name, const std::vector<SolRef>& column) {
    std::vector<double> v;
    for (const SolRef& s : column) v.insert(v.end(), {s.timeconst, s.dampratio});
    push(name, v, false);
  }
  void reals(const std::string& name, const std::vector<SolImp>& column) {
    std::vector<double> v;
    for (const SolImp& s : column)
      v.insert(v.end(), {s.dmin, s.dmax, s.width, s.midpoint, s.power});
    push(name, v, false);
  }
  void scalar(const std::string& name, double value, bool integer) {
    push(name, {value}, integer);
    out_.back().scalar = true;
  }

 private:
  void push(const std::string& name, std::vector<double> values, bool integer) {
    out_.push_back({name, std::move(values), integer, false});
  }
  std::vector<CompiledField>& out_;
};

}  // namespace

std::vector<CompiledField> compiled_fields(const Model& m) {
  std::vector<CompiledField> out;
  FieldList f(out);
  f.scalar("nq", m.nq, true);
  f.scalar("nv", m.nv, true);
  f.scalar("nu", m.nu, true);
  f.scalar("na", m.na, true);
  f.scalar("nbody", m.bodies.count(), true);
  f.scalar("njnt", m.joints.count(), true);
  f.scalar("ngeom", m.geoms.count(), true);
  f.scalar("nsite", m.sites.count(), true);
  f.scalar("ncam", m.cameras.count(), true);
  f.scalar("nlight", m.lights.count(), true);
  f.scalar("nmesh", m.meshes.count(), true);
  f.scalar("nhfield", m.hfields.count(), true);
  f.scalar("ntex", m.textures.count(), true);
  f.scalar("nmat", m.materials.count(), true);
  f.scalar("npair", m.pairs.count(), true);
  f.scalar("nexclude", m.excludes.count(), true);
  f.scalar("neq", m.equalities.count(), true);
  f.scalar("ntendon", m.tendons.count(), true);
  f.scalar("nwrap", static_cast<double>(m.tendons.wrap_type.size()), true);
  f.scalar("nsensor", m.sensors.count(), true);
  f.scalar("nkey", m.keyframes.count(), true);
  f.scalar("nmocap", m.nmocap, true);

  const Options& o = m.options;
  f.scalar("opt_timestep", o.timestep, false);
  f.scalar("opt_impratio", o.impratio, false);
  f.scalar("opt_tolerance", o.tolerance, false);
  f.scalar("opt_noslip_tolerance", o.noslip_tolerance, false);
  f.reals("opt_gravity", std::vector<Vector3d>{o.gravity});
  f.reals("opt_wind", std::vector<Vector3d>{o.wind});
  f.reals("opt_magnetic", std::vector<Vector3d>{o.magnetic});
  f.scalar("opt_density", o.density, false);
  f.scalar("opt_viscosity", o.viscosity, false);
  f.scalar("opt_o_margin", o.o_margin, false);
  f.reals("opt_o_solref", std::vector<SolRef>{o.o_solref});
  f.reals("opt_o_solimp", std::vector<SolImp>{o.o_solimp});
  f.scalar("opt_integrator", static_cast<int>(o.integrator), true);
  f.scalar("opt_cone", static_cast<int>(o.cone), true);
  f.scalar("opt_jacobian", static_cast<int>(o.jacobian), true);
  f.scalar("opt_solver", static_cast<int>(o.solver), true);
  f.scalar("opt_iterations", o.iterations, true);
  f.scalar("opt_noslip_iterations", o.noslip_iterations, true);

  const Bodies& b = m.bodies;
  f.ints("body_parentid", b.parent);
  f.ints("body_rootid", b.root);
  f.ints("body_weldid", b.weld);
  f.ints("body_mocapid", b.mocap);
  f.ints("body_jntnum", b.joint_count);
  f.ints("body_jntadr", b.joint_adr);
  f.ints("body_dofnum", b.dof_count);
  f.ints("body_dofadr", b.dof_adr);
  f.ints("body_geomnum", b.geom_count);
  f.ints("body_geomadr", b.geom_adr);
  f.reals("body_pos", b.pos);
  f.reals("body_quat", b.quat);
  f.reals("body_ipos", b.ipos);
  f.reals("body_iquat", b.iquat);
  f.reals("body_mass", b.mass);
  f.reals("body_subtreemass", b.subtree_mass);
  f.reals("body_inertia", b.inertia);
  f.reals("body_invweight0", b.invweight0);
  f.ints("body_simple", b.simple);
  f.reals("body_gravcomp", b.gravcomp);

  const Joints& j = m.joints;
  f.codes("jnt_type", j.type);
  f.ints("jnt_qposadr", j.qpos_adr);
  f.ints("jnt_dofadr", j.dof_adr);
  f.ints("jnt_bodyid", j.body);
  f.ints("jnt_group", j.group);
  f.flags("jnt_limited", j.limited);
  f.reals("jnt_solref", j.solref);
  f.reals("jnt_solimp", j.solimp);
  f.reals("jnt_pos", j.pos);
  f.reals("jnt_axis", j.axis);
  f.reals("jnt_stiffness", j.stiffness);
  f.reals("jnt_range", j.range);
  f.reals("jnt_margin", j.margin);
  f.flags("jnt_actfrclimited", j.actfrc_limited);
  f.reals("jnt_actfrcrange", j.actfrc_range);
  f.flags("jnt_actgravcomp", j.actgravcomp);

  const Dofs& d = m.dofs;
  f.ints("dof_bodyid", d.body);
  f.ints("dof_jntid", d.joint);
  f.ints("dof_parentid", d.parent);
  f.ints("dof_Madr", d.madr);
  f.reals("dof_solref", d.solref);
  f.reals("dof_solimp", d.solimp);
  f.reals("dof_frictionloss", d.frictionloss);
  f.reals("dof_armature", d.armature);
  f.reals("dof_damping", d.damping);
  f.reals("dof_invweight0", d.invweight0);

  const Geoms& g = m.geoms;
  f.codes("geom_type", g.type);
  f.ints("geom_contype", g.contype);
  f.ints("geom_conaffinity", g.conaffinity);
  f.ints("geom_condim", g.condim);
  f.ints("geom_bodyid", g.body);
  f.ints("geom_dataid", g.data_id);
  f.ints("geom_matid", g.material);
  f.ints("geom_group", g.group);
  f.ints("geom_priority", g.priority);
  f.reals("geom_solmix", g.solmix);
  f.reals("geom_solref", g.solref);
  f.reals("geom_solimp", g.solimp);
  f.reals("geom_size", g.size);
  f.reals("geom_rbound", g.rbound);
  f.reals("geom_pos", g.pos);
  f.reals("geom_quat", g.quat);
  f.reals("geom_friction", g.friction);
  f.reals("geom_margin", g.margin);
  f.reals("geom_gap", g.gap);
  f.reals("geom_rgba", g.rgba);

  const Sites& s = m.sites;
  f.codes("site_type", s.type);
  f.ints("site_bodyid", s.body);
  f.ints("site_matid", s.material);
  f.ints("site_group", s.group);
  f.reals("site_size", s.size);
  f.reals("site_pos", s.pos);
  f.reals("site_quat", s.quat);
  f.reals("site_rgba", s.rgba);

  const Cameras& c = m.cameras;
  f.ints("cam_mode", c.mode);
  f.ints("cam_bodyid", c.body);
  f.ints("cam_targetbodyid", c.target_body);
  f.reals("cam_pos", c.pos);
  f.reals("cam_quat", c.quat);
  f.reals("cam_fovy", c.fovy);
  f.reals("cam_ipd", c.ipd);
  f.ints("cam_orthographic", c.orthographic);
  f.reals("cam_resolution", c.resolution);
  f.reals("cam_sensorsize", c.sensorsize);
  f.reals("cam_intrinsic", c.intrinsic);

  const Lights& l = m.lights;
  f.ints("light_mode", l.mode);
  f.ints("light_bodyid", l.body);
  f.ints("light_targetbodyid", l.target_body);
  f.flags("light_castshadow", l.castshadow);
  f.flags("light_active", l.active);
  f.reals("light_pos", l.pos);
  f.reals("light_dir", l.dir);
  f.reals("light_attenuation", l.attenuation);
  f.reals("light_cutoff", l.cutoff);
  f.reals("light_exponent", l.exponent);
  f.reals("light_ambient", l.ambient);
  f.reals("light_diffuse", l.diffuse);
  f.reals("light_specular", l.specular);

  const Meshes& me = m.meshes;
  f.ints("mesh_vertadr", me.vert_adr);
  f.ints("mesh_vertnum", me.vert_count);
  f.ints("mesh_faceadr", me.face_adr);
  f.ints("mesh_facenum", me.face_count);
  f.reals("mesh_vert", me.vertices);

  const Hfields& h = m.hfields;
  f.reals("hfield_size", h.size);
  f.ints("hfield_nrow", h.nrow);
  f.ints("hfield_ncol", h.ncol);
  f.ints("hfield_adr", h.adr);
  f.reals("hfield_data", std::vector<double>(h.data.begin(), h.data.end()));

  const Materials& ma = m.materials;
  // 3.x gives each material a texture per role (mjNTEXROLE = 10); the one
  // MJCF's `texture` sets is the colour role, mjTEXROLE_RGB = 1.
  std::vector<int> texid;
  for (int tex : ma.texture) {
    for (int role = 0; role < 10; ++role) texid.push_back(role == 1 ? tex : -1);
  }
  f.ints("mat_texid", texid);
  f.reals("mat_texrepeat", ma.texrepeat);
  f.reals("mat_emission", ma.emission);
  f.reals("mat_specular", ma.specular);
  f.reals("mat_shininess", ma.shininess);
  f.reals("mat_reflectance", ma.reflectance);
  f.reals("mat_rgba", ma.rgba);

  const Pairs& p = m.pairs;
  f.ints("pair_dim", p.condim);
  f.ints("pair_geom1", p.geom1);
  f.ints("pair_geom2", p.geom2);
  f.reals("pair_solref", p.solref);
  f.reals("pair_solimp", p.solimp);
  f.reals("pair_margin", p.margin);
  f.reals("pair_gap", p.gap);
  f.reals("pair_friction", p.friction);

  const Equalities& e = m.equalities;
  f.codes("eq_type", e.type);
  f.codes("eq_objtype", e.obj_type);
  f.ints("eq_obj1id", e.obj1);
  f.ints("eq_obj2id", e.obj2);
  f.flags("eq_active0", e.active);
  f.reals("eq_solref", e.solref);
  f.reals("eq_solimp", e.solimp);
  f.reals("eq_data", e.data);

  const Tendons& t = m.tendons;
  f.ints("tendon_adr", t.wrap_adr);
  f.ints("tendon_num", t.wrap_count);
  f.flags("tendon_limited", t.limited);
  f.reals("tendon_solref_lim", t.solref_limit);
  f.reals("tendon_solimp_lim", t.solimp_limit);
  f.reals("tendon_solref_fri", t.solref_friction);
  f.reals("tendon_solimp_fri", t.solimp_friction);
  f.reals("tendon_range", t.range);
  f.reals("tendon_margin", t.margin);
  f.reals("tendon_stiffness", t.stiffness);
  f.reals("tendon_damping", t.damping);
  f.reals("tendon_frictionloss", t.frictionloss);
  std::vector<double> length_spring;  // a dead band [low, high] per tendon
  for (const Vector2d& v : t.length_spring) length_spring.insert(length_spring.end(), {v[0], v[1]});
  f.reals("tendon_lengthspring", length_spring);
  f.reals("tendon_length0", t.length0);
  f.reals("tendon_invweight0", t.invweight0);
  f.reals("tendon_width", t.width);
  f.codes("wrap_type", t.wrap_type);
  f.ints("wrap_objid", t.wrap_obj);
  f.reals("wrap_prm", t.wrap_prm);

  const Actuators& a = m.actuators;
  f.codes("actuator_trntype", a.trn_type);
  f.codes("actuator_dyntype", a.dyn_type);
  f.codes("actuator_gaintype", a.gain_type);
  f.codes("actuator_biastype", a.bias_type);
  f.ints("actuator_trnid", a.trn_id);
  f.ints("actuator_group", a.group);
  f.ints("actuator_actadr", a.act_adr);
  f.ints("actuator_actnum", a.act_num);
  f.flags("actuator_actearly", a.actearly);
  f.flags("actuator_ctrllimited", a.ctrl_limited);
  f.flags("actuator_forcelimited", a.force_limited);
  f.flags("actuator_actlimited", a.act_limited);
  f.reals("actuator_dynprm", a.dynprm);
  f.reals("actuator_gainprm", a.gainprm);
  f.reals("actuator_biasprm", a.biasprm);
  f.reals("actuator_ctrlrange", a.ctrl_range);
  f.reals("actuator_forcerange", a.force_range);
  f.reals("actuator_actrange", a.act_range);
  f.reals("actuator_gear", a.gear);
  f.reals("actuator_cranklength", a.crank_length);
  f.reals("actuator_acc0", a.acc0);
  f.reals("actuator_length0", a.length0);
  f.reals("actuator_lengthrange", a.length_range);

  const Keyframes& k = m.keyframes;
  std::vector<double> key_qpos, key_qvel, key_act, key_ctrl, key_mpos, key_mquat;
  for (int i = 0; i < k.count(); ++i) {
    key_qpos.insert(key_qpos.end(), k.qpos[i].begin(), k.qpos[i].end());
    key_qvel.insert(key_qvel.end(), k.qvel[i].begin(), k.qvel[i].end());
    key_act.insert(key_act.end(), k.act[i].begin(), k.act[i].end());
    key_ctrl.insert(key_ctrl.end(), k.ctrl[i].begin(), k.ctrl[i].end());
    key_mpos.insert(key_mpos.end(), k.mocap_pos[i].begin(), k.mocap_pos[i].end());
    key_mquat.insert(key_mquat.end(), k.mocap_quat[i].begin(), k.mocap_quat[i].end());
  }
  f.reals("key_time", k.time);
  f.reals("key_qpos", key_qpos);
  f.reals("key_qvel", key_qvel);
  f.reals("key_act", key_act);
  f.reals("key_ctrl", key_ctrl);
  f.reals("key_mpos", key_mpos);
  f.reals("key_mquat", key_mquat);

  f.reals("qpos0", m.qpos0);
  f.reals("qpos_spring", m.qpos_spring);
  f.scalar("stat_meaninertia", m.stat.meaninertia, false);
  return out;
}

}  // namespace pliant
