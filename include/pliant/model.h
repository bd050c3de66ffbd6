#pragma once

// The compiled, immutable model. One Model is shared read-only by any number
// of Data. Entities live in grouped tables of columns with dense int ids in
// MJCF depth-first order, the order MuJoCo uses, so that ids line up with it.
//
// Units: SI throughout (m, kg, s, rad, N). Poses of children are relative to
// their parent body frame; quaternions are unit, (w, x, y, z) semantics via
// Eigen::Quaterniond. Enum values equal MuJoCo's codes.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pliant/eigen_types.h"
#include "pliant/solver_params.h"

namespace pliant {

enum class JointType : int { kFree = 0, kBall = 1, kSlide = 2, kHinge = 3 };
// Degrees of freedom a joint of this type adds.
inline int joint_dof_count(JointType type) {
  return type == JointType::kFree ? 6 : type == JointType::kBall ? 3 : 1;
}
enum class GeomType : int {
  kPlane = 0,
  kHfield = 1,
  kSphere = 2,
  kCapsule = 3,
  kEllipsoid = 4,
  kCylinder = 5,
  kBox = 6,
  kMesh = 7,
};
// The MJCF name of a geom type ("plane", "hfield", "sphere", "capsule",
// "ellipsoid", "cylinder", "box", "mesh").
const char* geom_type_name(GeomType type);
// The geom type MJCF calls `name`; false (and `type` untouched) when no type
// has that name.
bool geom_type_from_name(std::string_view name, GeomType& type);
enum class Integrator : int { kEuler = 0, kRk4 = 1, kImplicit = 2, kImplicitFast = 3 };
enum class Cone : int { kPyramidal = 0, kElliptic = 1 };
enum class JacobianLayout : int { kDense = 0, kSparse = 1, kAuto = 2 };
enum class SolverType : int { kPgs = 0, kCg = 1, kNewton = 2 };
// Newton's Hessian factor on sparse problems (Pliant's own, not MJCF): the
// cheaper by estimated work of the envelope in reverse Cuthill-McKee order
// and the tree-block factor in minimum-degree order, or one of them forced
// (tests, benchmarks).
enum class HessianFactor : int { kAuto = 0, kEnvelope = 1, kBlocks = 2 };
enum class CollisionMode : int { kAll = 0, kPair = 1, kDynamic = 2 };
enum class EqualityType : int { kConnect = 0, kWeld = 1, kJoint = 2, kTendon = 3 };
enum class WrapType : int {
  kNone = 0,
  kJoint = 1,
  kPulley = 2,
  kSite = 3,
  kSphere = 4,
  kCylinder = 5
};
enum class TransmissionType : int {
  kJoint = 0,
  kJointInParent = 1,
  kSliderCrank = 2,
  kTendon = 3,
  kSite = 4,
  kBody = 5,  // adhesion: pulls the body onto what it touches
};
// MuJoCo 3.x's mjtDyn codes (2.2.2 had no filterexact and gave muscle 3).
enum class DynamicsType : int {
  kNone = 0,
  kIntegrator = 1,
  kFilter = 2,
  kFilterExact = 3,
  kMuscle = 4,
};
enum class GainType : int { kFixed = 0, kAffine = 1, kMuscle = 2 };
enum class BiasType : int { kNone = 0, kAffine = 1, kMuscle = 2 };
enum class ObjectType : int {
  kUnknown = 0,
  kBody = 1,
  kXBody = 2,
  kJoint = 3,
  kDof = 4,
  kGeom = 5,
  kSite = 6,
  kCamera = 7,
  kLight = 8,
  kMesh = 9,
  kSkin = 10,
  kHfield = 11,
  kTexture = 12,
  kMaterial = 13,
  kPair = 14,
  kExclude = 15,
  kEquality = 16,
  kTendon = 17,
  kActuator = 18,
  kSensor = 19,
  kNumeric = 20,
  kText = 21,
  kTuple = 22,
  kKey = 23,
};

// Feature switches of <option><flag>. true means the feature is on; the
// defaults are MuJoCo's (everything on except override and energy). As in
// MuJoCo 3.x, passive forces are switched as springs and dampers.
struct OptionFlags {
  bool constraint = true, equality = true, frictionloss = true, limit = true, contact = true;
  bool spring = true, damper = true, gravity = true, clampctrl = true, warmstart = true,
       filterparent = true;
  bool actuation = true, refsafe = true, sensor = true;
  // MuJoCo 3.x: island off solves the constraint problem whole (on: island
  // by island with Newton and CG); nativeccd off collides general convex
  // pairs by MPR instead of GJK and EPA; midphase names a collision
  // strategy Pliant does not have (accepted); eulerdamp off makes Euler
  // treat joint damping explicitly; autoreset off keeps a diverged state.
  bool midphase = true, eulerdamp = true, autoreset = true, nativeccd = true, island = true;
  bool override_contacts = false, energy = false, fwdinv = false, invdiscrete = false,
       multiccd = false;
  bool sensornoise = false;  // MuJoCo 2.x only
};

// Where an element was written, for error messages.
struct SourceLocation {
  std::string file;
  int line = 0;
};

// How the compiler finds actuator length ranges by simulation
// (<compiler><lengthrange>, with MuJoCo's defaults; engine/length_range.h).
struct LengthRangeOptions {
  enum class Mode { kNone, kMuscle, kMuscleUser, kAll };
  Mode mode = Mode::kMuscle;  // which actuators: muscles by default
  bool useexisting = true;    // keep a range the model gives (min < max)
  bool uselimit = false;      // take a limited joint's or tendon's range as it is
  double accel = 20;          // target acceleration of the pull
  double maxforce = 0;        // bound on the pulling force's norm (0: none)
  double timeconst = 1;       // velocity decay time constant
  double timestep = 0.01;     // simulation step (0: the model's)
  double inttotal = 10;       // simulated time per direction
  double interval = 2;        // final window whose extremes are the range
  double tolrange = 0.05;     // allowed spread in that window, share of the range
};

struct Options {
  double timestep = 0.002;  // s
  double apirate = 100;     // Hz
  double impratio = 1;      // frictional-to-normal impedance ratio
  double tolerance = 1e-8;  // solver tolerance
  double noslip_tolerance = 1e-6;
  double mpr_tolerance = 1e-6;
  Vector3d gravity{0, 0, -9.81};  // m/s^2
  Vector3d wind{0, 0, 0};         // m/s
  Vector3d magnetic{0, -0.5, 0};  // T
  double density = 0;             // kg/m^3 of the medium
  double viscosity = 0;           // Pa s of the medium
  double o_margin = 0;            // m, used with the override flag
  SolRef o_solref;
  SolImp o_solimp;
  Vector5d o_friction{1, 1, 0.005, 0.0001, 0.0001};
  Integrator integrator = Integrator::kEuler;
  CollisionMode collision = CollisionMode::kAll;
  Cone cone = Cone::kPyramidal;
  JacobianLayout jacobian = JacobianLayout::kAuto;
  SolverType solver = SolverType::kNewton;
  HessianFactor hessian_factor = HessianFactor::kAuto;
  int iterations = 100;
  int noslip_iterations = 0;
  // The line search of the primal solvers: at most ls_iterations
  // evaluations, done when |slope| < tolerance * ls_tolerance * |s| / scale.
  int ls_iterations = 50;
  double ls_tolerance = 0.01;
  // Bit g set: the actuators of group g (0 to 30) are disabled (no force,
  // no activation change); <option actuatorgroupdisable="g ...">.
  int disableactuator = 0;
  // Convex collision's iteration limit (GJK, EPA and MPR): <option
  // ccd_iterations> (mpr_iterations in MuJoCo 2.x), 3.3.8's default.
  int mpr_iterations = 35;
  OptionFlags flags;
};

struct Bodies {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<int> parent;  // parent body id (world: 0)
  std::vector<int> root;    // top-level ancestor below the world
  std::vector<int> weld;    // nearest ancestor (or self) with joints; world: 0
  std::vector<int> mocap;   // mocap id, -1 if not mocap
  std::vector<int> joint_count, joint_adr;
  std::vector<int> dof_count, dof_adr;
  std::vector<int> geom_count, geom_adr;
  std::vector<Vector3d> pos;  // m, frame relative to parent
  std::vector<Quaterniond> quat;
  std::vector<Vector3d> ipos;  // m, inertial frame relative to body frame
  std::vector<Quaterniond> iquat;
  std::vector<double> mass;          // kg
  std::vector<double> subtree_mass;  // kg
  std::vector<Vector3d> inertia;     // kg m^2, principal moments in the inertial frame
  std::vector<Vector2d> invweight0;  // (translational, rotational); filled by the dynamics
  // Fraction of the body's weight cancelled by a force at its centre of mass
  // (1: floats); applied as a passive force, or an actuator force on joints
  // with actgravcomp.
  std::vector<double> gravcomp;
  // 0, 1 or 2 as MuJoCo 3.x's body_simple (see classify_simple_bodies in
  // engine/model_constants.cpp); filled with the model constants.
  std::vector<int> simple;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(parent.size()); }
};

