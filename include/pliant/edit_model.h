#pragma once

// An editable model: change a model's parameters between steps (domain
// randomisation: masses, inertias, geom sizes and friction, solref/solimp,
// damping, stiffness, gains and biases, ctrl ranges, timestep, gravity,
// ...) and recompute what depends on them, as a writable mjModel with
// mj_setConst.
//
//   pliant::Model model = pliant::load_model("robot.xml");
//   const int mass = pliant::find_model_field("body_mass");
//   std::vector<double> m = pliant::read_model_field(model, mass);
//   m[3] *= 1.2;
//   pliant::edit_model_field(model, mass, m.data(), m.size());
//   pliant::set_const(model);  // subtree masses, inverse weights, acc0, ...
//   // the next step (any Data made for this model) sees the new mass
//
// The model's structure is not editable this way: sizes (nq, nbody, ...),
// ids and addresses (body_parentid, jnt_qposadr, ...), types (geom_type,
// actuator_dyntype, ...) and the data collision caches are built from
// (mesh_vert, mesh_face, hfield_data). Changing those means loading another
// model; edit_model_field refuses them and says so.

#include "pliant/model.h"

namespace pliant {

// "" when array `index` of the model table (pliant/model_fields.h) is a
// parameter edit_model_field may write, else why not (one sentence).
std::string model_field_not_editable(int index);

// Writes a parameter array from `count` values in the table's layout (as
// write_model_field). Throws std::invalid_argument, changing nothing, for a
// structural field, a wrong count, a NaN or infinite value, a negative
// mass, inertia, armature, damping, friction loss or geom size, or an integer
// field given a value outside its codes (condim 1, 3, 4 or 6; flags 0 or 1;
// contype and conaffinity non-negative integers). Constants that depend on
// it are not recomputed: call set_const.
void edit_model_field(Model& model, int index, const double* values, long count);

// The same for an option (opt_timestep, opt_gravity, ...): any option but
// the statistics; enums take their MuJoCo codes.
void edit_model_option(Model& model, int index, const double* values, long count);

// Recomputes the constants that depend on parameters, at qpos0 (MuJoCo's
// mj_setConst): body_subtreemass, the simple-body classes, body, dof and
// tendon inverse weights, stat.meaninertia, tendon and actuator lengths at
// qpos0 (tendon spring lengths left unset), actuator acc0 and the damping of
// position actuators given a dampratio, and the parameter warnings. Actuator
// length ranges are kept (MuJoCo's mj_setLengthRange is separate). Like
// MuJoCo, geom_rbound is not recomputed from geom_size: write it too when a
// geom grows.
void set_const(Model& model);

}  // namespace pliant
