#pragma once

#include <string>

#include "model/spec.h"

namespace pliant {

// Model attachment (MuJoCo 3.x's <asset><model> and <attach>): a sub-model
// is parsed from its own file, with its own compiler settings and default
// classes, and then a body of it (with its subtree) or its whole world is
// copied into the model that attaches it. Every name of the sub-model gets
// the attachment's prefix; its assets, tendons, equalities, contact pairs and
// exclusions, actuators, sensors and keyframes come along, after the
// attaching model's own. An element of the sub-model that names something
// outside the attached part fails to load, as in MuJoCo 3.3.8.

// Where an asset file named `file` is, for a model compiled from `spec`:
// with `strippath`, only the file's own name is kept; an absolute name is
// itself; otherwise it is looked for in `directory` when given (an attached
// model's asset, in its own model's directory), else in `subdir` (the
// compiler's meshdir or texturedir; assetdir when empty) relative to the
// model's directory.
std::string asset_path(const ModelSpec& spec, const std::string& file, const std::string& subdir,
                       const std::string& directory = "");

// Makes a parsed sub-model independent of the settings of the model that
// will attach it: file assets keep the directory their names are relative
// to (the attaching model's `strippath` still shortens the names, as in
// MuJoCo 3.3.8), unnamed file assets take the name of their file, and the
// compiler settings read at compile time (the angle unit, autolimits, the
// default mesh inertia) are folded into its elements.
void prepare_submodel(ModelSpec& submodel);

// Attaches the body named `body` of `submodel` (its world's contents when
// `body` is empty or "world") into `target`, placed by `frame`, with every
// name prefixed by `prefix`; the elements outside the body tree are appended
// to `attached` (its keyframes with actuator offsets relative to
// `attached.actuators`). The attached root bodies are marked with
// `attachment`, a number of the caller's. Fails at `where` when the body
// does not exist.
void attach_submodel(const ModelSpec& submodel, const std::string& body, const std::string& prefix,
                     const Pose& frame, const SourceLocation& where, int attachment,
                     BodySpec& target, ModelSpec& attached);

}  // namespace pliant