struct Joints {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<JointType> type;
  std::vector<int> qpos_adr, dof_adr, body;
  std::vector<int> group;
  std::vector<bool> limited;
  std::vector<SolRef> solref;     // limit
  std::vector<SolImp> solimp;     // limit
  std::vector<Vector3d> pos;      // m, anchor in body frame
  std::vector<Vector3d> axis;     // unit, in body frame
  std::vector<double> stiffness;  // N/m or N m/rad
  // (time constant s, damping ratio). Both positive: the compiler replaces
  // stiffness and the dofs' damping with those of a mass-spring-damper of
  // this time constant and ratio, the mass being the joint's inertia at
  // qpos0 (its dof count over the sum of their dof_invweight0), as MuJoCo
  // does.
  std::vector<Vector2d> springdamper;
  std::vector<Vector2d> range;  // m or rad
  std::vector<double> margin;   // m or rad
  // Limits on the total actuator force on the joint's dofs (N or N m).
  std::vector<bool> actfrc_limited;
  std::vector<Vector2d> actfrc_range;
  std::vector<bool> actgravcomp;  // gravity compensation counts as actuator force
  std::vector<std::string> name;
  int count() const { return static_cast<int>(type.size()); }
};

struct Dofs {
  std::vector<int> body, joint, parent;  // parent dof, -1 at a root
  std::vector<int> madr;                 // first entry of this dof's row in sparse M
  std::vector<int> mass_column;          // (nM) the dof of each entry of sparse M
  std::vector<SolRef> solref;            // friction loss
  std::vector<SolImp> solimp;            // friction loss
  std::vector<double> frictionloss;      // N or N m
  std::vector<double> armature;          // kg or kg m^2
  std::vector<double> damping;           // N s/m or N m s/rad
  std::vector<double> invweight0;        // filled by the dynamics
  // MuJoCo's dof_simplenum: for a dof of a simple body (Bodies::simple),
  // how many simple dofs run from it (to the last of the model's run of
  // them); 0 elsewhere. Filled with body_simple by the model constants.
  std::vector<int> simplenum;
  bool any_simple = false;  // some simplenum > 0
  int count() const { return static_cast<int>(body.size()); }
};

