// The compiled model against MuJoCo 2.2.2, field by field, over every
// conformance model. Counts and ids must match exactly; real fields within
// 1e-9 of the field's magnitude (round-off of a few dozen operations on
// doubles); fields derived from mesh files within 1e-6, because MuJoCo reads
// mesh vertices as single-precision floats and sums some mesh integrals in
// float. Body inertia is compared as the full tensor in the body frame
// (R diag(I) R^T and the centre of mass), so that the order and sign
// conventions of the eigen-decomposition do not matter.

#include <gtest/gtest.h>
#include <mujoco/mjxmacro.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pliant/load.h"
#include "pliant/model_fields.h"
#include "tests/conformance/field_report.h"
#include "tests/conformance/flatten.h"
#include "tests/conformance/model_list.h"
#include "tests/conformance/reference.h"

namespace pliant::conformance {
namespace {

constexpr double kTolerance = 1e-9;
constexpr double kMeshTolerance = 1e-6;

// Inertia tensor of each body in its body frame, flattened 3x3.
std::vector<double> body_tensors(const std::vector<Vector3d>& inertia,
                                 const std::vector<Quaterniond>& iquat) {
  std::vector<double> out;
  for (size_t b = 0; b < inertia.size(); ++b) {
    const Eigen::Matrix3d r = iquat[b].toRotationMatrix();
    const Eigen::Matrix3d tensor = r * inertia[b].asDiagonal() * r.transpose();
    out.insert(out.end(), tensor.data(), tensor.data() + 9);
  }
  return out;
}

// MuJoCo 2.2.2's disable mask: one passive bit where 3.x (whose order
// OptionFlags::disable_bits follows) has spring and damper.
int disable_bits_222(const OptionFlags& f) {
  const bool off[] = {
      !f.constraint,          !f.equality, !f.frictionloss, !f.limit,     !f.contact,
      !f.spring || !f.damper, !f.gravity,  !f.clampctrl,    !f.warmstart, !f.filterparent,
      !f.actuation,           !f.refsafe,  !f.sensor};
  int bits = 0;
  for (int i = 0; i < 13; ++i) bits |= off[i] ? (1 << i) : 0;
  return bits;
}

// MuJoCo 2.2.2's enable mask: sensornoise where 3.x has invdiscrete.
int enable_bits_222(const OptionFlags& f) {
  const bool on[] = {f.override_contacts, f.energy, f.fwdinv, f.sensornoise, f.multiccd};
  int bits = 0;
  for (int i = 0; i < 5; ++i) bits |= on[i] ? (1 << i) : 0;
  return bits;
}

// MuJoCo 2.2.2's size or array of that name (mjxmacro.h), as doubles, or
// nothing when 2.2.2 has none.
std::optional<std::vector<double>> reference_field(const mjModel* m, const std::string& name) {
#define X(size) \
  if (name == #size) return std::vector<double>{static_cast<double>(m->size)};
  MJMODEL_INTS
#undef X
  MJMODEL_POINTERS_PREAMBLE(m)
#define X(type, field, rows, columns)                      \
  if (name == #field) {                                    \
    const long n = static_cast<long>(m->rows) * (columns); \
    return std::vector<double>(m->field, m->field + n);    \
  }
  MJMODEL_POINTERS
#undef X
  return std::nullopt;
}

// Pliant's size, option or array of that name (pliant/model_fields.h).
std::vector<double> pliant_field(const Model& m, const std::string& name) {
  const auto sizes = model_size_infos();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (name == sizes[i].name) return {double(model_size(ModelSizes(m), static_cast<int>(i)))};
  }
  const int option = find_model_option(name);
  if (option >= 0) return read_model_option(m, option);
  const int field = find_model_field(name);
  EXPECT_GE(field, 0) << name << " is not in Pliant's field table";
  return field >= 0 ? read_model_field(m, field) : std::vector<double>();
}

std::vector<int> as_ints(const std::vector<double>& values) {
  return std::vector<int>(values.begin(), values.end());
}

// The fields compared with 2.2.2, under the names both tables give them.
// Not compared: the fields whose compilation changed in 3.x, which Pliant
// follows (mesh and height-field internals, inverse weights, lengths at
// qpos0, actuator acc0, visual properties), compared with 3.3.8 by the
// MuJoCo3.Fields tests instead.
const char* const kSizes[] = {
    "nq",    "nv",   "nu",      "na",     "nbody", "njnt",     "ngeom", "nsite",  "neq",  "ntendon",
    "nmesh", "nkey", "nsensor", "nmocap", "npair", "nexclude", "ncam",  "nlight", "nwrap"};
const char* const kIntegerFields[] = {"body_parentid",
                                      "body_rootid",
                                      "body_weldid",
                                      "body_mocapid",
                                      "body_jntnum",
                                      "body_jntadr",
                                      "body_dofnum",
                                      "body_dofadr",
                                      "body_geomnum",
                                      "body_geomadr",
                                      "jnt_type",
                                      "jnt_qposadr",
                                      "jnt_dofadr",
                                      "jnt_bodyid",
                                      "jnt_group",
                                      "jnt_limited",
                                      "dof_bodyid",
                                      "dof_jntid",
                                      "dof_parentid",
                                      "dof_Madr",
                                      "geom_type",
                                      "geom_contype",
                                      "geom_conaffinity",
                                      "geom_condim",
                                      "geom_bodyid",
                                      "geom_dataid",
                                      "geom_group",
                                      "geom_priority",
                                      "geom_matid",
                                      "site_type",
                                      "site_bodyid",
                                      "actuator_trntype",
                                      "actuator_gaintype",
                                      "actuator_biastype",
                                      "actuator_trnid",
                                      "actuator_ctrllimited",
                                      "actuator_forcelimited",
                                      "tendon_adr",
                                      "tendon_num",
                                      "tendon_limited",
                                      "wrap_type",
                                      "wrap_objid",
                                      "eq_type",
                                      "eq_obj1id",
                                      "eq_obj2id",
                                      "pair_geom1",
                                      "pair_geom2",
                                      "pair_dim",
                                      "sensor_objid",
                                      "sensor_dim",
                                      "opt_integrator",
                                      "opt_cone",
                                      "opt_jacobian",
                                      "opt_solver",
                                      "opt_iterations",
                                      "opt_noslip_iterations"};
const char* const kRealFields[] = {"body_pos",
                                   "jnt_solref",
                                   "jnt_solimp",
                                   "jnt_pos",
                                   "jnt_axis",
                                   "jnt_stiffness",
                                   "jnt_range",
                                   "jnt_margin",
                                   "dof_solref",
                                   "dof_solimp",
                                   "dof_frictionloss",
                                   "dof_armature",
                                   "dof_damping",
                                   "geom_solmix",
                                   "geom_solref",
                                   "geom_solimp",
                                   "geom_size",
                                   "geom_rbound",
                                   "geom_pos",
                                   "geom_friction",
                                   "geom_margin",
                                   "geom_gap",
                                   "site_size",
                                   "site_pos",
                                   "qpos0",
                                   "qpos_spring",
                                   "actuator_dynprm",
                                   "actuator_gainprm",
                                   "actuator_biasprm",
                                   "actuator_ctrlrange",
                                   "actuator_forcerange",
                                   "actuator_gear",
                                   "tendon_range",
                                   "tendon_stiffness",
                                   "tendon_damping",
                                   "tendon_frictionloss",
                                   "wrap_prm",
                                   "eq_solref",
                                   "eq_solimp",
                                   "eq_data",
                                   "pair_friction",
                                   "pair_solref",
                                   "pair_solimp",
                                   "pair_margin",
                                   "key_qpos",
                                   "key_ctrl",
                                   "opt_timestep",
                                   "opt_impratio",
                                   "opt_tolerance",
                                   "opt_noslip_tolerance",
                                   "opt_gravity",
                                   "opt_wind",
                                   "opt_magnetic",
                                   "opt_density",
                                   "opt_viscosity",
                                   "opt_o_margin",
                                   "opt_o_solref"};
const char* const kQuaternionFields[] = {"body_quat", "geom_quat", "site_quat"};
// Derived from mesh files (the mesh tolerance when the model has meshes).
const char* const kMassFields[] = {"body_mass", "body_subtreemass", "body_ipos"};

// MuJoCo 2.2.2's option of that name (opt_timestep: mjOption::timestep).
std::optional<std::vector<double>> opt_field(const mjOption& o, const std::string& name) {
  const std::pair<const char*, std::vector<double>> options[] = {
      {"opt_timestep", {o.timestep}},
      {"opt_impratio", {o.impratio}},
      {"opt_tolerance", {o.tolerance}},
      {"opt_noslip_tolerance", {o.noslip_tolerance}},
      {"opt_gravity", {o.gravity[0], o.gravity[1], o.gravity[2]}},
      {"opt_wind", {o.wind[0], o.wind[1], o.wind[2]}},
      {"opt_magnetic", {o.magnetic[0], o.magnetic[1], o.magnetic[2]}},
      {"opt_density", {o.density}},
      {"opt_viscosity", {o.viscosity}},
      {"opt_o_margin", {o.o_margin}},
      {"opt_o_solref", {o.o_solref[0], o.o_solref[1]}},
      {"opt_integrator", {double(o.integrator)}},
      {"opt_cone", {double(o.cone)}},
      {"opt_jacobian", {double(o.jacobian)}},
      {"opt_solver", {double(o.solver)}},
      {"opt_iterations", {double(o.iterations)}},
      {"opt_noslip_iterations", {double(o.noslip_iterations)}}};
  for (const auto& [option, values] : options) {
    if (name == option) return values;
  }
  return std::nullopt;
}

class ModelConformance : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelConformance, CompiledFieldsMatchMuJoCo) {
  const std::string path = GetParam();
  // The compiled fields are compared with 2.2.2 as it compiles them, except
  // for the named differences in mesh and height-field compilation
  // (reference.h), which the Deviation tests below measure and which are
  // compared with MuJoCo 3.3.8 by the MuJoCo3.Fields tests.
  MjModelPtr ref = load_reference_unadjusted(path);
  ASSERT_TRUE(ref);
  const Model m = load_model(path);
  adopt_mesh_compilation(*ref, m);
  adopt_hfield_geom_sizes(*ref, m);
  const mjModel& r = *ref;
  FieldReport report(model_test_name(path));
  const auto theirs = [&r](const char* name) {
    const std::optional<std::vector<double>> values =
        name[0] == 'o' && name[1] == 'p' ? opt_field(r.opt, name) : reference_field(&r, name);
    EXPECT_TRUE(values) << "MuJoCo 2.2.2 has no field " << name;
    return values.value_or(std::vector<double>());
  };

