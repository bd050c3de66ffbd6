#pragma once

// The field table of Data: every array, one line each, as in
// pliant/model_fields.h: X(name, member, rows, columns, unit, doc), X for
// MuJoCo's mjData name and layout, OWN for Pliant's own. Rows and columns
// are sizes of the model (PLIANT_MODEL_SIZES) or of the current step
// (PLIANT_DATA_SIZES), or numbers. Spatial vectors are (angular; linear),
// com-based, as MuJoCo's cvel and cacc; xfrc_applied is (torque; force) at
// each body's centre of mass (MuJoCo's is force first: Python's
// data.xfrc_applied shows MuJoCo's order).
//
// Data's constructor allocates every array from this table; `pliant dump
// --fields`, the Python properties, docs/fields.md and the tests that walk
// every field come from it too.

#include <span>
#include <string>
#include <vector>

#include "pliant/data.h"
#include "pliant/model_fields.h"

// Sizes that change from step to step: X(name, expression over `d`, doc).
#define PLIANT_DATA_SIZES(X)                                                \
  X(ncon, static_cast<int>(d.contacts.size()), "contacts of the last step") \
  X(nefc, d.efc.count(), "constraint rows of the last step")                \
  X(nJ, static_cast<int>(d.efc.J.size()), "stored entries of the constraint Jacobian")

#define PLIANT_DATA_FIELDS(X, OWN)                                                               \
  X(qpos, qpos, nq, 1, "m or rad", "position")                                                   \
  X(qvel, qvel, nv, 1, "m/s or rad/s", "velocity")                                               \
  X(act, act, na, 1, "", "actuator activation")                                                  \
  X(ctrl, ctrl, nu, 1, "", "control")                                                            \
  X(qacc_warmstart, qacc_warmstart, nv, 1, "m/s^2 or rad/s^2", "solver warm start")              \
  X(qfrc_applied, qfrc_applied, nv, 1, "N or N m", "applied generalised force")                  \
  OWN(xfrc_applied, xfrc_applied, nbody, 6, "N m, N", "applied torque and force at the COM")     \
  X(mocap_pos, mocap_pos, nmocap, 3, "m", "mocap body positions")                                \
  X(mocap_quat, mocap_quat, nmocap, 4, "", "mocap body orientations")                            \
  X(xpos, xpos, nbody, 3, "m", "body frame position")                                            \
  X(xquat, xquat, nbody, 4, "", "body frame orientation")                                        \
  X(xmat, xmat, nbody, 9, "", "body frame orientation")                                          \
  X(xipos, xipos, nbody, 3, "m", "centre of mass position")                                      \
  X(ximat, ximat, nbody, 9, "", "principal inertia axes")                                        \
  X(xanchor, xanchor, njnt, 3, "m", "joint anchor")                                              \
  X(xaxis, xaxis, njnt, 3, "", "joint axis")                                                     \
  X(geom_xpos, geom_xpos, ngeom, 3, "m", "geom position")                                        \
  X(geom_xmat, geom_xmat, ngeom, 9, "", "geom orientation")                                      \
  X(site_xpos, site_xpos, nsite, 3, "m", "site position")                                        \
  X(site_xmat, site_xmat, nsite, 9, "", "site orientation")                                      \
  X(cam_xpos, cam_xpos, ncam, 3, "m", "camera position")                                         \
  X(cam_xmat, cam_xmat, ncam, 9, "", "camera orientation")                                       \
  X(light_xpos, light_xpos, nlight, 3, "m", "light position")                                    \
  X(light_xdir, light_xdir, nlight, 3, "", "light direction")                                    \
  X(subtree_com, subtree_com, nbody, 3, "m", "centre of mass of each subtree")                   \
  X(cinert, cinert, nbody, 10, "kg m^2, kg m, kg", "com-based body inertia")                     \
  X(crb, crb, nbody, 10, "kg m^2, kg m, kg", "com-based composite inertia")                      \
  X(cdof, cdof, nv, 6, "", "com-based motion axis of each dof")                                  \
  X(ten_length, ten_length, ntendon, 1, "m", "tendon length")                                    \
  X(ten_J, ten_J, ntendon, nv, "", "tendon Jacobian")                                            \
  X(actuator_length, actuator_length, nu, 1, "m or rad", "actuator length")                      \
  X(actuator_moment, actuator_moment, nu, nv, "", "actuator moment arms")                        \
  OWN(actuator_moment_begin, actuator_moment_begin, nu, 1, "", "first non-zero dof of a moment") \
  OWN(actuator_moment_end, actuator_moment_end, nu, 1, "", "past the last non-zero dof")         \
  X(qM, qM, nM, 1, "kg or kg m^2", "sparse mass matrix")                                         \
  X(qLD, qLD, nM, 1, "", "L^T D L factor of qM")                                                 \
  X(qLDiagInv, qLDiagInv, nv, 1, "", "1 / diagonal of D")                                        \
  X(cvel, cvel, nbody, 6, "rad/s, m/s", "com-based body velocity")                               \
  X(cdof_dot, cdof_dot, nv, 6, "", "time derivative of cdof")                                    \
  X(ten_velocity, ten_velocity, ntendon, 1, "m/s", "tendon velocity")                            \
  X(actuator_velocity, actuator_velocity, nu, 1, "m/s or rad/s", "actuator velocity")            \
  X(qfrc_bias, qfrc_bias, nv, 1, "N or N m", "Coriolis, centrifugal and gravity force")          \
  X(qfrc_passive, qfrc_passive, nv, 1, "N or N m", "springs, dampers, fluid, gravity comp.")     \
  X(qfrc_gravcomp, qfrc_gravcomp, nv, 1, "N or N m", "gravity compensation")                     \
  X(qfrc_fluid, qfrc_fluid, nv, 1, "N or N m", "fluid forces")                                   \
  X(actuator_force, actuator_force, nu, 1, "N or N m", "actuator force")                         \
  X(qfrc_actuator, qfrc_actuator, nv, 1, "N or N m", "actuator generalised force")               \
  X(act_dot, act_dot, na, 1, "1/s", "activation time derivative")                                \
  X(qfrc_smooth, qfrc_smooth, nv, 1, "N or N m", "net force before constraints")                 \
  X(qacc_smooth, qacc_smooth, nv, 1, "m/s^2 or rad/s^2", "acceleration before constraints")      \
  X(qfrc_constraint, qfrc_constraint, nv, 1, "N or N m", "constraint force")                     \
  X(qacc, qacc, nv, 1, "m/s^2 or rad/s^2", "acceleration")                                       \
  X(qfrc_inverse, qfrc_inverse, nv, 1, "N or N m", "force that produces qacc (inverse)")         \
  X(cacc, cacc, nbody, 6, "rad/s^2, m/s^2", "com-based body acceleration")                       \
  OWN(cfrc_body, cfrc_body, nbody, 6, "N m, N", "com-based body force of the bias pass")         \
  X(sensordata, sensordata, nsensordata, 1, "", "sensor values")                                 \
  X(subtree_linvel, subtree_linvel, nbody, 3, "m/s", "linear velocity of each subtree's COM")    \
  X(subtree_angmom, subtree_angmom, nbody, 3, "kg m^2/s", "angular momentum about it")           \
  X(cfrc_int, cfrc_int, nbody, 6, "N m, N", "com-based force from the parent")                   \
  X(cfrc_ext, cfrc_ext, nbody, 6, "N m, N", "com-based external force")                          \
  X(efc_type, efc.type, nefc, 1, "", "mjtConstraint")                                            \
  X(efc_id, efc.id, nefc, 1, "", "equality, dof, joint, tendon or contact id")                   \
  X(efc_pos, efc.pos, nefc, 1, "m or rad", "violation (distance for contacts)")                  \
  X(efc_margin, efc.margin, nefc, 1, "m or rad", "margin")                                       \
  X(efc_frictionloss, efc.frictionloss, nefc, 1, "N or N m", "friction loss")                    \
  X(efc_diagApprox, efc.diag_approx, nefc, 1, "", "approximate diagonal of J M^-1 J^T")          \
  X(efc_R, efc.R, nefc, 1, "", "regulariser")                                                    \
  X(efc_D, efc.D, nefc, 1, "", "inverse regulariser")                                            \
  X(efc_KBIP, efc.impedance, nefc, 4, "", "stiffness, damping, impedance, its derivative")       \
  X(efc_vel, efc.vel, nefc, 1, "m/s or rad/s", "J qvel")                                         \
  X(efc_aref, efc.aref, nefc, 1, "m/s^2 or rad/s^2", "reference acceleration")                   \
  X(efc_force, efc.force, nefc, 1, "N or N m", "constraint force")                               \
  X(efc_J_rownnz, efc.row_nnz, nefc, 1, "", "stored entries of each Jacobian row")               \
  X(efc_J_rowadr, efc.row_adr, nefc, 1, "", "first stored entry of each row")                    \
  X(efc_J_colind, efc.col, nJ, 1, "", "dof of each stored entry")                                \
  X(efc_J, efc.J, nJ, 1, "", "stored Jacobian entries, row by row")