// A geom's ellipsoid fluid model, in MuJoCo's geom_fluid layout: the
// interaction coefficient (1 with fluidshape="ellipsoid", else 0 and the
// rest unused), the five fluidcoef values (blunt drag, slender drag,
// angular drag, Kutta lift, Magnus lift), the virtual mass and the virtual
// moment of inertia along the equivalent ellipsoid's axes per unit fluid
// density (kg/(kg/m^3) and kg m^2/(kg/m^3)).
using GeomFluid = Eigen::Matrix<double, 12, 1>;

struct Geoms {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<GeomType> type;
  std::vector<int> contype, conaffinity, condim, body, group, priority, material;
  std::vector<int> data_id;  // mesh id for mesh geoms, hfield id for hfields, else -1
  std::vector<bool> same_frame_as_body;
  std::vector<Vector3d> size;  // type-specific, m
  std::vector<double> rbound;  // m, bounding sphere radius about the geom centre
  std::vector<Vector3d> pos;   // m, in body frame
  std::vector<Quaterniond> quat;
  std::vector<Vector3d> friction;  // sliding, torsional, rolling
  std::vector<double> solmix;
  std::vector<SolRef> solref;
  std::vector<SolImp> solimp;
  std::vector<double> margin, gap;  // m
  std::vector<Vector4d> rgba;
  std::vector<GeomFluid> fluid;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(type.size()); }
};

