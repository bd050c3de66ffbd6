#pragma once

// The model as written: what the parser reads from MJCF, with default classes
// applied and orientations resolved to quaternions, before the compiler turns
// it into a Model. Fields start at MuJoCo's defaults.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "model/exact_rotation.h"
#include "model/unit_quaternion.h"
#include "pliant/model.h"

namespace pliant {

// "false", "true" or "auto" attributes (limited, ctrllimited, ...).
enum class TriState { kFalse, kTrue, kAuto };

enum class InertiaFromGeom { kFalse, kTrue, kAuto };

struct CompilerSettings {
  bool degrees = true;           // angle="degree"
  std::string eulerseq = "xyz";  // lowercase: rotating axes, uppercase: fixed axes
  std::string meshdir, texturedir, assetdir;
  bool autolimits = true;  // MuJoCo 3.x default: a range alone turns limits on
  bool alignfree = false;  // free joints' default for align
  InertiaFromGeom inertiafromgeom = InertiaFromGeom::kAuto;
  std::array<int, 2> inertiagrouprange = {0, 5};
  double settotalmass = -1;
  double boundmass = 0;
  double boundinertia = 0;
  bool balanceinertia = false;
  bool strippath = false;
  bool exactmeshinertia = false;
  bool fitaabb = false;     // fit primitives to a mesh's bounding box, not its inertia box
  bool fusestatic = false;  // fuse bodies without joints into their parents
  LengthRangeOptions lengthrange;
};

// A rigid placement of points and frames in a body: a <frame>'s pose, or a
// static body's pose when fusestatic moves its contents to its parent.
struct Pose {
  Vector3d pos{0, 0, 0};
  Quaterniond quat = Quaterniond::Identity();
  bool identity() const { return pos.isZero(0) && quat.w() == 1 && quat.vec().isZero(0); }
  Vector3d point(const Vector3d& p) const { return pos + quat * p; }
  void place(Vector3d& p, Quaterniond& q) const {
    p = point(p);
    q = unit_as_compiler(quat_mul(quat, q));
  }
  void place(std::optional<std::array<double, 6>>& fromto) const {
    if (!fromto) return;
    auto& f = *fromto;
    const Vector3d a = point(Vector3d(f[0], f[1], f[2])), b = point(Vector3d(f[3], f[4], f[5]));
    f = {a[0], a[1], a[2], b[0], b[1], b[2]};
  }
};

struct GeomSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name;
  GeomType type = GeomType::kSphere;
  int contype = 1, conaffinity = 1, condim = 3, group = 0, priority = 0;
  Vector3d size{0, 0, 0};
  int size_given = 0;  // how many size values the user wrote
  std::optional<std::array<double, 6>> fromto;
  Vector3d pos{0, 0, 0};
  Quaterniond quat = Quaterniond::Identity();
  std::optional<double> mass;  // kg; overrides density
  double density = 1000;       // kg/m^3
  Vector3d friction{1, 0.005, 0.0001};
  double solmix = 1, margin = 0, gap = 0;
  SolRef solref;
  SolImp solimp;
  Vector4d rgba{0.5, 0.5, 0.5, 1};
  std::string material, mesh, hfield;
  double fitscale = 1;           // a primitive fitted to `mesh` is scaled by this
  bool shell = false;            // shellinertia: mass on the surface (primitives only)
  bool fluid_ellipsoid = false;  // fluidshape="ellipsoid"
  Vector5d fluidcoef{0.5, 0.25, 1.5, 1.0, 1.0};
  // Moved here from a static body by fusestatic (fuse_static.h): its frame,
  // once fromto and mesh offsets are applied, is placed by this pose in the
  // new body; its mass counts if `fused_mass` (its body took its inertia
  // from its geoms).
  std::optional<Pose> fused;
  bool fused_mass = false;
};

struct SiteSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name;
  GeomType type = GeomType::kSphere;
  int group = 0;
  Vector3d size{0.005, 0.005, 0.005};
  std::optional<std::array<double, 6>> fromto;
  Vector3d pos{0, 0, 0};
  Quaterniond quat = Quaterniond::Identity();
  Vector4d rgba{0.5, 0.5, 0.5, 1};
  std::string material;
  // Moved here from a static body by fusestatic: placed by this pose once
  // fromto is applied.
  std::optional<Pose> fused;
};