  std::vector<int> ours_sizes, their_sizes;
  for (const char* size : kSizes) {
    ours_sizes.push_back(static_cast<int>(pliant_field(m, size)[0]));
    their_sizes.push_back(static_cast<int>(theirs(size)[0]));
  }
  report.ints("counts", ours_sizes, their_sizes);
  if (::testing::Test::HasFailure()) return;

  // Bodies whose mass comes from mesh files get the mesh tolerance.
  const bool any_mesh =
      std::find(m.geoms.type.begin(), m.geoms.type.end(), GeomType::kMesh) != m.geoms.type.end();
  const double mass_tolerance = any_mesh ? kMeshTolerance : kTolerance;
  for (const char* name : kIntegerFields) {
    report.ints(name, as_ints(pliant_field(m, name)), as_ints(theirs(name)));
  }
  for (const char* name : kRealFields) {
    report.reals(name, pliant_field(m, name), theirs(name), kTolerance);
  }
  for (const char* name : kQuaternionFields) {
    report.quats(name, pliant_field(m, name), theirs(name), kTolerance);
  }
  for (const char* name : kMassFields) {
    report.reals(name, pliant_field(m, name), theirs(name), mass_tolerance);
  }
  {
    const int nbody = r.nbody;
    std::vector<Vector3d> inertia(nbody);
    std::vector<Quaterniond> iquat(nbody);
    for (int i = 0; i < nbody; ++i) {
      inertia[i] = Vector3d(r.body_inertia + 3 * i);
      const mjtNum* q = r.body_iquat + 4 * i;
      iquat[i] = Quaterniond(q[0], q[1], q[2], q[3]);
    }
    report.reals("body_inertia (tensor)", body_tensors(m.bodies.inertia, m.bodies.iquat),
                 body_tensors(inertia, iquat), mass_tolerance);
  }