struct Sites {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<GeomType> type;
  std::vector<int> body, group, material;
  std::vector<Vector3d> size, pos;
  std::vector<Quaterniond> quat;
  std::vector<Vector4d> rgba;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(type.size()); }
};

struct Cameras {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<int> body, mode, target_body;
  std::vector<Vector3d> pos;
  std::vector<Quaterniond> quat;
  std::vector<double> fovy;  // degrees: as MJCF gives it, or from the intrinsics
  std::vector<double> ipd;   // inter-pupillary distance for stereo, m
  std::vector<int> orthographic;
  std::vector<Eigen::Vector2d> resolution;  // pixels
  std::vector<Eigen::Vector2d> sensorsize;  // m; zero when fovy was given instead
  std::vector<Eigen::Vector4d> intrinsic;   // focal x, y and principal x, y, in m
  // At qpos0 (model constants): the world offset from the body and from its
  // subtree's centre of mass, and the world orientation, for the track modes.
  std::vector<Vector3d> pos0, poscom0;
  std::vector<Matrix3d> mat0;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(body.size()); }
};

struct Lights {
  std::vector<int> body, mode, target_body;
  std::vector<int> type;     // MuJoCo's mjtLightType: 0 spot, 1 directional, 2 point, 3 image
  std::vector<int> texture;  // -1 if none
  std::vector<bool> directional, castshadow, active;  // directional: type 1
  std::vector<Vector3d> pos, dir, attenuation, ambient, diffuse, specular;
  std::vector<double> cutoff, exponent;
  // Physically based lighting, single precision as MuJoCo stores them.
  std::vector<double> intensity, range, bulbradius;
  // At qpos0 (model constants): world offsets from the body and its
  // subtree's centre of mass, and the world direction, for the track modes.
  std::vector<Vector3d> pos0, poscom0, dir0;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(body.size()); }
};

// Triangle meshes after processing: vertices in the mesh's own principal
// inertial frame (the frame the geom pose refers to), as MuJoCo stores them.
struct Meshes {
  std::vector<int> vert_adr, vert_count, face_adr, face_count;
  std::vector<Vector3d> vertices;         // m, all meshes concatenated
  std::vector<std::array<int, 3>> faces;  // indices local to the mesh
  std::vector<double> volume;             // m^3 (or area for shells)
  std::vector<int> maxhullvert;           // hull vertex limit, -1 for none
  std::vector<std::string> name, file;
  // Convex hull of each mesh (mesh geoms collide as their hull), from
  // compute_mesh_hulls: vertices in the geom frame, and per hull vertex its
  // neighbours along hull edges (indices local to that mesh's hull).
  std::vector<int> hull_vert_adr, hull_vert_count;            // per mesh
  std::vector<Vector3d> hull_vertices;                        // m
  std::vector<int> hull_neighbour_adr, hull_neighbour_count;  // per hull vertex
  std::vector<int> hull_neighbours;
  std::vector<int> hull_vertex_id;  // per hull vertex: its vertex in the mesh (local)
  // The hull's faces as polygons (coplanar hull triangles merged), for
  // several contacts per pair under <flag multiccd>, compiled as MuJoCo
  // 3.3.8 compiles them (mesh_polygons.h). Polygon corners and the
  // vertex-to-polygon map are local to the mesh, addresses global.
  std::vector<int> poly_adr, poly_num;            // per mesh
  std::vector<Vector3d> poly_normal;              // per polygon, outward, mesh frame
  std::vector<int> poly_vert_adr, poly_vert_num;  // per polygon
  std::vector<int> poly_vert;                     // corners, in order around the polygon
  std::vector<int> polymap_adr, polymap_num;      // per mesh vertex
  std::vector<int> polymap;                       // polygons through each vertex
  // What each mesh was made from, so that it can be written back as MJCF
  // (save_xml.h) and rebuilt bit for bit: its vertices as read from the file
  // or the inline data (before scale, refpos and refquat; same count and
  // order as `vertices`, at the same vert_adr), those three transforms, and
  // the inertia mode (0 legacy, 1 convex, 2 exact, 3 shell).
  std::vector<Vector3d> source_vertices;
  std::vector<Vector3d> scale, refpos;
  std::vector<Quaterniond> refquat;
  std::vector<int> inertia;
  // The mesh's principal frame in its transformed source frame (m): a mesh
  // geom's frame is the frame written for it composed with this one.
  std::vector<Vector3d> frame_pos;
  std::vector<Quaterniond> frame_quat;
  int count() const { return static_cast<int>(vert_adr.size()); }
};