struct JointSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name;
  JointType type = JointType::kHinge;
  // <freejoint align>: move the body frame onto its inertial frame (auto:
  // <compiler alignfree>).
  TriState align = TriState::kAuto;
  int group = 0;
  Vector3d pos{0, 0, 0};
  Vector3d axis{0, 0, 1};
  Vector2d range{0, 0};
  bool range_given = false;
  TriState limited = TriState::kAuto;
  double ref = 0, springref = 0;  // as written (degrees for hinges under angle="degree")
  // The angle unit of the model the joint was written in, when it differs
  // from this one's (a joint of an attached model); unset: this model's.
  std::optional<bool> degrees;
  int attachment = -1;  // the first joint of an attachment (attach.h)
  double stiffness = 0, damping = 0, armature = 0, frictionloss = 0, margin = 0;
  // (time constant, damping ratio); both positive: stiffness and damping
  // are set from the joint's inertia at qpos0 (see Joints::springdamper).
  Vector2d springdamper{0, 0};
  SolRef solref_limit, solref_friction;
  SolImp solimp_limit, solimp_friction;
  TriState actuatorfrclimited = TriState::kAuto;
  bool actuatorfrcrange_given = false;
  Vector2d actuatorfrcrange{0, 0};
  bool actuatorgravcomp = false;
};

struct CameraSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name, target;
  int mode = 0;
  Vector3d pos{0, 0, 0};
  Quaterniond quat = Quaterniond::Identity();
  double fovy = 45;
  double ipd = 0.068;
  bool orthographic = false;
  // MuJoCo 3.x intrinsics. A non-zero sensorsize makes fovy follow from the
  // focal length; the *pixel variants, when given, are divided by resolution.
  Vector2d resolution{1, 1}, sensorsize{0, 0};
  Vector2d focal{0.01, 0.01}, principal{0, 0};
  Vector2d focalpixel{0, 0}, principalpixel{0, 0};
  bool has_focal = false, has_focalpixel = false, has_principalpixel = false;
};

struct LightSpec {
  SourceLocation where;
  std::string name, target;
  std::string texture;
  int mode = 0;
  int type = 0;  // MuJoCo's mjtLightType: 0 spot, 1 directional, 2 point, 3 image
  bool castshadow = true, active = true;
  Vector3d pos{0, 0, 0}, dir{0, 0, -1}, attenuation{1, 0, 0};
  Vector3d ambient{0, 0, 0}, diffuse{0.7, 0.7, 0.7}, specular{0.3, 0.3, 0.3};
  double cutoff = 45, exponent = 10;
  double intensity = 0, range = 10, bulbradius = 0.02;  // physically based lighting
};

struct InertialSpec {
  SourceLocation where;
  Vector3d pos{0, 0, 0};
  Quaterniond quat = Quaterniond::Identity();
  double mass = 0;
  Vector3d diaginertia{0, 0, 0};  // principal moments in the frame `quat`
};

struct BodySpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name, childclass;
  Vector3d pos{0, 0, 0};
  Quaterniond quat = Quaterniond::Identity();
  bool mocap = false;
  double gravcomp = 0;
  int attachment = -1;  // the first mocap body of an attachment (attach.h)
  std::optional<InertialSpec> inertial;
  // The <inertial>s of static bodies fused into this one (fuse_static.h), in
  // this body's frame.
  std::vector<InertialSpec> fused_inertials;
  std::vector<JointSpec> joints;
  std::vector<GeomSpec> geoms;
  std::vector<SiteSpec> sites;
  std::vector<CameraSpec> cameras;
  std::vector<LightSpec> lights;
  std::vector<BodySpec> children;
};

struct MeshSpec {
  SourceLocation where;
  std::string name, file;
  std::string directory;  // where a relative `file` is found; empty: see asset_path
  Vector3d scale{1, 1, 1};
  std::vector<double> vertex;
  std::vector<int> face;
  Vector3d refpos{0, 0, 0};
  Quaterniond refquat = Quaterniond::Identity();
  std::string inertia;  // legacy, convex, exact, shell; empty: the compiler's default
  std::string format;   // the file's: stl, obj, msh (content_type); empty: its extension
  int maxhullvert = -1;
};

