// <worldbody> of save_xml: the body tree in id order (depth first, as the
// compiler numbers it), each body with its inertial, joints, geoms, sites,
// cameras and lights in id order, every attribute explicit.

#include <algorithm>
#include <vector>

#include "model/reload_inputs.h"
#include "model/save_parts.h"

namespace pliant::save {
namespace {

// What each body holds beyond its joints and geoms (which the model lists
// per body already).
struct BodyContents {
  std::vector<std::vector<int>> children, sites, cameras, lights;
  explicit BodyContents(const Model& m)
      : children(m.body_count()),
        sites(m.body_count()),
        cameras(m.body_count()),
        lights(m.body_count()) {
    for (int b = 1; b < m.body_count(); ++b) children[m.bodies.parent[b]].push_back(b);
    for (int i = 0; i < m.sites.count(); ++i) sites[m.sites.body[i]].push_back(i);
    for (int i = 0; i < m.cameras.count(); ++i) cameras[m.cameras.body[i]].push_back(i);
    for (int i = 0; i < m.lights.count(); ++i) lights[m.lights.body[i]].push_back(i);
  }
};

// A pose: pos always, quat written so that loading gives it back exactly.
void set_frame(XmlElement& e, const Vector3d& pos, const Quaterniond& quat) {
  e.set("pos", pos).set("quat", frame_quat_to_write(quat));
}

const char* joint_keyword(JointType type) {
  switch (type) {
    case JointType::kFree:
      return "free";
    case JointType::kBall:
      return "ball";
    case JointType::kSlide:
      return "slide";
    case JointType::kHinge:
      return "hinge";
  }
  return "hinge";
}

// Camera and light tracking modes, by MuJoCo's mjtCamLight code.
const char* tracking_keyword(int mode) {
  static const char* kModes[] = {"fixed", "track", "trackcom", "targetbody", "targetbodycom"};
  return mode >= 0 && mode < 5 ? kModes[mode] : "fixed";
}

// The body's mass and inertia as the compiler set them; left out when all
// are zero at the body's origin, which is what a body without <inertial>
// gets under inertiafromgeom="false".
void write_inertial(const Model& m, int b, XmlElement& body) {
  const Bodies& t = m.bodies;
  const bool origin = t.ipos[b].isZero(0) && t.iquat[b].w() == 1 && t.iquat[b].vec().isZero(0);
  if (origin && t.mass[b] == 0 && t.inertia[b].isZero(0)) return;
  XmlElement& e = body.add("inertial");
  set_frame(e, t.ipos[b], t.iquat[b]);
  e.set("mass", t.mass[b]).set("diaginertia", t.inertia[b]);
}

// A joint with its dofs' parameters (one joint's dofs share them, as the
// compiler gives them) and its reference and spring positions in qpos0
// and qpos_spring.
void write_joint(const Model& m, int j, XmlElement& body) {
  const Joints& t = m.joints;
  const Dofs& d = m.dofs;
  const int dof = t.dof_adr[j];
  XmlElement& e = body.add("joint");
  set_user(e, m.joints.user, j);
  e.set_name(t.name[j]);
  e.set("type", joint_keyword(t.type[j])).set("group", t.group[j]);
  e.set("pos", t.pos[j]).set("axis", unit_vector_to_write(t.axis[j]));
  e.set_bool("limited", t.limited[j]).set("range", t.range[j]).set("margin", t.margin[j]);
  if (t.type[j] == JointType::kHinge || t.type[j] == JointType::kSlide) {
    e.set("ref", m.qpos0[t.qpos_adr[j]]).set("springref", m.qpos_spring[t.qpos_adr[j]]);
  }
  // With springdamper the loader sets stiffness and damping from the
  // joint's inertia, as it did the first time.
  const bool springdamper = t.springdamper[j][0] > 0 && t.springdamper[j][1] > 0;
  if (springdamper) {
    e.set("springdamper", t.springdamper[j]);
  } else {
    e.set("stiffness", t.stiffness[j]).set("damping", d.damping[dof]);
  }
  e.set("armature", d.armature[dof]).set("frictionloss", d.frictionloss[dof]);
  set_solref(e, "solreflimit", t.solref[j]);
  set_solimp(e, "solimplimit", t.solimp[j]);
  set_solref(e, "solreffriction", d.solref[dof]);
  set_solimp(e, "solimpfriction", d.solimp[dof]);
  e.set_bool("actuatorfrclimited", t.actfrc_limited[j]).set("actuatorfrcrange", t.actfrc_range[j]);
  e.set_bool("actuatorgravcomp", t.actgravcomp[j]);
}

// A geom: a mesh geom's frame is written so that composing it with the
// mesh's principal frame gives the compiled one; mesh and height field
// geoms take their size from their asset. A primitive fitted to a mesh is
// written as the plain primitive it became.
void write_geom(const Model& m, int g, XmlElement& body) {
  const Geoms& t = m.geoms;
  XmlElement& e = body.add("geom");
  set_user(e, m.geoms.user, g);
  e.set_name(t.name[g]);
  e.set("type", geom_type_name(t.type[g]));
  if (t.type[g] == GeomType::kMesh) {
    const int mesh = t.data_id[g];
    Vector3d pos;
    Quaterniond quat;
    mesh_geom_frame_to_write(t.pos[g], t.quat[g], m.meshes.frame_pos[mesh],
                             m.meshes.frame_quat[mesh], pos, quat);
    e.set("mesh", required_name(m, ObjectType::kMesh, mesh, "mesh"));
    e.set("pos", pos).set("quat", quat);
  } else if (t.type[g] == GeomType::kHfield) {
    e.set("hfield", required_name(m, ObjectType::kHfield, t.data_id[g], "hfield"));
    set_frame(e, t.pos[g], t.quat[g]);
  } else {
    e.set("size", t.size[g]);
    set_frame(e, t.pos[g], t.quat[g]);
  }
  e.set("contype", t.contype[g])
      .set("conaffinity", t.conaffinity[g])
      .set("condim", t.condim[g])
      .set("group", t.group[g])
      .set("priority", t.priority[g])
      .set("friction", t.friction[g])
      .set("solmix", t.solmix[g]);
  set_solref(e, "solref", t.solref[g]);
  set_solimp(e, "solimp", t.solimp[g]);
  e.set("margin", t.margin[g]).set("gap", t.gap[g]).set("rgba", t.rgba[g]);
  if (t.material[g] >= 0) {
    e.set("material", required_name(m, ObjectType::kMaterial, t.material[g], "material"));
  }
  if (t.fluid[g][0] > 0) {
    e.set("fluidshape", "ellipsoid").set("fluidcoef", Vector5d(t.fluid[g].segment<5>(1)));
  }
}

void write_site(const Model& m, int s, XmlElement& body) {
  const Sites& t = m.sites;
  XmlElement& e = body.add("site");
  set_user(e, m.sites.user, s);
  e.set_name(t.name[s]);
  e.set("type", geom_type_name(t.type[s])).set("group", t.group[s]).set("size", t.size[s]);
  set_frame(e, t.pos[s], t.quat[s]);
  e.set("rgba", t.rgba[s]);
  if (t.material[s] >= 0) {
    e.set("material", required_name(m, ObjectType::kMaterial, t.material[s], "material"));
  }
}

// A camera with its intrinsics as compiled: the focal length and principal
// point in metres (never pixels) with the sensor size, or else fovy.
void write_camera(const Model& m, int c, XmlElement& body) {
  const Cameras& t = m.cameras;
  XmlElement& e = body.add("camera");
  set_user(e, m.cameras.user, c);
  e.set_name(t.name[c]);
  e.set("mode", tracking_keyword(t.mode[c]));
  if (t.target_body[c] >= 0) {
    e.set("target", required_name(m, ObjectType::kBody, t.target_body[c], "body"));
  }
  set_frame(e, t.pos[c], t.quat[c]);
  e.set("ipd", t.ipd[c]).set_bool("orthographic", t.orthographic[c] != 0);
  e.set("resolution", t.resolution[c]);
  if (t.sensorsize[c][1] <= 0) {
    e.set("fovy", t.fovy[c]);
    return;
  }
  e.set("sensorsize", t.sensorsize[c])
      .set("focal", Vector2d(t.intrinsic[c].head<2>()))
      .set("principal", Vector2d(t.intrinsic[c].tail<2>()));
}

void write_light(const Model& m, int l, XmlElement& body) {
  const Lights& t = m.lights;
  XmlElement& e = body.add("light");
  e.set_name(t.name[l]);
  e.set("mode", tracking_keyword(t.mode[l]));
  if (t.target_body[l] >= 0) {
    e.set("target", required_name(m, ObjectType::kBody, t.target_body[l], "body"));
  }
  static const char* const kTypes[] = {"spot", "directional", "point", "image"};
  e.set("type", kTypes[std::clamp(t.type[l], 0, 3)]);
  if (t.texture[l] >= 0) {
    e.set("texture", required_name(m, ObjectType::kTexture, t.texture[l], "texture"));
  }
  e.set_bool("castshadow", t.castshadow[l])
      .set_bool("active", t.active[l])
      .set("pos", t.pos[l])
      .set("dir", unit_vector_to_write(t.dir[l]))
      .set("attenuation", t.attenuation[l])
      .set("cutoff", t.cutoff[l])
      .set("exponent", t.exponent[l])
      .set("ambient", t.ambient[l])
      .set("diffuse", t.diffuse[l])
      .set("specular", t.specular[l])
      .set("intensity", t.intensity[l])
      .set("range", t.range[l])
      .set("bulbradius", t.bulbradius[l]);
}

// The elements of body b (the world: b = 0) and, recursively, its children.
void write_contents(const Model& m, const BodyContents& contents, int b, XmlElement& e) {
  const Bodies& t = m.bodies;
  if (b > 0) write_inertial(m, b, e);
  for (int j = t.joint_adr[b]; j >= 0 && j < t.joint_adr[b] + t.joint_count[b]; ++j) {
    write_joint(m, j, e);
  }
  for (int g = t.geom_adr[b]; g >= 0 && g < t.geom_adr[b] + t.geom_count[b]; ++g) {
    write_geom(m, g, e);
  }
  for (int s : contents.sites[b]) write_site(m, s, e);
  for (int c : contents.cameras[b]) write_camera(m, c, e);
  for (int l : contents.lights[b]) write_light(m, l, e);
  for (int child : contents.children[b]) {
    XmlElement& body = e.add("body");
    body.set_name(t.name[child]);
    set_frame(body, t.pos[child], t.quat[child]);
    if (t.mocap[child] >= 0) body.set_bool("mocap", true);
    if (t.gravcomp[child] != 0) body.set("gravcomp", t.gravcomp[child]);
    set_user(body, t.user, child);
    write_contents(m, contents, child, body);
  }
}

}  // namespace

void write_worldbody(const Model& model, XmlElement& root) {
  const BodyContents contents(model);
  write_contents(model, contents, 0, root.add("worldbody"));
}

}  // namespace pliant::save