struct Textures {
  std::vector<int> type;  // 0 2d, 1 cube, 2 skybox
  std::vector<std::string> name, file, builtin;
  // A cube's six side files (right, left, up, down, front, back; empty:
  // not given), as written in the model, kept for saving it.
  std::vector<std::array<std::string, 6>> side_files;
  std::vector<Vector3d> rgb1, rgb2;
  std::vector<int> width, height;
  int count() const { return static_cast<int>(type.size()); }
};

struct Materials {
  std::vector<int> texture;  // -1 if none
  std::vector<Vector2d> texrepeat;
  std::vector<bool> texuniform;
  std::vector<double> emission, specular, shininess, reflectance;
  // Physically based shading (-1: unset), single precision as MuJoCo stores them.
  std::vector<double> metallic, roughness;
  std::vector<Vector4d> rgba;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(texture.size()); }
};

// Height fields: a grid of nrow x ncol elevations in [0, 1] over the
// rectangle [-size[0], size[0]] x [-size[1], size[1]] of the geom frame; the
// surface is at z = size[2] * elevation and the solid goes down to
// z = -size[3]. Row r is at y = -size[1] + 2 size[1] r / (nrow - 1), column c
// at x = -size[0] + 2 size[0] c / (ncol - 1).
struct Hfields {
  std::vector<std::string> name, file;
  std::vector<Vector4d> size;
  std::vector<int> nrow, ncol;
  std::vector<int> adr;     // first value of each field in `data`
  std::vector<float> data;  // row-major elevations of all fields
  float elevation(int h, int row, int col) const { return data[adr[h] + row * ncol[h] + col]; }
  int count() const { return static_cast<int>(name.size()); }
};

// Explicit contact pairs (<contact><pair>), with their own parameters.
struct Pairs {
  std::vector<int> geom1, geom2, condim;
  std::vector<SolRef> solref;
  std::vector<SolRef> solreffriction;  // elliptic friction rows; zero: solref
  std::vector<SolImp> solimp;
  std::vector<double> margin, gap;
  std::vector<Vector5d> friction;  // tangent1, tangent2, spin, roll1, roll2
  std::vector<std::string> name;
  int count() const { return static_cast<int>(geom1.size()); }
};

// Body pairs excluded from collision (<contact><exclude>).
struct Excludes {
  std::vector<int> body1, body2;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(body1.size()); }
};

struct Equalities {
  std::vector<EqualityType> type;
  std::vector<ObjectType> obj_type;  // kBody or kSite (connect, weld); kUnknown otherwise
  std::vector<int> obj1, obj2;       // of that type; obj2 -1 when absent
  std::vector<bool> active;
  std::vector<SolRef> solref;
  std::vector<SolImp> solimp;
  // MuJoCo's eq_data layout: [0:3] anchor, [3:6] second anchor, [6:10]
  // relpose quaternion (w,x,y,z), [10] torquescale; joint and tendon
  // couplings use [0:5] as polynomial coefficients.
  std::vector<std::array<double, 11>> data;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(type.size()); }
};

