#include "model/fuse_static.h"

#include <utility>
#include <vector>

namespace pliant {
namespace {

// A pose (p, q) applied to points and frames given in the fused body.
struct Pose {
  Vector3d pos;
  Quaterniond quat;
  Vector3d point(const Vector3d& v) const { return pos + quat * v; }
  Quaterniond frame(const Quaterniond& q) const { return quat * q; }
};

bool is_static(const BodySpec& body) { return body.joints.empty() && !body.mocap; }

// Moves the contents of `child` (already in the parent's frame through
// `pose`) into `parent`.
void move_contents(BodySpec& parent, BodySpec& child, const Pose& pose, bool geoms_carry_mass) {
  // Geoms and sites keep their own frame (fromto, mesh offsets are applied
  // in it by the compiler) and gain the fused body's pose on top.
  for (GeomSpec& g : child.geoms) {
    if (!g.fused) g.fused_mass = geoms_carry_mass;
    g.fused = true;
    g.fused_pos = pose.point(g.fused_pos);
    g.fused_quat = pose.frame(g.fused_quat);
    parent.geoms.push_back(std::move(g));
  }
  for (SiteSpec& s : child.sites) {
    s.fused = true;
    s.fused_pos = pose.point(s.fused_pos);
    s.fused_quat = pose.frame(s.fused_quat);
    parent.sites.push_back(std::move(s));
  }
  for (CameraSpec& c : child.cameras) {
    c.pos = pose.point(c.pos);
    c.quat = pose.frame(c.quat);
    parent.cameras.push_back(std::move(c));
  }
  for (LightSpec& l : child.lights) {
    l.pos = pose.point(l.pos);
    l.dir = pose.quat * l.dir;
    parent.lights.push_back(std::move(l));
  }
  for (InertialSpec& i : child.fused_inertials) {
    i.pos = pose.point(i.pos);
    i.quat = pose.frame(i.quat);
    parent.fused_inertials.push_back(std::move(i));
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
    // Which of the child's geoms carry its mass (MuJoCo's inertiafromgeom).
    const bool explicit_inertial =
        child.inertial && compiler.inertiafromgeom != InertiaFromGeom::kTrue;
    const bool geoms_carry_mass =
        compiler.inertiafromgeom == InertiaFromGeom::kTrue ||
        (compiler.inertiafromgeom == InertiaFromGeom::kAuto && !child.inertial);
    if (explicit_inertial) {
      InertialSpec inertial = *child.inertial;
      inertial.pos = pose.point(inertial.pos);
      inertial.quat = pose.frame(inertial.quat);
      parent.fused_inertials.push_back(inertial);
    }
    move_contents(parent, child, pose, geoms_carry_mass);
    fused_names.push_back(child.name);
    std::vector<BodySpec> grandchildren = std::move(child.children);
    for (BodySpec& g : grandchildren) {
      g.pos = pose.point(g.pos);
      g.quat = pose.frame(g.quat);
    }
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