  // What 2.2.2 names or codes otherwise.
  const mjOption& ro = r.opt;
  report.ints("opt_disableflags, opt_enableflags",
              {disable_bits_222(m.options.flags), enable_bits_222(m.options.flags)},
              {ro.disableflags, ro.enableflags});
  report.ints("opt_collision", {static_cast<int>(m.options.collision)}, {ro.collision});
  report.reals("opt_apirate, opt_mpr_tolerance", {m.options.apirate, m.options.mpr_tolerance},
               {ro.apirate, ro.mpr_tolerance}, kTolerance);
  // The convex iteration limit: 2.2.2's mpr_iterations defaults to 50,
  // 3.3.8's ccd_iterations (which Pliant follows) to 35.
  report.ints("opt_mpr_iterations", {m.options.mpr_iterations},
              {ro.mpr_iterations == 50 ? 35 : ro.mpr_iterations});
  // Pliant uses MuJoCo 3.x's mjtDyn codes; 2.2.2 had no filterexact, so its
  // muscle is 3 where 3.x (and Pliant) give 4.
  std::vector<int> dyntype_222 = codes(m.actuators.dyn_type);
  for (int& code : dyntype_222) {
    if (code == static_cast<int>(DynamicsType::kMuscle)) code = 3;
  }
  report.ints("actuator_dyntype", dyntype_222, ints_of(r.actuator_dyntype, r.nu));
  report.ints("eq_active0 (2.2.2: eq_active)", as_ints(pliant_field(m, "eq_active0")),
              bytes_of(r.eq_active, r.neq));
  std::vector<int> signatures;
  for (int i = 0; i < m.excludes.count(); ++i) {
    signatures.push_back(((m.excludes.body1[i] + 1) << 16) + m.excludes.body2[i] + 1);
  }
  report.ints("exclude_signature", signatures, ints_of(r.exclude_signature, r.nexclude));