struct Tendons {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<int> wrap_adr, wrap_count;
  std::vector<bool> limited;
  std::vector<Vector2d> range;
  // The summed force of the actuators on the tendon is scaled into
  // actfrc_range when actfrc_limited.
  std::vector<bool> actfrc_limited;
  std::vector<Vector2d> actfrc_range;
  std::vector<SolRef> solref_limit, solref_friction;
  std::vector<SolImp> solimp_limit, solimp_friction;
  std::vector<double> margin, stiffness, damping, frictionloss, length0;
  // Inertia of length changes (kg for a length in m): armature J^T J joins
  // M within its sparsity, as MuJoCo 3.3.8 adds it.
  std::vector<double> armature;
  // Spring rest length as a dead band [low, high] (equal ends: a plain rest
  // length); the spring pulls only outside it.
  std::vector<Vector2d> length_spring;
  std::vector<double> width;
  std::vector<Vector4d> rgba;
  std::vector<double> invweight0;  // filled by the dynamics
  std::vector<std::string> name;
  // Path elements of all tendons, concatenated.
  std::vector<WrapType> wrap_type;
  std::vector<int> wrap_obj;     // joint, site or geom id; -1 for pulleys
  std::vector<double> wrap_prm;  // joint coefficient, pulley divisor, or side site id
  int count() const { return static_cast<int>(wrap_adr.size()); }
};

struct Actuators {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<TransmissionType> trn_type;
  std::vector<DynamicsType> dyn_type;
  std::vector<GainType> gain_type;
  std::vector<BiasType> bias_type;
  std::vector<std::array<int, 2>> trn_id;
  std::vector<bool> ctrl_limited, force_limited, act_limited;
  std::vector<std::array<double, 10>> dynprm, gainprm, biasprm;
  std::vector<Vector2d> ctrl_range, force_range, act_range;
  std::vector<std::array<double, 6>> gear;
  std::vector<double> crank_length;
  std::vector<int> group;
  std::vector<int> act_adr;    // first activation of the actuator in act, -1 when stateless
  std::vector<int> act_num;    // 1 with dynamics, else 0
  std::vector<bool> actearly;  // the force uses the activation after this step
  std::vector<double> length0;
  // Norm of M^-1 moment^T at qpos0: the acceleration a unit actuator force
  // gives (1/kg or 1/(kg m^2)); filled by compute_actuator_constants.
  std::vector<double> acc0;
  // Feasible range of actuator_length (m or rad), used by muscles to
  // normalise their length; (0, 0) when unknown.
  std::vector<Vector2d> length_range;
  std::vector<std::string> name;
  std::vector<SourceLocation> where;  // the MJCF element, for errors found after compiling
  int count() const { return static_cast<int>(trn_type.size()); }
};

// Sensor types, with MuJoCo's mjtSensor codes (model/sensor_types.h lists
// each one's MJCF element, size, data type and stage).
enum class SensorType : int {
  kTouch = 0,
  kAccelerometer = 1,
  kVelocimeter = 2,
  kGyro = 3,
  kForce = 4,
  kTorque = 5,
  kMagnetometer = 6,
  kRangefinder = 7,
  kCamProjection = 8,
  kJointPos = 9,
  kJointVel = 10,
  kTendonPos = 11,
  kTendonVel = 12,
  kActuatorPos = 13,
  kActuatorVel = 14,
  kActuatorFrc = 15,
  kJointActuatorFrc = 16,
  kTendonActuatorFrc = 17,
  kBallQuat = 18,
  kBallAngVel = 19,
  kJointLimitPos = 20,
  kJointLimitVel = 21,
  kJointLimitFrc = 22,
  kTendonLimitPos = 23,
  kTendonLimitVel = 24,
  kTendonLimitFrc = 25,
  kFramePos = 26,
  kFrameQuat = 27,
  kFrameXAxis = 28,
  kFrameYAxis = 29,
  kFrameZAxis = 30,
  kFrameLinVel = 31,
  kFrameAngVel = 32,
  kFrameLinAcc = 33,
  kFrameAngAcc = 34,
  kSubtreeCom = 35,
  kSubtreeLinVel = 36,
  kSubtreeAngMom = 37,
  kInsideSite = 38,
  kGeomDist = 39,
  kGeomNormal = 40,
  kGeomFromTo = 41,
  kContact = 42,
  kEPotential = 43,
  kEKinetic = 44,
  kClock = 45,
};

// Sensors in declaration order; sensor i writes dim[i] values at
// Data::sensordata[adr[i]]. The object is a site, joint, tendon, actuator,
// body (kBody: its inertial frame; kXBody: its body frame), geom or camera;
// the reference is the frame sensors' reference frame, the camera of
// camprojection or the second geom or body of distance sensors (-1: none).
struct Sensors {
  // User data, Model::nuser_* values each.
  std::vector<std::vector<double>> user;

