#include "model/element_parsers.h"

#include <cmath>

#include "model/element_reading.h"
#include "model/exact_rotation.h"
#include "model/orientation.h"

namespace pliant {
namespace {

void read_solref(AttributeReader& reader, const std::string& name, SolRef& solref) {
  std::vector<double> v;
  if (!reader.read_numbers(name, v, 1, 2)) return;
  solref.timeconst = v[0];
  if (v.size() > 1) solref.dampratio = v[1];
}

void read_solimp(AttributeReader& reader, const std::string& name, SolImp& solimp) {
  std::vector<double> v;
  if (!reader.read_numbers(name, v, 1, 5)) return;
  double* fields[] = {&solimp.dmin, &solimp.dmax, &solimp.width, &solimp.midpoint, &solimp.power};
  for (size_t i = 0; i < v.size(); ++i) *fields[i] = v[i];
}

void read_fromto(AttributeReader& reader, std::optional<std::array<double, 6>>& fromto) {
  Eigen::Matrix<double, 6, 1> v;
  if (reader.read("fromto", v)) {
    fromto = std::array<double, 6>{v[0], v[1], v[2], v[3], v[4], v[5]};
  }
}

// The geom's type by its MJCF name; an unknown name lists the known ones.
void read_geom_type(AttributeReader& reader, GeomType& type) {
  const std::optional<std::string> value = reader.text("type");
  if (!value || geom_type_from_name(*value, type)) return;
  std::string accepted;
  for (int k = 0; k <= static_cast<int>(GeomType::kMesh); ++k) {
    accepted += accepted.empty() ? "" : ", ";
    accepted += geom_type_name(static_cast<GeomType>(k));
  }
  reader.fail("attribute 'type' of <" + reader.node().name + "> is '" + *value +
              "'; accepted: " + accepted);
}

void reject_negative(AttributeReader& reader, const std::string& name, double value) {
  if (value < 0) {
    reader.fail("attribute '" + name + "' of <" + reader.node().name +
                "> must not be negative (got " + std::to_string(value) + ")");
  }
}

}  // namespace

void parse_geom(AttributeReader& reader, const CompilerSettings& compiler, GeomSpec& geom) {
  reader.read("name", geom.name);
  reader.has("class");
  read_geom_type(reader, geom.type);
  reader.read("contype", geom.contype);
  reader.read("conaffinity", geom.conaffinity);
  reader.read("condim", geom.condim);
  if (geom.condim != 1 && geom.condim != 3 && geom.condim != 4 && geom.condim != 6) {
    reader.fail("attribute 'condim' of <geom> is " + std::to_string(geom.condim) +
                "; accepted: 1, 3, 4, 6");
  }
  reader.read("group", geom.group);
  reader.read("priority", geom.priority);
  std::vector<double> size;
  if (reader.read_numbers("size", size, 1, 3)) {
    for (size_t i = 0; i < size.size(); ++i) {
      reject_negative(reader, "size", size[i]);
      geom.size[i] = size[i];
    }
    geom.size_given = static_cast<int>(size.size());
  }
  read_fromto(reader, geom.fromto);
  reader.read("pos", geom.pos);
  if (auto quat = read_orientation(reader, compiler)) geom.quat = *quat;
  double mass = 0;
  if (reader.read("mass", mass)) {
    reject_negative(reader, "mass", mass);
    geom.mass = mass;
  }
  if (reader.read("density", geom.density)) reject_negative(reader, "density", geom.density);
  read_partial(reader, "friction", geom.friction, 3);
  reader.read("solmix", geom.solmix);
  reader.read("margin", geom.margin);
  reader.read("gap", geom.gap);
  read_solref(reader, "solref", geom.solref);
  read_solimp(reader, "solimp", geom.solimp);
  reader.read("rgba", geom.rgba);
  reader.read("material", geom.material);
  reader.read("mesh", geom.mesh);
  reader.read("hfield", geom.hfield);
  if (reader.read("fitscale", geom.fitscale)) reject_negative(reader, "fitscale", geom.fitscale);
  reader.read_bool("shellinertia", geom.shell);
  reader.read_keyword("fluidshape", geom.fluid_ellipsoid, {{"none", false}, {"ellipsoid", true}});
  reader.read("fluidcoef", geom.fluidcoef);
  read_user_data(reader, geom.user);
  reader.finish();
}

void parse_site(AttributeReader& reader, const CompilerSettings& compiler, SiteSpec& site) {
  reader.read("name", site.name);
  reader.has("class");
  read_geom_type(reader, site.type);
  reader.read("group", site.group);
  std::vector<double> size;
  if (reader.read_numbers("size", size, 1, 3)) {
    for (size_t i = 0; i < size.size(); ++i) {
      reject_negative(reader, "size", size[i]);
      site.size[i] = size[i];
    }
  }
  read_fromto(reader, site.fromto);
  reader.read("pos", site.pos);
  if (auto quat = read_orientation(reader, compiler)) site.quat = *quat;
  reader.read("rgba", site.rgba);
  reader.read("material", site.material);
  read_user_data(reader, site.user);
  reader.finish();
}

void parse_joint(AttributeReader& reader, JointSpec& joint) {
  reader.read("name", joint.name);
  reader.has("class");
  reader.read_keyword("type", joint.type,
                      {{"free", JointType::kFree},
                       {"ball", JointType::kBall},
                       {"slide", JointType::kSlide},
                       {"hinge", JointType::kHinge}});
  reader.read("group", joint.group);
  reader.read("pos", joint.pos);
  reader.read("axis", joint.axis);
  if (reader.read("range", joint.range)) joint.range_given = true;
  read_tristate(reader, "limited", joint.limited);
  reader.read("ref", joint.ref);
  reader.read("springref", joint.springref);
  reader.read("stiffness", joint.stiffness);
  if (reader.read("damping", joint.damping)) reject_negative(reader, "damping", joint.damping);
  if (reader.read("armature", joint.armature)) reject_negative(reader, "armature", joint.armature);
  if (reader.read("frictionloss", joint.frictionloss)) {
    reject_negative(reader, "frictionloss", joint.frictionloss);
  }
  reader.read("margin", joint.margin);
  read_solref(reader, "solreflimit", joint.solref_limit);
  read_solimp(reader, "solimplimit", joint.solimp_limit);
  read_solref(reader, "solreffriction", joint.solref_friction);
  read_solimp(reader, "solimpfriction", joint.solimp_friction);
  if (reader.read("actuatorfrcrange", joint.actuatorfrcrange)) {
    joint.actuatorfrcrange_given = true;
  }
  read_tristate(reader, "actuatorfrclimited", joint.actuatorfrclimited);
  reader.read_bool("actuatorgravcomp", joint.actuatorgravcomp);
  reader.read("springdamper", joint.springdamper);
  read_user_data(reader, joint.user);
  reader.finish();
}

namespace {
int read_tracking_mode(AttributeReader& reader, int mode) {
  reader.read_keyword(
      "mode", mode,
      {{"fixed", 0}, {"track", 1}, {"trackcom", 2}, {"targetbody", 3}, {"targetbodycom", 4}});
  return mode;
}
}  // namespace

void parse_camera(AttributeReader& reader, const CompilerSettings& compiler, CameraSpec& camera) {
  reader.read("name", camera.name);
  reader.has("class");
  camera.mode = read_tracking_mode(reader, camera.mode);
  reader.read("target", camera.target);
  reader.read("pos", camera.pos);
  if (auto quat = read_orientation(reader, compiler)) camera.quat = *quat;
  const bool fovy = reader.read("fovy", camera.fovy);
  reader.read("ipd", camera.ipd);
  reader.read_bool("orthographic", camera.orthographic);
  const bool resolution = reader.read("resolution", camera.resolution);
  const bool sensorsize = reader.read("sensorsize", camera.sensorsize);
  const bool focal = reader.read("focal", camera.focal);
  const bool principal = reader.read("principal", camera.principal);
  const bool focalpixel = reader.read("focalpixel", camera.focalpixel);
  const bool principalpixel = reader.read("principalpixel", camera.principalpixel);
  camera.has_focal = focal || camera.has_focal;
  camera.has_focalpixel = focalpixel || camera.has_focalpixel;
  camera.has_principalpixel = principalpixel || camera.has_principalpixel;
  // One element describes its lens one way, as MuJoCo 3.3.8 requires.
  if (fovy && sensorsize) reader.fail("<camera> takes 'fovy' or 'sensorsize', not both");
  if (sensorsize && !resolution) {
    reader.fail("<camera> with 'sensorsize' needs 'resolution' (the sensor's pixels)");
  }
  if ((focal || principal || focalpixel || principalpixel) && !sensorsize) {
    reader.fail(
        "<camera> 'focal', 'principal', 'focalpixel' and 'principalpixel' need 'sensorsize' "
        "(and 'resolution') on the same element");
  }
  read_user_data(reader, camera.user);
  reader.finish();
}

void parse_light(AttributeReader& reader, LightSpec& light) {
  reader.read("name", light.name);
  reader.has("class");
  light.mode = read_tracking_mode(reader, light.mode);
  reader.read("target", light.target);
  // MuJoCo 3.x names the kind of light by `type`; `directional` is the
  // older spelling of type="directional" (type wins where both are given).
  bool directional = false;
  if (reader.read_bool("directional", directional)) light.type = directional ? 1 : 0;
  reader.read_keyword("type", light.type,
                      {{"spot", 0}, {"directional", 1}, {"point", 2}, {"image", 3}});
  reader.read_bool("castshadow", light.castshadow);
  reader.read_bool("active", light.active);
  reader.read("pos", light.pos);
  reader.read("dir", light.dir);
  reader.read("attenuation", light.attenuation);
  reader.read("cutoff", light.cutoff);
  reader.read("exponent", light.exponent);
  reader.read("ambient", light.ambient);
  reader.read("diffuse", light.diffuse);
  reader.read("specular", light.specular);
  // MuJoCo 3.x's physically based light: compiled into the model as 3.3.8
  // compiles it; the viewer, like MuJoCo's classic renderer, shades with
  // the classic model.
  reader.read("texture", light.texture);
  reader.read("bulbradius", light.bulbradius);
  reader.read("intensity", light.intensity);
  reader.read("range", light.range);
  reader.finish();
}

void parse_inertial(AttributeReader& reader, const CompilerSettings& compiler,
                    InertialSpec& inertial) {
  if (!reader.read("pos", inertial.pos)) reader.fail("<inertial> needs 'pos'");
  if (auto quat = read_orientation(reader, compiler)) inertial.quat = *quat;
  if (!reader.read("mass", inertial.mass)) reader.fail("<inertial> needs 'mass'");
  reject_negative(reader, "mass", inertial.mass);
  Vector3d diagonal;
  Eigen::Matrix<double, 6, 1> full;
  const bool has_diagonal = reader.read("diaginertia", diagonal);
  const bool has_full = reader.read("fullinertia", full);
  if (has_diagonal == has_full) {
    reader.fail(
        "<inertial> needs exactly one of 'diaginertia' (3 numbers) and 'fullinertia' "
        "(6 numbers: ixx iyy izz ixy ixz iyz)");
  }
  if (has_diagonal) {
    for (int i = 0; i < 3; ++i) reject_negative(reader, "diaginertia", diagonal[i]);
    inertial.diaginertia = diagonal;
    return reader.finish();
  }
  if (reader.has("quat") || reader.has("axisangle") || reader.has("euler") ||
      reader.has("xyaxes") || reader.has("zaxis")) {
    reader.fail("<inertial> with 'fullinertia' takes no orientation: the tensor gives it");
  }
  // Diagonalise the symmetric tensor the way MuJoCo 2.2.2 does, so the
  // principal frame is the same; its eigenvectors give the frame.
  Eigen::Matrix3d tensor;
  tensor << full[0], full[3], full[4], full[3], full[1], full[5], full[4], full[5], full[2];
  Vector3d principal;
  Eigen::Quaterniond frame;
  eigen_decompose_symmetric3(tensor, &principal, &frame);
  if (principal.minCoeff() < 0) {
    reader.fail("'fullinertia' of <inertial> must be positive semi-definite");
  }
  inertial.diaginertia = principal;
  inertial.quat = frame;
  reader.finish();
}

void parse_mesh(AttributeReader& reader, MeshSpec& mesh) {
  reader.read("name", mesh.name);
  reader.has("class");
  reader.read("file", mesh.file);
  reader.read("scale", mesh.scale);
  reader.read_numbers("vertex", mesh.vertex, 0, 1 << 30);
  reader.read_integers("face", mesh.face, 0, 1 << 30);
  // Accepted, not used by Pliant: texture coordinates, normals and
  // smoothing belong to rendering.
  reader.has("texcoord");
  reader.has("normal");
  reader.has("smoothnormal");
  reader.has("material");
  reader.has("params");
  reader.read("refpos", mesh.refpos);
  Vector4d refquat;
  if (reader.read("refquat", refquat)) {
    if (refquat.norm() < 1e-15) reader.fail("attribute 'refquat' of <mesh> must not be zero");
    mesh.refquat = Quaterniond(refquat[0], refquat[1], refquat[2], refquat[3]).normalized();
  }
  reader.read_keyword("inertia", mesh.inertia,
                      {{"legacy", std::string("legacy")},
                       {"convex", std::string("convex")},
                       {"exact", std::string("exact")},
                       {"shell", std::string("shell")}});
  if (reader.read("maxhullvert", mesh.maxhullvert) && mesh.maxhullvert != -1 &&
      mesh.maxhullvert < 4) {
    reader.fail("attribute 'maxhullvert' of <mesh> is " + std::to_string(mesh.maxhullvert) +
                "; accepted: -1 (no limit) or an integer of at least 4");
  }
  reader.read_keyword("content_type", mesh.format,
                      {{"model/stl", std::string("stl")},
                       {"model/obj", std::string("obj")},
                       {"model/vnd.mujoco.msh", std::string("msh")}});
  if (reader.has("builtin")) {
    reader.fail(
        "built-in meshes (<mesh builtin=...>) are not supported by Pliant yet; give "
        "the mesh as a file or as inline vertex data");
  }
  reader.finish();
}

void parse_texture(AttributeReader& reader, TextureSpec& texture) {
  reader.read("name", texture.name);
  reader.read_keyword("type", texture.type, {{"2d", 0}, {"cube", 1}, {"skybox", 2}});
  reader.read("file", texture.file);
  reader.read_keyword("builtin", texture.builtin,
                      {{"none", std::string("none")},
                       {"gradient", std::string("gradient")},
                       {"checker", std::string("checker")},
                       {"flat", std::string("flat")}});
  reader.read("rgb1", texture.rgb1);
  reader.read("rgb2", texture.rgb2);
  reader.read("width", texture.width);
  reader.read("height", texture.height);
  // A cube or skybox may come from six files, one a side.
  for (size_t k = 0; k < kTextureSides.size(); ++k) {
    reader.read(kTextureSides[k], texture.side_files[k]);
  }
  // Visual details accepted and not used by the engine.
  for (const char* name : {"mark", "markrgb", "random", "gridsize", "gridlayout", "hflip", "vflip",
                           "content_type", "colorspace", "nchannel"}) {
    reader.has(name);
  }
  reader.finish();
}

void parse_material(AttributeReader& reader, MaterialSpec& material) {
  reader.read("name", material.name);
  reader.has("class");
  reader.read("texture", material.texture);
  reader.read("texrepeat", material.texrepeat);
  reader.read_bool("texuniform", material.texuniform);
  reader.read("emission", material.emission);
  reader.read("specular", material.specular);
  reader.read("shininess", material.shininess);
  reader.read("reflectance", material.reflectance);
  reader.read("rgba", material.rgba);
  // Physically based shading (MuJoCo 3.x): compiled into the model as 3.3.8
  // compiles it; the viewer shades with the classic model.
  reader.read("metallic", material.metallic);
  reader.read("roughness", material.roughness);
  reader.finish();
}

void parse_hfield(AttributeReader& reader, HfieldSpec& hfield) {
  reader.read("name", hfield.name);
  reader.read("file", hfield.file);
  reader.read("size", hfield.size);
  reader.read("nrow", hfield.nrow);
  reader.read("ncol", hfield.ncol);
  reader.read_numbers("elevation", hfield.elevation, 1, std::numeric_limits<int>::max());
  reader.read_keyword(
      "content_type", hfield.format,
      {{"image/png", std::string("png")}, {"image/vnd.mujoco.hfield", std::string("binary")}});
  reader.finish();
}

void parse_tendon(AttributeReader& reader, TendonSpec& tendon, bool visual) {
  reader.read("name", tendon.name);
  reader.has("class");
  reader.read("group", tendon.group);
  read_tristate(reader, "limited", tendon.limited);
  if (reader.read("range", tendon.range)) tendon.range_given = true;
  reader.read("margin", tendon.margin);
  reader.read("stiffness", tendon.stiffness);
  reader.read("damping", tendon.damping);
  reader.read("frictionloss", tendon.frictionloss);
  std::vector<double> springlength;
  if (reader.read_numbers("springlength", springlength, 1, 2)) {
    tendon.springlength = Vector2d(springlength[0], springlength.back());
    if (springlength.size() == 2 && springlength[0] > springlength[1]) {
      reader.fail("'springlength' is a dead band [low, high] and needs low <= high");
    }
  }
  if (visual) reader.read("width", tendon.width);
  read_solref(reader, "solreflimit", tendon.solref_limit);
  read_solimp(reader, "solimplimit", tendon.solimp_limit);
  read_solref(reader, "solreffriction", tendon.solref_friction);
  read_solimp(reader, "solimpfriction", tendon.solimp_friction);
  if (visual) {
    reader.read("rgba", tendon.rgba);
    reader.has("material");
  }
  if (reader.read("armature", tendon.armature))
    reject_negative(reader, "armature", tendon.armature);
  if (reader.read("actuatorfrcrange", tendon.actuatorfrcrange)) {
    tendon.actuatorfrcrange_given = true;
  }
  read_tristate(reader, "actuatorfrclimited", tendon.actuatorfrclimited);
  read_user_data(reader, tendon.user);
  reader.finish();
}

void parse_equality(AttributeReader& reader, const CompilerSettings& compiler,
                    EqualitySpec& equality) {
  (void)compiler;
  reader.read("name", equality.name);
  reader.has("class");
  reader.read_bool("active", equality.active);
  read_solref(reader, "solref", equality.solref);
  read_solimp(reader, "solimp", equality.solimp);
  const std::string& kind = reader.node().name;
  if (kind == "connect" || kind == "weld") {
    reader.read("body1", equality.obj1);
    reader.read("body2", equality.obj2);
    const bool anchor = reader.read("anchor", equality.anchor);
    if (kind == "connect" && !equality.obj1.empty() && !anchor && !reader.node().find("site1")) {
      reader.fail("<connect> with 'body1' needs 'anchor' (the point in body1's frame)");
    }
    // MuJoCo 3.x: the two sites' frames, instead of bodies and an anchor.
    std::string site1, site2;
    const bool has_site1 = reader.read("site1", site1), has_site2 = reader.read("site2", site2);
    if (has_site1 || has_site2) {
      if (!has_site1 || !has_site2) {
        reader.fail("<" + kind + "> with sites needs both 'site1' and 'site2'");
      }
      if (!equality.obj1.empty() || !equality.obj2.empty() || reader.has("anchor")) {
        reader.fail("<" + kind + "> takes either body1/body2/anchor or site1/site2, not both");
      }
      equality.sites = true;
      equality.obj1 = site1;
      equality.obj2 = site2;
    }
  }
  if (kind == "weld") {
    Eigen::Matrix<double, 7, 1> pose;
    if (reader.read("relpose", pose)) {
      equality.relpose =
          std::array<double, 7>{pose[0], pose[1], pose[2], pose[3], pose[4], pose[5], pose[6]};
    }
    reader.read("torquescale", equality.torquescale);
  }
  if (kind == "joint") {
    reader.read("joint1", equality.obj1);
    reader.read("joint2", equality.obj2);
  }
  if (kind == "tendon") {
    reader.read("tendon1", equality.obj1);
    reader.read("tendon2", equality.obj2);
  }
  if (kind == "joint" || kind == "tendon") read_partial(reader, "polycoef", equality.polycoef, 5);
  reader.finish();
}

void parse_pair(AttributeReader& reader, PairSpec& pair) {
  reader.read("name", pair.name);
  reader.has("class");
  reader.read("geom1", pair.geom1);
  reader.read("geom2", pair.geom2);
  reader.read("condim", pair.condim);
  if (pair.condim != 1 && pair.condim != 3 && pair.condim != 4 && pair.condim != 6) {
    reader.fail("attribute 'condim' of <pair> is " + std::to_string(pair.condim) +
                "; accepted: 1, 3, 4, 6");
  }
  read_partial(reader, "friction", pair.friction, 5);
  read_solref(reader, "solref", pair.solref);
  read_solimp(reader, "solimp", pair.solimp);
  reader.read("margin", pair.margin);
  reader.read("gap", pair.gap);
  read_solref(reader, "solreffriction", pair.solreffriction);
  reader.finish();
}

void parse_option(AttributeReader& reader, Options& options) {
  if (reader.read("timestep", options.timestep) && options.timestep <= 0) {
    reader.fail("attribute 'timestep' of <option> must be positive");
  }
  reader.read("apirate", options.apirate);
  reader.read("impratio", options.impratio);
  reader.read("tolerance", options.tolerance);
  reader.read("noslip_tolerance", options.noslip_tolerance);
  reader.read("mpr_tolerance", options.mpr_tolerance);
  // MuJoCo 3.x's names for the convex collision tolerance and iterations.
  reader.read("ccd_tolerance", options.mpr_tolerance);
  reader.read("gravity", options.gravity);
  reader.read("wind", options.wind);
  reader.read("magnetic", options.magnetic);
  reader.read("density", options.density);
  reader.read("viscosity", options.viscosity);
  reader.read("o_margin", options.o_margin);
  read_solref(reader, "o_solref", options.o_solref);
  read_solimp(reader, "o_solimp", options.o_solimp);
  read_partial(reader, "o_friction", options.o_friction, 5);
  reader.read_keyword("integrator", options.integrator,
                      {{"Euler", Integrator::kEuler},
                       {"RK4", Integrator::kRk4},
                       {"implicit", Integrator::kImplicit},
                       {"implicitfast", Integrator::kImplicitFast}});
  reader.read_keyword("collision", options.collision,
                      {{"all", CollisionMode::kAll},
                       {"predefined", CollisionMode::kPair},
                       {"dynamic", CollisionMode::kDynamic}});
  reader.read_keyword("cone", options.cone,
                      {{"pyramidal", Cone::kPyramidal}, {"elliptic", Cone::kElliptic}});
  reader.read_keyword("jacobian", options.jacobian,
                      {{"dense", JacobianLayout::kDense},
                       {"sparse", JacobianLayout::kSparse},
                       {"auto", JacobianLayout::kAuto}});
  reader.read_keyword(
      "solver", options.solver,
      {{"PGS", SolverType::kPgs}, {"CG", SolverType::kCg}, {"Newton", SolverType::kNewton}});
  reader.read("iterations", options.iterations);
  reader.read("ls_iterations", options.ls_iterations);
  reader.read("ls_tolerance", options.ls_tolerance);
  reader.read("noslip_iterations", options.noslip_iterations);
  reader.read("mpr_iterations", options.mpr_iterations);
  reader.read("ccd_iterations", options.mpr_iterations);
  if (options.iterations < 0 || options.noslip_iterations < 0 || options.mpr_iterations < 0 ||
      options.ls_iterations < 0) {
    reader.fail("iteration counts of <option> must not be negative");
  }
  if (!(options.ls_tolerance >= 0)) reader.fail("ls_tolerance of <option> must not be negative");
  reader.accept_unused("sdf_iterations", "Pliant has no SDF collisions (plugins)");
  reader.accept_unused("sdf_initpoints", "Pliant has no SDF collisions (plugins)");
  std::vector<int> disabled_groups;
  if (reader.read_integers("actuatorgroupdisable", disabled_groups, 1, 31)) {
    options.disableactuator = 0;
    for (int group : disabled_groups) {
      if (group < 0 || group > 30) {
        reader.fail("'actuatorgroupdisable' lists group " + std::to_string(group) +
                    "; accepted: actuator groups 0 to 30");
      }
      options.disableactuator |= 1 << group;
    }
  }
  reader.finish();
}

void parse_option_flags(AttributeReader& reader, OptionFlags& flags) {
  auto read_flag = [&](const char* name, bool& on) {
    reader.read_keyword(name, on, {{"enable", true}, {"disable", false}});
  };
  read_flag("constraint", flags.constraint);
  read_flag("equality", flags.equality);
  read_flag("frictionloss", flags.frictionloss);
  read_flag("limit", flags.limit);
  read_flag("contact", flags.contact);
  read_flag("spring", flags.spring);
  read_flag("damper", flags.damper);
  // MuJoCo 2.x's single switch for both.
  bool passive = true;
  if (reader.read_keyword("passive", passive, {{"enable", true}, {"disable", false}})) {
    flags.spring = flags.damper = passive;
  }
  read_flag("gravity", flags.gravity);
  read_flag("clampctrl", flags.clampctrl);
  read_flag("warmstart", flags.warmstart);
  read_flag("filterparent", flags.filterparent);
  read_flag("actuation", flags.actuation);
  read_flag("refsafe", flags.refsafe);
  read_flag("sensor", flags.sensor);
  read_flag("override", flags.override_contacts);
  read_flag("energy", flags.energy);
  read_flag("fwdinv", flags.fwdinv);
  read_flag("sensornoise", flags.sensornoise);
  read_flag("multiccd", flags.multiccd);
  read_flag("eulerdamp", flags.eulerdamp);
  read_flag("autoreset", flags.autoreset);
  read_flag("midphase", flags.midphase);
  read_flag("nativeccd", flags.nativeccd);
  read_flag("island", flags.island);
  read_flag("invdiscrete", flags.invdiscrete);
  reader.finish();
}

void parse_compiler(AttributeReader& reader, CompilerSettings& compiler) {
  reader.read_keyword("angle", compiler.degrees, {{"degree", true}, {"radian", false}});
  if (reader.read("eulerseq", compiler.eulerseq)) {
    const std::string& s = compiler.eulerseq;
    bool valid = s.size() == 3;
    for (char c : s) valid = valid && std::string("xyzXYZ").find(c) != std::string::npos;
    if (!valid) reader.fail("attribute 'eulerseq' must be three letters from xyzXYZ");
  }
  reader.read("meshdir", compiler.meshdir);
  reader.read("texturedir", compiler.texturedir);
  reader.read("assetdir", compiler.assetdir);
  reader.read_bool("autolimits", compiler.autolimits);
  reader.read_keyword("inertiafromgeom", compiler.inertiafromgeom,
                      {{"false", InertiaFromGeom::kFalse},
                       {"true", InertiaFromGeom::kTrue},
                       {"auto", InertiaFromGeom::kAuto}});
  std::vector<int> range;
  if (reader.read_integers("inertiagrouprange", range, 2, 2)) {
    compiler.inertiagrouprange = {range[0], range[1]};
  }
  reader.read("settotalmass", compiler.settotalmass);
  reader.read("boundmass", compiler.boundmass);
  reader.read("boundinertia", compiler.boundinertia);
  reader.read_bool("balanceinertia", compiler.balanceinertia);
  reader.read_bool("strippath", compiler.strippath);
  reader.read_bool("exactmeshinertia", compiler.exactmeshinertia);
  std::string coordinate;
  if (reader.read("coordinate", coordinate) && coordinate != "local") {
    reader.fail("coordinate=\"" + coordinate +
                "\" is not supported; Pliant reads local coordinates only (coordinate=\"local\")");
  }
  bool flag = false;
  reader.read_bool("fusestatic", compiler.fusestatic);
  reader.read_bool("alignfree", compiler.alignfree);
  // `pliant save` writes every body's compiled inertial whatever this says:
  // it writes the compiled model, which must load back to the same numbers.
  reader.read_bool("saveinertial", flag);
  // Accepted without effect on the simulation.
  reader.read_bool("discardvisual", flag);
  reader.read_bool("convexhull", flag);
  reader.read_bool("usethread", flag);
  reader.read_bool("fitaabb", compiler.fitaabb);
  reader.finish();
}

}  // namespace pliant