  report.print();
}

// The named difference in height-field geom size (reference.h): with hfield
// size (x, y, z_top, z_bottom) = (30, 30, 5, 0.1) in the quadruped, MuJoCo
// 2.2.2 gives geom_size z = (z_top + z_bottom) / 2 = 2.55 and 3.3.8 (and
// Pliant) z_top / 4 + z_bottom / 2 = 1.3; its rbound is 0 in 2.2.2 and the
// half-diagonal 42.7 in 3.3.8 and Pliant.
TEST(Deviation, HfieldGeomSizeFollowsMuJoCo3) {
  const std::string path = std::string(PLIANT_TEST_MODELS) + "/dm_control/quadruped.xml";
  const Model m = load_model(path);
  MjModelPtr ref = load_reference_unadjusted(path);
  ASSERT_TRUE(ref);
  int checked = 0;
  for (int g = 0; g < m.geoms.count(); ++g) {
    if (m.geoms.type[g] != GeomType::kHfield) continue;
    const Vector4d& h = m.hfields.size[m.geoms.data_id[g]];
    EXPECT_NEAR(m.geoms.size[g][2], h[2] / 4 + h[3] / 2, 1e-12);
    EXPECT_NEAR(ref->geom_size[3 * g + 2], (h[2] + h[3]) / 2, 1e-12);
    EXPECT_NEAR(ref->geom_size[3 * g + 2] - m.geoms.size[g][2], 1.25, 1e-12);
    EXPECT_NEAR(m.geoms.rbound[g], std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]), 1e-12);
    EXPECT_EQ(ref->geom_rbound[g], 0);
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

// The named difference in mesh compilation (reference.h): MuJoCo 3.3.8 (and
// Pliant) gives a mesh geom the mass of its volume, 2.2.2 that of its
// equivalent-inertia box. Measured here as the total mass of the bodies whose
// mass comes from meshes, Pliant against 2.2.2.
TEST(Deviation, MeshMassFollowsMuJoCo3) {
  struct Case {
    std::string path;
    double ratio;  // Pliant / MuJoCo 2.2.2, measured
  };
  const std::string models = std::string(PLIANT_TEST_MODELS) + "/menagerie/";
  for (const Case& c : {Case{models + "robotiq_2f85/2f85.xml", 1.0543},
                        Case{models + "wonik_allegro/right_hand.xml", 1.2144}}) {
    const Model m = load_model(c.path);
    MjModelPtr ref = load_reference_unadjusted(c.path);
    ASSERT_TRUE(ref);
    std::vector<bool> mesh_body(m.body_count(), false);
    for (int g = 0; g < m.geoms.count(); ++g) {
      if (m.geoms.type[g] == GeomType::kMesh) mesh_body[m.geoms.body[g]] = true;
    }
    double ours = 0, theirs = 0;
    for (int b = 1; b < m.body_count(); ++b) {
      if (!mesh_body[b]) continue;
      ours += m.bodies.mass[b];
      theirs += ref->body_mass[b];
    }
    std::cout << c.path << ": mesh bodies " << ours << " kg in Pliant and 3.3.8, " << theirs
              << " kg in MuJoCo 2.2.2 (ratio " << ours / theirs << ")\n";
    EXPECT_NEAR(ours / theirs, c.ratio, 1e-3) << c.path;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, ModelConformance, ::testing::ValuesIn(conformance_models()),
                         [](const auto& info) { return model_test_name(info.param); });

}  // namespace
}  // namespace pliant::conformance
