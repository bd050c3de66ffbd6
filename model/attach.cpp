#include "model/attach.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "pliant/load_error.h"

namespace pliant {
namespace {

void prefix_name(std::string& name, const std::string& prefix) {
  if (!name.empty()) name = prefix + name;
}

// Prefixes every name in a body tree, and every asset or body it names.
void prefix_body(BodySpec& body, const std::string& prefix) {
  prefix_name(body.name, prefix);
  for (JointSpec& j : body.joints) prefix_name(j.name, prefix);
  for (GeomSpec& g : body.geoms) {
    for (std::string* s : {&g.name, &g.mesh, &g.material, &g.hfield}) prefix_name(*s, prefix);
  }
  for (SiteSpec& s : body.sites) {
    prefix_name(s.name, prefix);
    prefix_name(s.material, prefix);
  }
  for (CameraSpec& c : body.cameras) {
    prefix_name(c.name, prefix);
    prefix_name(c.target, prefix);
  }
  for (LightSpec& l : body.lights) {
    prefix_name(l.name, prefix);
    prefix_name(l.target, prefix);
    prefix_name(l.texture, prefix);
  }
  for (BodySpec& child : body.children) prefix_body(child, prefix);
}

// The joints of a body tree in the compiler's order (bodies depth first).
void collect_joints(const BodySpec& body, std::vector<const JointSpec*>& out) {
  for (const JointSpec& j : body.joints) out.push_back(&j);
  for (const BodySpec& child : body.children) collect_joints(child, out);
}

void collect_mocap(const BodySpec& body, std::vector<const BodySpec*>& out) {
  if (body.mocap) out.push_back(&body);
  for (const BodySpec& child : body.children) collect_mocap(child, out);
}

// Marks the first joint and the first mocap body of a tree (depth first).
void mark_first(BodySpec& root, int attachment) {
  bool joint_marked = false, mocap_marked = false;
  const std::function<void(BodySpec&)> visit = [&](BodySpec& body) {
    if (!mocap_marked && body.mocap) {
      body.attachment = attachment;
      mocap_marked = true;
    }
    if (!joint_marked && !body.joints.empty()) {
      body.joints.front().attachment = attachment;
      joint_marked = true;
    }
    for (BodySpec& child : body.children) visit(child);
  };
  visit(root);
}

int qpos_size(JointType type) {
  return type == JointType::kFree ? 7 : type == JointType::kBall ? 4 : 1;
}

const BodySpec* find_body(const BodySpec& body, const std::string& name) {
  if (body.name == name) return &body;
  for (const BodySpec& child : body.children) {
    if (const BodySpec* found = find_body(child, name)) return found;
  }
  return nullptr;
}

// The values of an attached run of elements in a keyframe array: `sizes`
// are the elements' sizes in the sub-model's order, [first, first + count)
// the attached ones. A short array gives what it covers.
std::optional<std::vector<double>> slice(const std::optional<std::vector<double>>& flat,
                                         const std::vector<int>& sizes, size_t first,
                                         size_t count) {
  if (!flat) return std::nullopt;
  size_t begin = 0, end = 0;
  for (size_t k = 0; k < first + count && k < sizes.size(); ++k) {
    if (k < first) begin += sizes[k];
    end += sizes[k];
  }
  begin = std::min(begin, flat->size());
  end = std::min(end, flat->size());
  return std::vector<double>(flat->begin() + begin, flat->begin() + end);
}

template <typename T>
size_t index_of(const std::vector<const T*>& all, const std::vector<const T*>& part) {
  if (part.empty()) return 0;
  return std::find(all.begin(), all.end(), part.front()) - all.begin();
}

// A keyframe of the sub-model, cut to the attached part: the attached joints
// and mocap bodies are a contiguous run in the sub-model's order (a subtree,
// or the whole world) and stay one in the attaching model's, where the
// compiler places the run at the attachment's first joint and mocap body.
// Every actuator comes along, placed at `actuator_offset`.
KeyframeSpec attach_keyframe(const ModelSpec& submodel, const KeyframeSpec& key,
                             const std::vector<const JointSpec*>& attached_joints,
                             const std::vector<const BodySpec*>& attached_mocap,
                             const std::string& prefix, int attachment, int actuator_offset) {
  KeyframeSpec out = key;
  if (!out.name.empty()) out.name = prefix + out.name;
  out.attachment = attachment;
  out.actuator_offset = actuator_offset;
  std::vector<const JointSpec*> joints;
  collect_joints(submodel.world, joints);
  std::vector<int> qpos_sizes, qvel_sizes;
  for (const JointSpec* j : joints) {
    qpos_sizes.push_back(qpos_size(j->type));
    qvel_sizes.push_back(joint_dof_count(j->type));
  }
  const size_t first = index_of(joints, attached_joints);
  out.qpos = slice(key.qpos, qpos_sizes, first, attached_joints.size());
  out.qvel = slice(key.qvel, qvel_sizes, first, attached_joints.size());
  std::vector<const BodySpec*> mocap;
  collect_mocap(submodel.world, mocap);
  const size_t first_mocap = index_of(mocap, attached_mocap);
  out.mpos = slice(key.mpos, std::vector<int>(mocap.size(), 3), first_mocap, attached_mocap.size());
  out.mquat =
      slice(key.mquat, std::vector<int>(mocap.size(), 4), first_mocap, attached_mocap.size());
  return out;
}

void fold_limited(TriState& limited, bool range_given) {
  if (limited == TriState::kAuto) limited = range_given ? TriState::kTrue : TriState::kFalse;
}

void fold_body_settings(BodySpec& body, const CompilerSettings& compiler) {
  for (JointSpec& j : body.joints) {
    j.degrees = j.degrees.value_or(compiler.degrees);
    if (compiler.autolimits) {
      fold_limited(j.limited, j.range_given);
      fold_limited(j.actuatorfrclimited, j.actuatorfrcrange_given);
    }
  }
  for (BodySpec& child : body.children) fold_body_settings(child, compiler);
}

}  // namespace

std::string asset_path(const ModelSpec& spec, const std::string& file, const std::string& subdir,
                       const std::string& directory) {
  namespace fs = std::filesystem;
  fs::path name(file);
  if (spec.compiler.strippath) name = name.filename();
  if (name.is_absolute()) return name.string();
  fs::path dir(directory);
  if (dir.empty()) {
    dir = subdir.empty() ? spec.compiler.assetdir : subdir;
    if (!dir.is_absolute()) dir = fs::path(spec.directory) / dir;
  }
  return (dir / name).lexically_normal().string();
}

void prepare_submodel(ModelSpec& s) {
  namespace fs = std::filesystem;
  // The directory a relative file name is looked in (a nested attachment's
  // assets keep theirs).
  const auto keep_directory = [&s](const std::string& file, std::string& directory,
                                   const std::string& subdir) {
    if (file.empty() || !directory.empty()) return;
    fs::path dir(subdir.empty() ? s.compiler.assetdir : subdir);
    if (!dir.is_absolute()) dir = fs::path(s.directory) / dir;
    directory = dir.lexically_normal().string();
  };
  const auto from_file = [](std::string& name, const std::string& file) {
    if (name.empty() && !file.empty()) name = fs::path(file).stem().string();
  };
  for (MeshSpec& mesh : s.meshes) {
    from_file(mesh.name, mesh.file);
    keep_directory(mesh.file, mesh.directory, s.compiler.meshdir);
    if (mesh.inertia.empty()) mesh.inertia = s.compiler.exactmeshinertia ? "exact" : "legacy";
  }
  for (TextureSpec& texture : s.textures) {
    from_file(texture.name, texture.file);
    keep_directory(texture.file, texture.directory, s.compiler.texturedir);
  }
  for (HfieldSpec& hfield : s.hfields) {
    from_file(hfield.name, hfield.file);
    keep_directory(hfield.file, hfield.directory, s.compiler.meshdir);
  }
  fold_body_settings(s.world, s.compiler);
  if (s.compiler.autolimits) {
    for (TendonSpec& t : s.tendons) fold_limited(t.limited, t.range_given);
    for (ActuatorSpec& a : s.actuators) {
      fold_limited(a.ctrllimited, a.ctrlrange_given);
      fold_limited(a.forcelimited, a.forcerange_given);
      fold_limited(a.actlimited, a.actrange_given);
    }
  }
}

namespace {

// The world's elements join `target`, placed by `frame`; its bodies become
// target's children.
void place_world_elements(BodySpec& world, const Pose& frame, int attachment, BodySpec& target) {
  for (GeomSpec g : world.geoms) {
    frame.place(g.pos, g.quat);
    frame.place(g.fromto);
    target.geoms.push_back(std::move(g));
  }
  for (SiteSpec s : world.sites) {
    frame.place(s.pos, s.quat);
    frame.place(s.fromto);
    target.sites.push_back(std::move(s));
  }
  for (CameraSpec c : world.cameras) {
    frame.place(c.pos, c.quat);
    target.cameras.push_back(std::move(c));
  }
  for (LightSpec l : world.lights) {
    l.pos = frame.point(l.pos);
    l.dir = frame.quat * l.dir;
    target.lights.push_back(std::move(l));
  }
  mark_first(world, attachment);
  for (BodySpec child : world.children) {
    frame.place(child.pos, child.quat);
    target.children.push_back(std::move(child));
  }
}

// The sub-model's assets, tendons, equalities, contact pairs, actuators and
// sensors join `attached`, every name they give or refer to prefixed.
void append_prefixed(const ModelSpec& submodel, const std::string& prefix, ModelSpec& attached) {
  const auto append = [&](const auto& from, auto& to, auto rename) {
    for (auto element : from) {
      prefix_name(element.name, prefix);
      rename(element);
      to.push_back(std::move(element));
    }
  };
  const auto nothing = [](auto&) {};
  append(submodel.meshes, attached.meshes, nothing);
  append(submodel.textures, attached.textures, nothing);
  append(submodel.materials, attached.materials,
         [&](MaterialSpec& m) { prefix_name(m.texture, prefix); });
  append(submodel.hfields, attached.hfields, nothing);
  append(submodel.tendons, attached.tendons, [&](TendonSpec& t) {
    for (TendonPathElement& e : t.path) {
      prefix_name(e.object, prefix);
      prefix_name(e.sidesite, prefix);
    }
  });
  append(submodel.equalities, attached.equalities, [&](EqualitySpec& e) {
    prefix_name(e.obj1, prefix);
    prefix_name(e.obj2, prefix);
  });
  append(submodel.pairs, attached.pairs, [&](PairSpec& p) {
    prefix_name(p.geom1, prefix);
    prefix_name(p.geom2, prefix);
  });
  append(submodel.excludes, attached.excludes, [&](ExcludeSpec& e) {
    prefix_name(e.body1, prefix);
    prefix_name(e.body2, prefix);
  });
  append(submodel.actuators, attached.actuators, [&](ActuatorSpec& a) {
    for (std::string* s : {&a.joint, &a.jointinparent, &a.tendon, &a.site, &a.refsite,
                           &a.slidersite, &a.cranksite, &a.body}) {
      prefix_name(*s, prefix);
    }
  });
  append(submodel.sensors, attached.sensors, [&](SensorSpec& s) {
    prefix_name(s.object, prefix);
    prefix_name(s.reference, prefix);
  });
}

}  // namespace

void attach_submodel(const ModelSpec& submodel, const std::string& body, const std::string& prefix,
                     const Pose& frame, const SourceLocation& where, int attachment,
                     BodySpec& target, ModelSpec& attached) {
  const bool whole_world = body.empty() || body == "world";
  const BodySpec* root = whole_world ? &submodel.world : find_body(submodel.world, body);
  if (root == nullptr) {
    throw LoadError(where.file, where.line,
                    "<attach> names body '" + body + "', which the model '" + submodel.file +
                        "' does not have");
  }
  std::vector<const JointSpec*> joints;
  collect_joints(*root, joints);
  std::vector<const BodySpec*> mocap;
  collect_mocap(*root, mocap);

  if (whole_world) {
    BodySpec world = submodel.world;
    prefix_body(world, prefix);
    place_world_elements(world, frame, attachment, target);
  } else {
    BodySpec copy = *root;
    prefix_body(copy, prefix);
    frame.place(copy.pos, copy.quat);
    mark_first(copy, attachment);
    target.children.push_back(std::move(copy));
  }

  const int actuator_offset = static_cast<int>(attached.actuators.size());
  append_prefixed(submodel, prefix, attached);
  for (const KeyframeSpec& key : submodel.keyframes) {
    attached.keyframes.push_back(
        attach_keyframe(submodel, key, joints, mocap, prefix, attachment, actuator_offset));
  }
  attached.notes.insert(attached.notes.end(), submodel.notes.begin(), submodel.notes.end());
}

}  // namespace pliant