// The attributes naming a cube texture's six side files, in MuJoCo's order.
inline constexpr std::array<const char*, 6> kTextureSides = {"fileright", "fileleft",  "fileup",
                                                             "filedown",  "filefront", "fileback"};

struct TextureSpec {
  SourceLocation where;
  std::string name, file, builtin = "none";
  std::string directory;  // where a relative `file` is found; empty: see asset_path
  int type = 1;           // 0 2d, 1 cube, 2 skybox
  Vector3d rgb1{0.8, 0.8, 0.8}, rgb2{0.5, 0.5, 0.5};
  int width = 0, height = 0;
  // A cube's six side files: right, left, up, down, front, back (kTextureSides).
  std::array<std::string, 6> side_files;
};

struct MaterialSpec {
  SourceLocation where;
  std::string name, texture;
  Vector2d texrepeat{1, 1};
  bool texuniform = false;
  double emission = 0, specular = 0.5, shininess = 0.5, reflectance = 0;
  double metallic = -1, roughness = -1;  // physically based shading; -1: unset
  Vector4d rgba{1, 1, 1, 1};
};

struct HfieldSpec {
  SourceLocation where;
  std::string name, file;
  std::string directory;      // where a relative `file` is found; empty: see asset_path
  Vector4d size{0, 0, 0, 0};  // x, y half-extents, elevation scale, base depth
  int nrow = 0, ncol = 0;
  std::vector<double> elevation;  // inline data, top row first
  std::string format;             // the file's: png, binary (content_type); empty: extension
};

struct ActuatorSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name, kind;    // kind: the MJCF element (motor, position, ...)
  std::string joint, jointinparent, tendon, site, slidersite, cranksite, body;
  std::string refsite;  // with site: length and moment in this site's frame
  int group = 0;
  // ctrlrange (position) or actrange (intvelocity) from the target joint's or
  // tendon's range, scaled about its middle by this factor; 0: off.
  double inheritrange = 0;
  // <general actdim>: activations of the actuator; negative: from dyntype
  // (1 with dynamics, 0 without), which is also the only value accepted.
  int actdim = -1;
  bool actearly = false;
  TriState ctrllimited = TriState::kAuto, forcelimited = TriState::kAuto,
           actlimited = TriState::kAuto;
  bool ctrlrange_given = false, forcerange_given = false, actrange_given = false;
  Vector2d lengthrange{0, 0};  // muscle operating range of the actuator length
  Vector2d ctrlrange{0, 0}, forcerange{0, 0}, actrange{0, 0};
  std::array<double, 6> gear = {1, 0, 0, 0, 0, 0};
  double cranklength = 0;
  DynamicsType dyntype = DynamicsType::kNone;
  GainType gaintype = GainType::kFixed;
  BiasType biastype = BiasType::kNone;
  std::array<double, 10> dynprm = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, 10> gainprm = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  std::array<double, 10> biasprm = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
};

struct TendonPathElement {
  SourceLocation where;
  WrapType type = WrapType::kNone;
  std::string object;      // joint, site or geom name
  std::string sidesite;    // for geom wrapping
  double coefficient = 1;  // joint coefficient or pulley divisor
};

struct TendonSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name;
  bool spatial = false;
  int group = 0;
  TriState limited = TriState::kAuto;
  bool range_given = false;
  Vector2d range{0, 0};
  // The total force of the actuators pulling on the tendon is scaled into
  // this range.
  TriState actuatorfrclimited = TriState::kAuto;
  bool actuatorfrcrange_given = false;
  Vector2d actuatorfrcrange{0, 0};
  double margin = 0, stiffness = 0, damping = 0, frictionloss = 0;
  double armature = 0;            // inertia of length changes
  Vector2d springlength{-1, -1};  // rest length, or a dead band [low, high]
  double width = 0.003;
  SolRef solref_limit, solref_friction;
  SolImp solimp_limit, solimp_friction;
  Vector4d rgba{0.5, 0.5, 0.5, 1};
  std::vector<TendonPathElement> path;
};

struct EqualitySpec {
  SourceLocation where;
  std::string name;
  EqualityType type = EqualityType::kConnect;
  std::string obj1, obj2;
  bool sites = false;  // connect or weld between site1 and site2 (MuJoCo 3.x)
  bool active = true;
  SolRef solref;
  SolImp solimp;
  Vector3d anchor{0, 0, 0};
  std::optional<std::array<double, 7>> relpose;  // pos (3), quat (4)
  std::array<double, 5> polycoef = {0, 1, 0, 0, 0};
  double torquescale = 1;
};

