// An editable model (pliant/edit_model.h): parameters change between steps
// and show in the next one, set_const recomputes what depends on them, and
// the structure is refused with a reason, changing nothing.

#include "pliant/edit_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "pliant/load.h"
#include "pliant/model_fields.h"
#include "pliant/step.h"

namespace pliant {
namespace {

const char* kArm = R"(
  <mujoco><worldbody><geom type="plane" size="2 2 .1"/>
    <body name="base" pos="0 0 .5"><joint name="hinge" axis="0 1 0" damping=".1"/>
      <geom type="capsule" fromto="0 0 0 .3 0 0" size=".03"/>
      <body name="tip" pos=".3 0 0"><joint name="slide" type="slide" axis="1 0 0"/>
        <geom type="sphere" size=".05"/></body></body>
    <body pos="1 0 .2"><freejoint/><geom type="box" size=".1 .1 .1"/></body>
  </worldbody>
  <actuator><position joint="hinge" kp="10" dampratio="1"/></actuator></mujoco>)";

void edit(Model& m, const char* name, int index, double value) {
  const int field = find_model_field(name);
  std::vector<double> values = read_model_field(m, field);
  values[index] = value;
  edit_model_field(m, field, values.data(), static_cast<long>(values.size()));
}

TEST(EditModel, SetConstRecomputesWhatDependsOnTheParameters) {
  Model m = load_model_from_string(kArm);
  const Model fresh_heavy = [] {
    std::string xml = kArm;
    xml.replace(xml.find("size=\".05\"/>"), 12, "size=\".05\" mass=\"4\"/>");
    return load_model_from_string(xml);
  }();
  const int tip = m.id(ObjectType::kBody, "tip");
  edit(m, "body_mass", tip, 4);
  // The inertia scales with the mass for the same sphere.
  const double scale = 4 / load_model_from_string(kArm).bodies.mass[tip];
  for (int k = 0; k < 3; ++k) {
    edit(m, "body_inertia", 3 * tip + k, m.bodies.inertia[tip][k] * scale);
  }
  EXPECT_NE(m.bodies.subtree_mass[1], fresh_heavy.bodies.subtree_mass[1]);
  set_const(m);
  EXPECT_DOUBLE_EQ(m.bodies.subtree_mass[1], fresh_heavy.bodies.subtree_mass[1]);
  for (int i = 0; i < m.nv; ++i) {
    EXPECT_NEAR(m.dofs.invweight0[i], fresh_heavy.dofs.invweight0[i],
                1e-12 * fresh_heavy.dofs.invweight0[i]);
  }
  EXPECT_NEAR(m.stat.meaninertia, fresh_heavy.stat.meaninertia, 1e-12);
  EXPECT_NEAR(m.actuators.acc0[0], fresh_heavy.actuators.acc0[0], 1e-12);
  // dampratio was turned into damping once: set_const keeps it so.
  EXPECT_DOUBLE_EQ(m.actuators.biasprm[0][2], load_model_from_string(kArm).actuators.biasprm[0][2]);
}

TEST(EditModel, ChangesShowInTheNextStep) {
  Model m = load_model_from_string(kArm);
  Data a(m);
  for (int i = 0; i < 20; ++i) step(m, a);
  Data b(m);
  for (int i = 0; i < 20; ++i) step(m, b);
  edit(m, "geom_friction", 3, 0.05);  // the box on the floor
  edit(m, "dof_damping", 0, 3);
  const int gravity = find_model_option("opt_gravity");
  const double sideways[3] = {2, 0, -9.81};
  edit_model_option(m, gravity, sideways, 3);
  step(m, b);
  Model unchanged = load_model_from_string(kArm);
  step(unchanged, a);
  EXPECT_GT((a.qvel - b.qvel).norm(), 1e-3);
}

TEST(EditModel, StructureAndBadValuesAreRefusedAndChangeNothing) {
  Model m = load_model_from_string(kArm);
  const std::vector<double> parents = read_model_field(m, find_model_field("body_parentid"));
  for (const char* name : {"body_parentid", "jnt_qposadr", "geom_type", "actuator_dyntype"}) {
    const int field = find_model_field(name);
    EXPECT_NE(model_field_not_editable(field), "") << name;
    std::vector<double> values = read_model_field(m, field);
    EXPECT_THROW(edit_model_field(m, field, values.data(), static_cast<long>(values.size())),
                 std::invalid_argument)
        << name;
  }
  EXPECT_EQ(model_field_not_editable(find_model_field("body_mass")), "");
  const std::vector<double> mass = read_model_field(m, find_model_field("body_mass"));
  EXPECT_THROW(edit(m, "body_mass", 1, std::nan("")), std::invalid_argument);
  EXPECT_THROW(edit(m, "body_mass", 1, -1), std::invalid_argument);
  EXPECT_THROW(edit(m, "geom_condim", 0, 2), std::invalid_argument);
  EXPECT_THROW(edit(m, "jnt_limited", 0, 0.5), std::invalid_argument);
  edit(m, "geom_condim", 0, 4);
  EXPECT_EQ(m.geoms.condim[0], 4);
  const int mass_field = find_model_field("body_mass");
  EXPECT_THROW(edit_model_field(m, mass_field, mass.data(), 2), std::invalid_argument);
  EXPECT_EQ(read_model_field(m, mass_field), mass);
  EXPECT_EQ(read_model_field(m, find_model_field("body_parentid")), parents);
  const double zero = 0, seven = 7;
  EXPECT_THROW(edit_model_option(m, find_model_option("opt_timestep"), &zero, 1),
               std::invalid_argument);
  EXPECT_THROW(edit_model_option(m, find_model_option("opt_integrator"), &seven, 1),
               std::invalid_argument);
  EXPECT_THROW(edit_model_option(m, find_model_option("stat_meaninertia"), &seven, 1),
               std::invalid_argument);
}

}  // namespace
}  // namespace pliant