  std::vector<SensorType> type;
  // MuJoCo's sensor_datatype (0 real, 1 positive, 2 axis, 3 quaternion: how
  // cutoff clips) and sensor_needstage (1 position, 2 velocity, 3
  // acceleration), from model/sensor_types.h.
  std::vector<int> datatype, stage;
  std::vector<ObjectType> obj_type, ref_type;
  std::vector<int> obj_id, ref_id;
  std::vector<int> dim, adr;
  // Contact sensors (MuJoCo's sensor_intprm): the data bits (found 1, force
  // 2, torque 4, dist 8, pos 16, normal 32, tangent 64), the reduction (0
  // none, 1 mindist, 2 maxforce, 3 netforce) and the slots; zeros otherwise.
  std::vector<std::array<int, 3>> intprm;
  std::vector<double> noise;   // stored for the user; not applied, as in MuJoCo
  std::vector<double> cutoff;  // clip bound (0: none); the search distance of distance sensors
  std::vector<std::string> name;
  int data_size = 0;  // total values: the size of Data::sensordata
  int count() const { return static_cast<int>(type.size()); }
};

struct Keyframes {
  std::vector<double> time;
  std::vector<std::vector<double>> qpos, qvel, act, ctrl, mocap_pos, mocap_quat;
  std::vector<std::string> name;
  int count() const { return static_cast<int>(time.size()); }
};

// Model-wide statistics (MuJoCo's mjStatistic), used by the viewer and solvers.
struct Statistics {
  double meaninertia = 1;  // mean diagonal of M at qpos0; filled by the dynamics
  double meanmass = 0, meansize = 0, extent = 0;
  Vector3d center{0, 0, 0};
};

// A parameter the engine uses differently from how the user wrote it: the
// refsafe rule raising a time constant, or a sanitiser replacing an invalid
// solref or clamping a solimp. Recorded once per model, with both values.
struct ParameterWarning {
  enum class Kind { kRefsafeClamp, kSolrefReplaced, kSolimpClamped };
  Kind kind;
  ObjectType object;  // kGeom, kJoint, kDof, kEquality, kTendon or kPair
  int id;
  std::string parameter;  // "solref", "solreflimit", ...
  std::string given, used;
  std::string message;  // one readable sentence naming the object and both values
};

struct Model {
  int nq = 0, nv = 0, nu = 0, na = 0, nmocap = 0;
  // User data values per element (MuJoCo's nuser_*): the width of *.user.
  int nuser_body = 0, nuser_jnt = 0, nuser_geom = 0, nuser_site = 0, nuser_cam = 0;
  int nuser_tendon = 0, nuser_actuator = 0, nuser_sensor = 0;
  bool has_gravcomp = false;  // some body has gravcomp != 0

  Options options;
  LengthRangeOptions lengthrange;  // used once, when the model's constants are computed
  Bodies bodies;
  Joints joints;
  Dofs dofs;
  Geoms geoms;
  Sites sites;
  Cameras cameras;
  Lights lights;
  Meshes meshes;
  Textures textures;
  Materials materials;
  Hfields hfields;
  Pairs pairs;
  Excludes excludes;
  Equalities equalities;
  Tendons tendons;
  Actuators actuators;
  Sensors sensors;
  Keyframes keyframes;
  Statistics stat;

  std::vector<double> qpos0;        // reference configuration
  std::vector<double> qpos_spring;  // spring rest configuration

  std::string model_name;
  std::string file;                                  // path the model was loaded from
  std::vector<std::string> warnings;                 // compile-time warnings, one sentence each
  std::vector<ParameterWarning> parameter_warnings;  // filled with the model constants

  int body_count() const { return bodies.count(); }

  // Id of the named entity of that type, or -1.
  int id(ObjectType type, const std::string& name) const;
  // Name of the entity, or "" when unnamed.
  const std::string& name(ObjectType type, int id) const;

  // Name lookup tables, built by the compiler.
  std::unordered_map<std::string, int> name_to_id[24];
};

// Entries of the sparse mass matrix qM of `model` (one per dof and ancestor dof).
int mass_matrix_size(const Model& model);

}  // namespace pliant