struct PairSpec {
  SourceLocation where;
  std::string name, geom1, geom2;
  int condim = 3;
  Vector5d friction = (Vector5d() << 1, 1, 0.005, 0.0001, 0.0001).finished();
  SolRef solref;
  SolRef solreffriction{0, 0};  // zero: the friction rows use solref
  SolImp solimp;
  double margin = 0, gap = 0;  // unset values: the pair defaults, not the geoms'
};

struct ExcludeSpec {
  SourceLocation where;
  std::string name, body1, body2;
};

struct SensorSpec {
  SourceLocation where;
  std::vector<double> user;  // user data (`user`), unpadded
  std::string name, type, object, reference;
  ObjectType object_type = ObjectType::kUnknown;
  ObjectType reference_type = ObjectType::kUnknown;
  double noise = 0, cutoff = 0;
  std::array<int, 3> intprm{0, 0, 0};  // contact sensors: data bits, reduction, slots
};

struct KeyframeSpec {
  SourceLocation where;
  std::string name;
  double time = 0;
  std::optional<std::vector<double>> qpos, qvel, act, ctrl, mpos, mquat;
  // A keyframe of an attached model (attach.h), >= 0: the arrays hold the
  // attached part's values only, placed from the joint and the mocap body
  // marked with this attachment and from actuator `actuator_offset`; the
  // rest of the state is the default.
  int attachment = -1;
  int actuator_offset = 0;
};

// One <default> class: a prototype of every element kind.
struct DefaultClass {
  std::string name;
  int parent = -1;
  GeomSpec geom;
  SiteSpec site;
  JointSpec joint;
  CameraSpec camera;
  LightSpec light;
  MeshSpec mesh;
  MaterialSpec material;
  ActuatorSpec actuator;
  TendonSpec tendon;
  EqualitySpec equality;
  PairSpec pair;
};

// Whether a body takes its mass and inertia from its geoms (MuJoCo's
// inertiafromgeom: always, never, or when it has no <inertial>); otherwise
// from its <inertial>, if any.
inline bool takes_inertia_from_geoms(const CompilerSettings& compiler, const BodySpec& body) {
  return compiler.inertiafromgeom == InertiaFromGeom::kTrue ||
         (compiler.inertiafromgeom == InertiaFromGeom::kAuto && !body.inertial);
}

struct ModelSpec {
  std::string model_name = "MuJoCo Model";
  std::string file, directory;
  CompilerSettings compiler;
  Options options;
  double visual_znear = 0.01;  // <visual><map znear>: default camera focal length, m
  Statistics stat;
  bool stat_extent_given = false, stat_center_given = false, stat_meanmass_given = false;
  bool stat_meansize_given = false, stat_meaninertia_given = false;
  BodySpec world;
  std::vector<MeshSpec> meshes;
  std::vector<TextureSpec> textures;
  std::vector<MaterialSpec> materials;
  std::vector<HfieldSpec> hfields;
  std::vector<ActuatorSpec> actuators;
  std::vector<TendonSpec> tendons;
  std::vector<EqualitySpec> equalities;
  std::vector<PairSpec> pairs;
  std::vector<ExcludeSpec> excludes;
  std::vector<SensorSpec> sensors;
  std::vector<KeyframeSpec> keyframes;
  // <size nkey>: at least this many keyframes; those beyond the <key>
  // elements hold the default state (qpos0, zeros, the mocap poses).
  int nkey = 0;
  // <size nuser_*>: user data values per body, joint, geom, site, camera,
  // tendon, actuator and sensor; -1: the most any element gives.
  int nuser_body = -1, nuser_jnt = -1, nuser_geom = -1, nuser_site = -1, nuser_cam = -1;
  int nuser_tendon = -1, nuser_actuator = -1, nuser_sensor = -1;
  // Documented MJCF that Pliant accepts without using (accept_unused), one
  // sentence each; the compiler reports each attribute once.
  std::vector<std::string> notes;
  // Names of the bodies fusestatic fused into their parents.
  std::vector<std::string> fused_bodies;
};

}  // namespace pliant