namespace pliant {

// The sizes of the last step (PLIANT_DATA_SIZES).
struct DataSizes {
#define PLIANT_DECLARE_DATA_SIZE(name, expression, doc) int name = 0;
  PLIANT_DATA_SIZES(PLIANT_DECLARE_DATA_SIZE)
#undef PLIANT_DECLARE_DATA_SIZE
  DataSizes() = default;
  explicit DataSizes(const Data& data);
};
std::span<const SizeInfo> data_size_infos();

std::span<const FieldInfo> data_field_infos();
int find_data_field(const std::string& name);
// True when the field's rows change from step to step (contacts, rows).
bool data_field_varies(int index);

FieldShape data_field_shape(const Data& data, int index);
// The values of field `index`, row by row in MuJoCo's layout.
std::vector<double> read_data_field(const Data& data, int index);
// Writes field `index` from `count` values in that layout; throws
// std::invalid_argument, changing nothing, when count is not its size.
void write_data_field(Data& data, int index, const double* values, long count);
// The field's first value when its memory holds the values in that layout
// (a view can share it), else nullptr.
double* data_field_values(Data& data, int index);

// Gives every array of `data` its size for `model`, zero-filled (rotations
// the identity). Data's constructor calls it.
void allocate_data_fields(const Model& model, Data& data);

}  // namespace pliant
