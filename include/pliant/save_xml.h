#pragma once

// Writing a compiled Model back as MJCF, as MuJoCo's mj_saveLastXML does:
// loading the written text gives a Model whose every size, option, array
// (model_fields.h) and name equals this one's, so a step from either gives
// the same state bit for bit; with one limit. The loader normalises a
// written quaternion three times (read, placed in its frame, compiled), and
// some unit quaternions are the result of no such chain: an inertial frame
// from diagonalising a tensor, a mesh geom's frame composed with its mesh's
// principal frame. Those come back up to 2 ulps off (the nearest the text
// can reach), and the constants loading measures from them (inverse
// weights, acc0) within 1e-12 relative.
//
//   const pliant::Model model = pliant::load_model("robot.xml");
//   pliant::save_xml(model, "robot_compiled.xml");  // throws pliant::LoadError
//
// What is written is the compiled model, not the file it came from: every
// body with its pose and an explicit <inertial>, every element with every
// attribute (no default classes), angles in radians, limits on or off by
// name, actuators as <general>, meshes and height fields inline (with the
// vertices as the model read them), numbers in the shortest text that reads
// back to the same double (quaternions and unit axes chosen among their
// neighbours so that the loader's normalisation gives them back). Units are
// the model's: SI, radians.
//
// Not written, because MJCF cannot carry them: pair and exclude names
// (Model keeps none), Newton's Hessian factor (options.hessian_factor, set
// by code, not MJCF), a primitive geom fitted to a mesh keeps its size and
// frame but not its mesh (geom_dataid -1 after loading), values edited in a
// Model that its compiler could not have made (two dofs of one joint with
// different damping, a mesh vertex moved) and the source files' layout,
// default classes and comments.

#include <string>

#include "pliant/load_error.h"
#include "pliant/model.h"

namespace pliant {

// The model as MJCF text. Throws LoadError when the model names something
// MJCF must refer to by name and it has none (a sensor on a nameless joint:
// only an edited Model has one).
std::string to_xml(const Model& model);

// Writes to_xml(model) to `path`, replacing the file. A path that cannot be
// written (missing directory, no permission) throws LoadError naming it;
// nothing is left behind: the text goes to a temporary file beside `path`
// that is renamed over it once complete.
void save_xml(const Model& model, const std::string& path);

}  // namespace pliant
