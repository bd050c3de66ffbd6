#pragma once

// Pliant's public API in one header:
//
//   #include <pliant/pliant.h>
//
//   const pliant::Model model = pliant::load_model("scene.xml");  // throws pliant::LoadError
//   pliant::Data data(model);                                      // one Data per thread
//   for (int i = 0; i < 1000; ++i) pliant::step(model, data);
//
// Each header stands alone; this one includes them all:
//   load.h, load_error.h     MJCF to Model, and its errors (file, line, what)
//   save_xml.h               Model to MJCF that loads back to the same Model
//   model.h                  the compiled model's tables, options and enums
//   model_fields.h           every size, option and array of Model, by name
//   edit_model.h             change parameters between steps, set_const
//   data.h                   the state and every stage's results
//   data_fields.h            every array of Data, by name
//   contact.h, constraint_rows.h, solver_statistics.h, spatial_inertia.h,
//   profile.h                the records Data holds
//   step.h                   step and reset
//   forward.h                the stages of forward dynamics
//   integrate_position.h     qpos + h qvel on the configuration manifold, and back
//   inverse.h                inverse dynamics: the force that gives qacc
//   derivatives.h            derivatives of the step and of inverse dynamics
//   energy.h                 potential and kinetic energy
//   jacobian.h               Jacobians of points, frames, centres of mass
//   state.h                  save and restore a state (MuJoCo's mjtState)
//   ray.h                    ray casting against the geoms
//   sensor_types.h           each sensor type's element, size and stage
//   impedance.h, solver_params.h  solref/solimp and the impedance d(r)
//   tuning.h, impact.h       contact design in physical units
//   eigen_types.h            the Eigen types by short name
//   version.h                the linked library's version

#include "pliant/constraint_rows.h"
#include "pliant/contact.h"
#include "pliant/data.h"
#include "pliant/data_fields.h"
#include "pliant/derivatives.h"
#include "pliant/edit_model.h"
#include "pliant/eigen_types.h"
#include "pliant/energy.h"
#include "pliant/forward.h"
#include "pliant/impact.h"
#include "pliant/impedance.h"
#include "pliant/integrate_position.h"
#include "pliant/inverse.h"
#include "pliant/jacobian.h"
#include "pliant/load.h"
#include "pliant/load_error.h"
#include "pliant/model.h"
#include "pliant/model_fields.h"
#include "pliant/profile.h"
#include "pliant/ray.h"
#include "pliant/save_xml.h"
#include "pliant/sensor_types.h"
#include "pliant/solver_params.h"
#include "pliant/solver_statistics.h"
#include "pliant/spatial_inertia.h"
#include "pliant/state.h"
#include "pliant/step.h"
#include "pliant/tuning.h"
#include "pliant/version.h"
