#include "model/fuse_static.h"

#include <utility>
#include <vector>

namespace pliant {
namespace {

bool is_static(const BodySpec& body) { return body.joints.empty() && !body.mocap; }

// Moves the contents of static `child` into `parent`, placed by the child's
// `pose` in the parent. Geoms and sites keep their own frame (the compiler
// applies fromto and mesh offsets in it) and are placed by the pose on top.
// Bodies are fused top-down, so `child` holds only its own elements.
void move_contents(BodySpec& parent, BodySpec& child, const Pose& pose,
                   const CompilerSettings& compiler) {
  const bool geoms_carry_mass = takes_inertia_from_geoms(compiler, child);
  if (child.inertial && !geoms_carry_mass) {
    InertialSpec inertial = *child.inertial;
    pose.place(inertial.pos, inertial.quat);
    parent.fused_inertials.push_back(inertial);
  }
  for (GeomSpec& g : child.geoms) {
    g.fused = pose;
    g.fused_mass = geoms_carry_mass;
    parent.geoms.push_back(std::move(g));
  }
  for (SiteSpec& s : child.sites) {
    s.fused = pose;
    parent.sites.push_back(std::move(s));
  }
  for (CameraSpec& c : child.cameras) {
    pose.place(c.pos, c.quat);
    parent.cameras.push_back(std::move(c));
  }
  for (LightSpec& l : child.lights) {
    l.pos = pose.point(l.pos);
    l.dir = pose.quat * l.dir;
    parent.lights.push_back(std::move(l));
  }
}

void fuse_children(BodySpec& parent, const CompilerSettings& compiler,
                   std::vector<std::string>& fused_names) {
  std::vector<BodySpec> pending = std::move(parent.children);
  parent.children.clear();
  // Children in order; a fused child's own children take its place.
  for (size_t i = 0; i < pending.size(); ++i) {
    BodySpec& child = pending[i];
    if (!is_static(child)) {
      parent.children.push_back(std::move(child));
      continue;
    }
    const Pose pose{child.pos, child.quat.normalized()};
    move_contents(parent, child, pose, compiler);
    fused_names.push_back(child.name);
    std::vector<BodySpec> grandchildren = std::move(child.children);
    for (BodySpec& g : grandchildren) pose.place(g.pos, g.quat);
    pending.insert(pending.begin() + static_cast<long>(i) + 1,
                   std::make_move_iterator(grandchildren.begin()),
                   std::make_move_iterator(grandchildren.end()));
  }
  for (BodySpec& child : parent.children) fuse_children(child, compiler, fused_names);
}

}  // namespace

void fuse_static_bodies(ModelSpec& spec) {
  if (!spec.compiler.fusestatic) return;
  fuse_children(spec.world, spec.compiler, spec.fused_bodies);
}

}  // namespace pliant
