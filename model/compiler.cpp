#include "model/compiler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "model/attach.h"
#include "model/exact_rotation.h"
#include "model/fluid_shape.h"
#include "model/fuse_static.h"
#include "model/geom_inertia.h"
#include "model/hfield_data.h"
#include "model/mesh.h"
#include "model/mesh_hull.h"
#include "model/mesh_polygons.h"
#include "model/numeric_limits.h"
#include "model/orientation.h"
#include "model/unit_quaternion.h"
#include "pliant/load_error.h"
#include "pliant/sensor_types.h"

namespace pliant {
namespace {

[[noreturn]] void fail(const SourceLocation& where, const std::string& message) {
  throw LoadError(where.file, where.line, message);
}

// A body of the spec tree with its id, in depth-first order.
struct FlatBody {
  const BodySpec* spec;
  int parent;
};

void flatten(const BodySpec& body, int parent, std::vector<FlatBody>& out) {
  const int id = static_cast<int>(out.size());
  out.push_back({&body, parent});
  for (const BodySpec& child : body.children) flatten(child, id, out);
}

// Applies a fromto segment to a geom or site: centre, z axis along the
// segment, and the half-length into the size slot the type uses for it.
void apply_fromto(const std::array<double, 6>& fromto, GeomType type, const SourceLocation& where,
                  Vector3d& pos, Quaterniond& quat, Vector3d& size) {
  const Vector3d from(fromto[0], fromto[1], fromto[2]);
  const Vector3d to(fromto[3], fromto[4], fromto[5]);
  // MuJoCo points the frame's z axis from `to` towards `from`.
  const Vector3d axis = from - to;
  if (axis.norm() < kMinValue) fail(where, "'fromto' has the same start and end point");
  pos = 0.5 * (from + to);
  quat = quat_z_to_vector(axis);
  switch (type) {
    case GeomType::kCapsule:
    case GeomType::kCylinder:
      size[1] = 0.5 * axis.norm();
      break;
    case GeomType::kBox:
    case GeomType::kEllipsoid:
      // The cross-section is round: both transverse half-sizes are the
      // given radius (size[0]), as MuJoCo computes it.
      size[1] = size[0];
      size[2] = 0.5 * axis.norm();
      break;
    default:
      fail(where, "'fromto' works with capsule, cylinder, box and ellipsoid only");
  }
}

// Number of size values a primitive needs (with fromto, one fewer for the
// types whose length it sets).
int required_sizes(GeomType type, bool fromto) {
  switch (type) {
    case GeomType::kSphere:
      return 1;
    case GeomType::kCapsule:
    case GeomType::kCylinder:
      return fromto ? 1 : 2;
    case GeomType::kEllipsoid:
    case GeomType::kBox:
      return fromto ? 2 : 3;
    default:
      return 0;
  }
}

// "auto" limits: on exactly when a range is given, if autolimits is on;
// otherwise a range without an explicit limited is ambiguous, as in MuJoCo.
bool resolve_limited(TriState limited, bool range_given, bool autolimits, const std::string& what,
                     const std::string& range_name, const std::string& limited_name,
                     const SourceLocation& where) {
  if (limited == TriState::kTrue) return true;
  if (limited == TriState::kFalse) return false;
  if (autolimits) return range_given;
  if (range_given) {
    fail(where, what + " has '" + range_name + "' but not '" + limited_name + "'; set " +
                    limited_name + "=\"true\" or \"false\", or <compiler autolimits=\"true\"/>");
  }
  return false;
}

// One part of a body's mass: an inertial or a geom.
struct MassPart {
  double mass;
  Vector3d pos;
  Quaterniond quat;         // the part's frame in the body
  Vector3d principal;       // moments in the part's frame
  SymmetricTensor inertia;  // about the part's centre, body axes
};

class Compiler {
 public:
  explicit Compiler(const ModelSpec& spec) : spec_(spec) {}

  // Normalises the quaternions of free and ball joints in a qpos vector (a
  // zero quaternion becomes the identity).
  void normalize_joint_quaternions(std::vector<double>& qpos) const {
    const Joints& j = m_.joints;
    for (int i = 0; i < j.count(); ++i) {
      if (j.type[i] != JointType::kFree && j.type[i] != JointType::kBall) continue;
      normalize_key_quaternion(qpos.data() + j.qpos_adr[i] +
                               (j.type[i] == JointType::kFree ? 3 : 0));
    }
  }

  Model run() {
    m_.model_name = spec_.model_name;
    m_.file = spec_.file;
    m_.options = spec_.options;
    m_.lengthrange = spec_.compiler.lengthrange;
    m_.stat = spec_.stat;
    // Documented MJCF accepted without effect: each attribute once.
    std::set<std::string> noted;
    for (const std::string& note : spec_.notes) {
      const std::string what = note.substr(note.find(": ") + 2);
      if (noted.insert(what).second) m_.warnings.push_back(note);
    }
    flatten(spec_.world, -1, bodies_);
    compile_assets();
    compile_bodies();
    compile_joints_and_dofs();
    compile_mass();
    align_free_bodies();
    compute_frames_at_qpos0();
    compile_tendons();
    compile_actuators();
    compile_equalities();
    compile_contacts();
    compile_mesh_polygons();
    compile_sensors();
    finish_user_data();
    compile_keyframes();
    return std::move(m_);
  }

 private:
  // Registers a name in the lookup table of its type; repeated names are an
  // error, as in MuJoCo.
  void add_name(ObjectType type, const std::string& name, int id, const SourceLocation& where,
                const char* what) {
    if (name.empty()) return;
    auto& table = m_.name_to_id[static_cast<int>(type)];
    if (!table.emplace(name, id).second) {
      fail(where, std::string("repeated ") + what + " name '" + name + "'; names must be unique");
    }
  }

  // The id of a named object; an unknown name is an error that lists the
  // names the model defines for that kind of object.
  int lookup(ObjectType type, const std::string& name, const SourceLocation& where,
             const char* what) const {
    const int id = m_.id(type, name);
    if (id >= 0) return id;
    std::vector<std::string> names;
    for (const auto& [known, index] : m_.name_to_id[static_cast<int>(type)]) names.push_back(known);
    std::sort(names.begin(), names.end());
    std::string defined;
    for (size_t i = 0; i < names.size() && i < 20; ++i) defined += (i ? ", " : "") + names[i];
    if (names.size() > 20) defined += ", ...";
    if (type == ObjectType::kBody && std::find(spec_.fused_bodies.begin(), spec_.fused_bodies.end(),
                                               name) != spec_.fused_bodies.end()) {
      fail(where, "body '" + name +
                      "' was fused into its parent by <compiler fusestatic=\"true\">, so it "
                      "cannot be named here; give it a joint or set fusestatic=\"false\"");
    }
    fail(where, std::string("unknown ") + what + " '" + name + "'; " +
                    (names.empty() ? std::string("the model names no ") + what
                                   : std::string("the model defines: ") + defined));
  }

  std::string asset_path(const std::string& file, const std::string& subdir,
                         const std::string& directory) const {
    return pliant::asset_path(spec_, file, subdir, directory);
  }

  // Textures, then materials (which name textures), height fields and meshes.
  void compile_assets() {
    compile_textures();
    compile_materials();
    compile_hfields();
    compile_meshes();
    std::vector<const std::vector<Vector3d>*> hull_points;
    for (const ProcessedMesh& p : processed_meshes_) hull_points.push_back(&p.hull_points);
    compute_mesh_hulls(m_.meshes, hull_points, &hull_faces_);
  }

  // The polygons of each mesh (once geoms and pairs are known): from its
  // hull's triangles when MuJoCo 3.3.8 builds a hull for it (a geom using
  // it collides, by contype/conaffinity or an explicit pair, or its inertia
  // is convex), else from its own triangles.
  void compile_mesh_polygons() {
    std::vector<bool> hull(processed_meshes_.size(), false);
    const auto mark = [&](int g) {
      const int mesh = m_.geoms.data_id[g];
      if (m_.geoms.type[g] == GeomType::kMesh && mesh >= 0) hull[mesh] = true;
    };
    for (int g = 0; g < m_.geoms.count(); ++g) {
      if (m_.geoms.contype[g] != 0 || m_.geoms.conaffinity[g] != 0) mark(g);
    }
    for (int p = 0; p < m_.pairs.count(); ++p) {
      mark(m_.pairs.geom1[p]);
      mark(m_.pairs.geom2[p]);
    }
    std::vector<PolygonSource> sources;
    for (size_t i = 0; i < processed_meshes_.size(); ++i) {
      const ProcessedMesh& p = processed_meshes_[i];
      const bool from_hull =
          (hull[i] || m_.meshes.inertia[i] == static_cast<int>(MeshInertia::kConvex)) &&
          !hull_faces_[i].empty();
      sources.push_back(
          {from_hull ? &hull_faces_[i] : &p.mesh.faces, &p.hull_points, &p.principal_points});
    }
    compute_mesh_polygons(m_.meshes, sources);
  }

  void compile_textures() {
    for (size_t i = 0; i < spec_.textures.size(); ++i) {
      const TextureSpec& t = spec_.textures[i];
      check_texture_source(t);
      // A texture from a file and without a name is named after the file
      // (MuJoCo does the same for meshes and height fields).
      const std::string name = t.name.empty() && !t.file.empty()
                                   ? std::filesystem::path(t.file).stem().string()
                                   : t.name;
      m_.textures.type.push_back(t.type);
      m_.textures.name.push_back(name);
      // Image files by the path they are found at (empty: not given).
      const auto found_at = [&](const std::string& file) {
        return file.empty() ? std::string()
                            : asset_path(file, spec_.compiler.texturedir, t.directory);
      };
      m_.textures.file.push_back(found_at(t.file));
      m_.textures.builtin.push_back(t.builtin);
      std::array<std::string, 6> sides;
      std::transform(t.side_files.begin(), t.side_files.end(), sides.begin(), found_at);
      m_.textures.side_files.push_back(sides);
      m_.textures.rgb1.push_back(t.rgb1);
      m_.textures.rgb2.push_back(t.rgb2);
      // A builtin cube or skybox is six squares stacked, whatever height
      // says (as MuJoCo 3.3.8 compiles it).
      const bool builtin = t.builtin != "none";
      m_.textures.width.push_back(t.width);
      m_.textures.height.push_back(builtin && t.type != 0 ? 6 * t.width : t.height);
      add_name(ObjectType::kTexture, name, static_cast<int>(i), t.where, "texture");
    }
  }

  // Where a texture's pixels come from, refused as MuJoCo 3.3.8 refuses it:
  // a builtin pattern needs its size, anything else a file (a cube or
  // skybox also its six side files; a 2d texture has no sides).
  static void check_texture_source(const TextureSpec& t) {
    if (t.builtin != "none") {
      if (t.width <= 0) {
        fail(t.where, "builtin texture needs a positive 'width' (got " + std::to_string(t.width) +
                          "); the pattern is width x height pixels");
      }
      if (t.type == 0 && t.height <= 0) {
        fail(t.where,
             "builtin 2d texture needs a positive 'height' (got " + std::to_string(t.height) + ")");
      }
      return;
    }
    if (!t.file.empty()) return;
    if (t.type == 0) {
      fail(t.where,
           "2d texture has neither 'file' nor 'builtin' (the side files fileright, ... are for "
           "cube and skybox textures)");
    }
    if (std::all_of(t.side_files.begin(), t.side_files.end(),
                    [](const std::string& f) { return f.empty(); })) {
      fail(t.where,
           "cube or skybox texture has no image: give 'file', the six side files (fileright, "
           "fileleft, fileup, filedown, filefront, fileback) or 'builtin'");
    }
  }

  void compile_materials() {
    for (size_t i = 0; i < spec_.materials.size(); ++i) {
      const MaterialSpec& s = spec_.materials[i];
      Materials& t = m_.materials;
      t.texture.push_back(
          s.texture.empty() ? -1 : lookup(ObjectType::kTexture, s.texture, s.where, "texture"));
      t.texrepeat.push_back(s.texrepeat);
      t.texuniform.push_back(s.texuniform);
      t.emission.push_back(s.emission);
      t.specular.push_back(s.specular);
      t.shininess.push_back(s.shininess);
      t.reflectance.push_back(s.reflectance);
      t.metallic.push_back(static_cast<float>(s.metallic));
      t.roughness.push_back(static_cast<float>(s.roughness));
      t.rgba.push_back(s.rgba);
      t.name.push_back(s.name);
      add_name(ObjectType::kMaterial, s.name, static_cast<int>(i), s.where, "material");
    }
  }

  void compile_hfields() {
    for (size_t i = 0; i < spec_.hfields.size(); ++i) {
      const HfieldSpec& s = spec_.hfields[i];
      const std::string name = s.name.empty() && !s.file.empty()
                                   ? std::filesystem::path(s.file).stem().string()
                                   : s.name;
      if (s.size.minCoeff() <= 0) {
        fail(s.where,
             "hfield 'size' must be four positive numbers: x and y half-extents, the "
             "elevation scale and the base depth");
      }
      const std::string path =
          s.file.empty() ? "" : asset_path(s.file, spec_.compiler.meshdir, s.directory);
      HfieldData data =
          load_hfield_data(path, s.nrow, s.ncol, s.elevation, s.where.file, s.where.line, s.format);
      if (data.nrow < 2 || data.ncol < 2) {
        fail(s.where, "a height field needs at least 2 rows and 2 columns");
      }
      Hfields& h = m_.hfields;
      h.name.push_back(name);
      h.file.push_back(path);
      h.size.push_back(s.size);
      h.nrow.push_back(data.nrow);
      h.ncol.push_back(data.ncol);
      h.adr.push_back(static_cast<int>(h.data.size()));
      h.data.insert(h.data.end(), data.elevation.begin(), data.elevation.end());
      add_name(ObjectType::kHfield, name, static_cast<int>(i), s.where, "hfield");
    }
  }

  void compile_meshes() {
    for (size_t i = 0; i < spec_.meshes.size(); ++i) {
      const MeshSpec& s = spec_.meshes[i];
      std::string name = s.name;
      TriangleMesh raw;
      std::string path;
      if (!s.file.empty()) {
        if (name.empty()) name = std::filesystem::path(s.file).stem().string();
        path = asset_path(s.file, spec_.compiler.meshdir, s.directory);
        const bool mirrored = s.scale[0] * s.scale[1] * s.scale[2] < 0;
        raw = read_mesh_file(path, mirrored, s.where.file, s.where.line, s.format);
      } else {
        if (s.vertex.empty()) fail(s.where, "<mesh> needs a 'file' or inline 'vertex' data");
        raw = make_inline_mesh(s.vertex, s.face, s.where.file, s.where.line);
      }
      MeshOptions options;
      options.scale = s.scale;
      options.refpos = s.refpos;
      options.refquat = s.refquat;
      options.maxhullvert = s.maxhullvert;
      // <compiler exactmeshinertia="true"> (MJCF before 3.2) sets the default.
      options.inertia =
          spec_.compiler.exactmeshinertia ? MeshInertia::kExact : MeshInertia::kLegacy;
      if (s.inertia == "convex") options.inertia = MeshInertia::kConvex;
      if (s.inertia == "exact") options.inertia = MeshInertia::kExact;
      if (s.inertia == "shell") options.inertia = MeshInertia::kShell;
      if (s.inertia == "legacy") options.inertia = MeshInertia::kLegacy;
      processed_meshes_.push_back(
          process_mesh(std::move(raw), options, s.where.file, s.where.line));
      const ProcessedMesh& p = processed_meshes_.back();
      Meshes& t = m_.meshes;
      t.vert_adr.push_back(static_cast<int>(t.vertices.size()));
      t.vert_count.push_back(static_cast<int>(p.mesh.vertices.size()));
      t.face_adr.push_back(static_cast<int>(t.faces.size()));
      t.face_count.push_back(static_cast<int>(p.mesh.faces.size()));
      t.vertices.insert(t.vertices.end(), p.mesh.vertices.begin(), p.mesh.vertices.end());
      t.faces.insert(t.faces.end(), p.mesh.faces.begin(), p.mesh.faces.end());
      t.volume.push_back(p.volume);
      t.maxhullvert.push_back(s.maxhullvert);
      t.source_vertices.insert(t.source_vertices.end(), p.hull_points.begin(), p.hull_points.end());
      t.scale.push_back(s.scale);
      t.refpos.push_back(s.refpos);
      t.refquat.push_back(s.refquat);
      t.inertia.push_back(static_cast<int>(options.inertia));
      t.frame_pos.push_back(p.pos);
      t.frame_quat.push_back(p.quat);
      t.name.push_back(name);
      t.file.push_back(path);
      add_name(ObjectType::kMesh, name, static_cast<int>(i), s.where, "mesh");
    }
  }

  // User data: each kind's rows as written, padded with zeros to the kind's
  // width once every element is compiled (finish_user_data).
  enum UserKind {
    kUserBody,
    kUserJoint,
    kUserGeom,
    kUserSite,
    kUserCamera,
    kUserTendon,
    kUserActuator,
    kUserSensor
  };

  void add_user_row(UserKind kind, std::vector<std::vector<double>>& rows,
                    const std::vector<double>& user, const SourceLocation& where) {
    rows.push_back(user);
    user_where_[kind].push_back(where);
  }

  // Each kind's width is <size nuser_*>, or the most values any element
  // gives when that is -1 (MuJoCo's rule); an element giving more than a
  // set width is a load error; shorter rows are padded with zeros.
  void finish_user_data() {
    struct Kind {
      std::vector<std::vector<double>>* rows;
      int given;
      int* width;
      const char* size;
      const char* element;
    };
    const Kind kinds[] = {
        {&m_.bodies.user, spec_.nuser_body, &m_.nuser_body, "nuser_body", "body"},
        {&m_.joints.user, spec_.nuser_jnt, &m_.nuser_jnt, "nuser_jnt", "joint"},
        {&m_.geoms.user, spec_.nuser_geom, &m_.nuser_geom, "nuser_geom", "geom"},
        {&m_.sites.user, spec_.nuser_site, &m_.nuser_site, "nuser_site", "site"},
        {&m_.cameras.user, spec_.nuser_cam, &m_.nuser_cam, "nuser_cam", "camera"},
        {&m_.tendons.user, spec_.nuser_tendon, &m_.nuser_tendon, "nuser_tendon", "tendon"},
        {&m_.actuators.user, spec_.nuser_actuator, &m_.nuser_actuator, "nuser_actuator",
         "actuator"},
        {&m_.sensors.user, spec_.nuser_sensor, &m_.nuser_sensor, "nuser_sensor", "sensor"}};
    for (int k = 0; k < 8; ++k) {
      const Kind& kind = kinds[k];
      std::vector<std::vector<double>>& rows = *kind.rows;
      size_t width = kind.given >= 0 ? static_cast<size_t>(kind.given) : 0;
      if (kind.given < 0) {
        for (const auto& row : rows) width = std::max(width, row.size());
      }
      for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].size() > width) {
          fail(user_where_[k][i], "'user' of <" + std::string(kind.element) + "> has " +
                                      std::to_string(rows[i].size()) + " values; <size " +
                                      kind.size + "> allows " + std::to_string(width) +
                                      " (-1: as many as the longest)");
        }
        rows[i].resize(width, 0.0);
      }
      *kind.width = static_cast<int>(width);
    }
  }

  void compile_bodies() {
    Bodies& b = m_.bodies;
    for (size_t id = 0; id < bodies_.size(); ++id) {
      const BodySpec& s = *bodies_[id].spec;
      const int parent = bodies_[id].parent;
      b.parent.push_back(std::max(parent, 0));
      b.root.push_back(parent <= 0 ? static_cast<int>(id) : b.root[parent]);
      b.weld.push_back(id == 0 ? 0 : (s.joints.empty() ? b.weld[parent] : static_cast<int>(id)));
      if (s.mocap) {
        if (parent != 0) fail(s.where, "a mocap body must be a child of the world body");
        if (!s.joints.empty()) fail(s.where, "a mocap body cannot have joints");
      }
      if (s.mocap && s.attachment >= 0) attached_mocap_[s.attachment] = m_.nmocap;
      b.mocap.push_back(s.mocap ? m_.nmocap++ : -1);
      b.gravcomp.push_back(s.gravcomp);
      m_.has_gravcomp = m_.has_gravcomp || s.gravcomp != 0;
      b.pos.push_back(s.pos);
      b.quat.push_back(unit_as_compiler(s.quat));
      b.name.push_back(id == 0 ? "world" : s.name);
      add_user_row(kUserBody, b.user, s.user, s.where);
      add_name(ObjectType::kBody, b.name.back(), static_cast<int>(id), s.where, "body");

      b.geom_adr.push_back(s.geoms.empty() ? -1 : m_.geoms.count());
      b.geom_count.push_back(static_cast<int>(s.geoms.size()));
      for (const GeomSpec& g : s.geoms) compile_geom(g, static_cast<int>(id));
      for (const SiteSpec& site : s.sites) compile_site(site, static_cast<int>(id));
      for (const CameraSpec& c : s.cameras) compile_camera(c, static_cast<int>(id));
      for (const LightSpec& l : s.lights) compile_light(l, static_cast<int>(id));
    }
    // Camera and light targets may name any body, so resolve them last.
    resolve_targets();
  }

  // Moments of a box of mass m and half-sizes b, which is what a mesh geom
  // gets (the box has the mesh's principal moments).
  static Vector3d box_inertia(double m, const Vector3d& b) {
    return Vector3d(m * (b[1] * b[1] + b[2] * b[2]) / 3, m * (b[0] * b[0] + b[2] * b[2]) / 3,
                    m * (b[0] * b[0] + b[1] * b[1]) / 3);
  }

  // A primitive geom that names a mesh is fitted to it, as MuJoCo 3.3.8 does:
  // it takes the mesh's frame and a size from the mesh's equivalent-inertia
  // box b (or, with <compiler fitaabb="true">, from the bounding box h, whose
  // centre offsets the geom), then scaled by fitscale:
  //   sphere   (b0 + b1 + b2) / 3                     max(h)
  //   capsule  r = (b0 + b1) / 2, max(0, b2 - r / 2)   r = max(h0, h1), h2 - r
  //   cylinder r = (b0 + b1) / 2, b2                   r = max(h0, h1), h2
  //   box, ellipsoid  b                                h
  void fit_to_mesh(const GeomSpec& s, const ProcessedMesh& p, Vector3d& pos, Quaterniond& quat,
                   Vector3d& size) const {
    Vector3d centre = Vector3d::Zero();
    const bool aabb = spec_.compiler.fitaabb;
    const Vector3d b = aabb ? Vector3d((p.aabb_max - p.aabb_min) / 2) : p.box_half_size;
    if (aabb) centre = (p.aabb_max + p.aabb_min) / 2;
    switch (s.type) {
      case GeomType::kSphere:
        size = Vector3d(aabb ? b.maxCoeff() : (b[0] + b[1] + b[2]) / 3, 0, 0);
        break;
      case GeomType::kCapsule: {
        const double r = aabb ? std::max(b[0], b[1]) : (b[0] + b[1]) / 2;
        size = Vector3d(r, aabb ? b[2] - r : std::max(0.0, b[2] - r / 2), 0);
        break;
      }
      case GeomType::kCylinder: {
        const double r = aabb ? std::max(b[0], b[1]) : (b[0] + b[1]) / 2;
        size = Vector3d(r, b[2], 0);
        break;
      }
      case GeomType::kBox:
      case GeomType::kEllipsoid:
        size = b;
        break;
      default:
        fail(s.where, std::string("a ") + geom_type_name(s.type) +
                          " geom cannot be fitted to a mesh; remove 'mesh' or use a sphere, "
                          "capsule, cylinder, box or ellipsoid");
    }
    size *= s.fitscale;
    pos = pos + quat * (p.pos + p.quat * centre);
    quat = quat_mul(quat, p.quat);
    for (int i = 0; i < required_sizes(s.type, false); ++i) {
      if (size[i] <= 0) {
        fail(s.where, std::string("the ") + geom_type_name(s.type) + " fitted to mesh '" + s.mesh +
                          "' has size[" + std::to_string(i) + "] = " + std::to_string(size[i]) +
                          "; it must be positive");
      }
    }
  }

  // The positive sizes a geom's type needs (none when fitted to a mesh).
  void check_geom_size(const GeomSpec& s, const Vector3d& size) const {
    // A primitive fitted to a mesh takes its size from the mesh.
    const bool fitted = !s.mesh.empty() && s.type != GeomType::kMesh;
    // A plane's third size is the spacing of its drawn grid; MuJoCo 3.3.8
    // refuses a plane without it (its half-sizes may be 0: infinite).
    if (s.type == GeomType::kPlane && !(size[2] > 0)) {
      fail(s.where,
           "a plane geom needs three sizes (x and y half-sizes, 0 for infinite, and a "
           "positive grid spacing); size[2] is " +
               std::to_string(size[2]));
    }
    const int needed = fitted ? 0 : required_sizes(s.type, s.fromto.has_value());
    for (int i = 0; i < needed; ++i) {
      if (size[i] <= 0) {
        fail(s.where, std::string("a ") + geom_type_name(s.type) + " geom needs " +
                          std::to_string(needed) + " positive size value" +
                          (needed > 1 ? "s" : "") + (s.fromto ? " besides 'fromto'" : "") +
                          "; size[" + std::to_string(i) + "] is " + std::to_string(size[i]));
      }
    }
  }

  // An hfield geom's size and bounding radius from its height field; returns
  // the height field's id.
  int size_from_hfield(const GeomSpec& s, Vector3d& size, double& rbound) {
    // Size from the height field (x, y, z_top, z_bottom): the x and y
    // half-extents, and z as MuJoCo 3.3.8 sets it.
    if (s.hfield.empty()) fail(s.where, "an hfield geom needs an 'hfield' attribute");
    const int hfield = lookup(ObjectType::kHfield, s.hfield, s.where, "hfield");
    // (measured: z = z_top / 4 + z_bottom / 2).
    const Vector4d& h = m_.hfields.size[hfield];
    size = Vector3d(h[0], h[1], 0.25 * h[2] + 0.5 * h[3]);
    rbound = std::sqrt(h[0] * h[0] + h[1] * h[1] + std::pow(std::max(h[2], h[3]), 2));
    return hfield;
  }

  void compile_geom(const GeomSpec& s, int body) {
    Geoms& g = m_.geoms;
    const int id = g.count();
    Vector3d pos = s.pos, size = s.size;
    Quaterniond quat = s.quat;
    if (s.fromto) apply_fromto(*s.fromto, s.type, s.where, pos, quat, size);
    if (!s.hfield.empty() && s.type != GeomType::kHfield) {
      fail(s.where,
           std::string("'hfield' names the height field of an hfield geom; this geom is a ") +
               geom_type_name(s.type) + " (write type=\"hfield\", or leave 'hfield' out)");
    }
    check_geom_size(s, size);
    int mesh = -1;
    double rbound = primitive_rbound(s.type, size);
    if (s.type == GeomType::kMesh) {
      if (s.mesh.empty()) fail(s.where, "a mesh geom needs a 'mesh' attribute naming a <mesh>");
      if (s.shell) {
        fail(s.where,
             "shellinertia is for primitive geoms; a mesh's surface inertia is "
             "<mesh inertia=\"shell\"> on the asset");
      }
      mesh = lookup(ObjectType::kMesh, s.mesh, s.where, "mesh");
      // The mesh was re-centred at its centroid and turned to its principal
      // axes; the geom pose absorbs that offset.
      const ProcessedMesh& p = processed_meshes_[mesh];
      pos = pos + quat * p.pos;
      quat = quat_mul(quat, p.quat);
      size = p.half_size;
      rbound = p.rbound;
    } else if (!s.mesh.empty()) {
      mesh = lookup(ObjectType::kMesh, s.mesh, s.where, "mesh");
      fit_to_mesh(s, processed_meshes_[mesh], pos, quat, size);
      rbound = primitive_rbound(s.type, size);
    }
    const int hfield = s.type == GeomType::kHfield ? size_from_hfield(s, size, rbound) : -1;
    if (s.fused) s.fused->place(pos, quat);
    if (s.type == GeomType::kPlane && body != 0 && bodies_[body].spec->joints.size() > 0) {
      fail(s.where,
           "a plane can only be attached to a static body (the world or a body "
           "without joints)");
    }
    g.type.push_back(s.type);
    g.contype.push_back(s.contype);
    g.conaffinity.push_back(s.conaffinity);
    g.condim.push_back(s.condim);
    g.body.push_back(body);
    g.data_id.push_back(mesh >= 0 ? mesh : hfield);
    g.group.push_back(s.group);
    g.priority.push_back(s.priority);
    g.material.push_back(
        s.material.empty() ? -1 : lookup(ObjectType::kMaterial, s.material, s.where, "material"));
    g.same_frame_as_body.push_back(pos.isZero(0) &&
                                   quat.coeffs() == Quaterniond::Identity().coeffs());
    g.size.push_back(size);
    g.rbound.push_back(rbound);
    g.pos.push_back(pos);
    g.quat.push_back(unit_as_compiler(quat));
    g.friction.push_back(s.friction);
    g.solmix.push_back(s.solmix);
    g.solref.push_back(s.solref);
    g.solimp.push_back(s.solimp);
    g.margin.push_back(s.margin);
    g.gap.push_back(s.gap);
    g.rgba.push_back(s.rgba);
    g.fluid.push_back(s.fluid_ellipsoid ? ellipsoid_fluid(s.type, size, s.fluidcoef)
                                        : GeomFluid::Zero());
    g.name.push_back(s.name);
    add_user_row(kUserGeom, g.user, s.user, s.where);
    add_name(ObjectType::kGeom, s.name, id, s.where, "geom");
    geom_specs_.push_back(&s);
  }

  void compile_site(const SiteSpec& s, int body) {
    Sites& t = m_.sites;
    Vector3d pos = s.pos, size = s.size;
    Quaterniond quat = s.quat;
    if (s.fromto) apply_fromto(*s.fromto, s.type, s.where, pos, quat, size);
    if (s.fused) s.fused->place(pos, quat);
    if (s.type == GeomType::kMesh || s.type == GeomType::kHfield || s.type == GeomType::kPlane) {
      fail(s.where, "a site must be a sphere, capsule, ellipsoid, cylinder or box");
    }
    t.type.push_back(s.type);
    t.body.push_back(body);
    t.group.push_back(s.group);
    t.material.push_back(
        s.material.empty() ? -1 : lookup(ObjectType::kMaterial, s.material, s.where, "material"));
    t.size.push_back(size);
    t.pos.push_back(pos);
    t.quat.push_back(unit_as_compiler(quat));
    t.rgba.push_back(s.rgba);
    t.name.push_back(s.name);
    add_user_row(kUserSite, t.user, s.user, s.where);
    add_name(ObjectType::kSite, s.name, t.count() - 1, s.where, "site");
  }

  void compile_camera(const CameraSpec& s, int body) {
    Cameras& t = m_.cameras;
    t.body.push_back(body);
    t.mode.push_back(s.mode);
    t.target_body.push_back(-1);
    t.pos.push_back(s.pos);
    t.quat.push_back(unit_as_compiler(s.quat));
    // Intrinsics as MuJoCo 3.x compiles them: pixel values are converted to
    // lengths through resolution and sensorsize, and a sensor size, when
    // given, overrides fovy with the angle the focal length sees.
    if (s.resolution[0] < 0 || s.resolution[1] < 0 || s.sensorsize[0] < 0 || s.sensorsize[1] < 0) {
      fail(s.where, "camera 'resolution' and 'sensorsize' must not be negative");
    }
    // Without a focal length, a camera's is the near clipping distance.
    Eigen::Vector2d focal = s.has_focal ? s.focal : Eigen::Vector2d::Constant(spec_.visual_znear);
    Eigen::Vector2d principal = s.principal;
    for (int k = 0; k < 2; ++k) {
      const double metres_per_pixel = s.sensorsize[k] / s.resolution[k];
      if (s.has_focalpixel) focal[k] = s.focalpixel[k] * metres_per_pixel;
      if (s.has_principalpixel) principal[k] = s.principalpixel[k] * metres_per_pixel;
    }
    double fovy = s.fovy;
    if (s.sensorsize[1] > 0) {
      if (focal[1] <= 0) fail(s.where, "a camera with 'sensorsize' needs a positive focal length");
      fovy = 2 * std::atan(s.sensorsize[1] / (2 * focal[1])) * 180 / M_PI;
    }
    t.fovy.push_back(fovy);
    t.ipd.push_back(s.ipd);
    t.orthographic.push_back(s.orthographic ? 1 : 0);
    t.resolution.push_back(s.resolution);
    t.sensorsize.push_back(s.sensorsize);
    t.intrinsic.push_back(Eigen::Vector4d(focal[0], focal[1], principal[0], principal[1]));
    t.name.push_back(s.name);
    add_user_row(kUserCamera, t.user, s.user, s.where);
    add_name(ObjectType::kCamera, s.name, t.count() - 1, s.where, "camera");
    camera_specs_.push_back(&s);
  }

  void compile_light(const LightSpec& s, int body) {
    Lights& t = m_.lights;
    t.body.push_back(body);
    t.mode.push_back(s.mode);
    t.target_body.push_back(-1);
    t.type.push_back(s.type);
    t.directional.push_back(s.type == 1);
    t.texture.push_back(
        s.texture.empty() ? -1 : lookup(ObjectType::kTexture, s.texture, s.where, "texture"));
    t.intensity.push_back(static_cast<float>(s.intensity));
    t.range.push_back(static_cast<float>(s.range));
    t.bulbradius.push_back(static_cast<float>(s.bulbradius));
    t.castshadow.push_back(s.castshadow);
    t.active.push_back(s.active);
    t.pos.push_back(s.pos);
    const double length = s.dir.norm();
    if (length < kMinValue) fail(s.where, "attribute 'dir' of <light> must not be zero");
    t.dir.push_back(s.dir / length);
    t.attenuation.push_back(s.attenuation);
    t.ambient.push_back(s.ambient);
    t.diffuse.push_back(s.diffuse);
    t.specular.push_back(s.specular);
    t.cutoff.push_back(s.cutoff);
    t.exponent.push_back(s.exponent);
    t.name.push_back(s.name);
    add_name(ObjectType::kLight, s.name, t.count() - 1, s.where, "light");
    light_specs_.push_back(&s);
  }

  void resolve_targets() {
    for (size_t i = 0; i < camera_specs_.size(); ++i) {
      const CameraSpec& s = *camera_specs_[i];
      if (!s.target.empty()) {
        m_.cameras.target_body[i] = lookup(ObjectType::kBody, s.target, s.where, "body");
      }
    }
    for (size_t i = 0; i < light_specs_.size(); ++i) {
      const LightSpec& s = *light_specs_[i];
      if (!s.target.empty()) {
        m_.lights.target_body[i] = lookup(ObjectType::kBody, s.target, s.where, "body");
      }
    }
  }

  // A joint's entries in qpos0 and qpos_spring; `scale` converts a hinge's or
  // slide's ref and springref (degrees to radians for a hinge).
  void add_reference_pose(const JointSpec& js, int body, double scale) {
    // qpos0: the reference pose. Free joints start at the body's pose in
    // its parent (the world), balls at the identity.
    switch (js.type) {
      case JointType::kFree: {
        const Quaterniond& q = m_.bodies.quat[body];
        const Vector3d& p = m_.bodies.pos[body];
        for (double v : {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z()}) {
          m_.qpos0.push_back(v);
          m_.qpos_spring.push_back(v);
        }
        m_.nq += 7;
        break;
      }
      case JointType::kBall:
        for (double v : {1.0, 0.0, 0.0, 0.0}) {
          m_.qpos0.push_back(v);
          m_.qpos_spring.push_back(v);
        }
        m_.nq += 4;
        break;
      default:
        m_.qpos0.push_back(js.ref * scale);
        m_.qpos_spring.push_back(js.springref * scale);
        m_.nq += 1;
    }
  }

  // The dofs a joint adds, each the child of `previous` (updated to the last).
  void add_dofs(const JointSpec& js, int body, int id, int& previous) {
    Dofs& d = m_.dofs;
    const int ndof = joint_dof_count(js.type);
    for (int k = 0; k < ndof; ++k) {
      d.body.push_back(body);
      d.joint.push_back(id);
      d.parent.push_back(previous);
      previous = d.count() - 1;
      d.solref.push_back(js.solref_friction);
      d.solimp.push_back(js.solimp_friction);
      d.frictionloss.push_back(js.frictionloss);
      d.armature.push_back(js.armature);
      d.damping.push_back(js.damping);
      d.invweight0.push_back(0);
    }
  }

  void set_mass_matrix_addresses() {
    Dofs& d = m_.dofs;
    // Sparse M stores, for each dof, its diagonal then its ancestor dofs:
    // row i has 1 + depth(i) entries, the dofs mass_column lists.
    for (int i = 0; i < m_.nv; ++i) {
      d.madr.push_back(static_cast<int>(d.mass_column.size()));
      for (int k = i; k >= 0; k = d.parent[k]) d.mass_column.push_back(k);
    }
    d.simplenum.assign(m_.nv, 0);  // the model constants classify the bodies
  }

  void compile_joints_and_dofs() {
    Joints& j = m_.joints;
    Dofs& d = m_.dofs;
    Bodies& b = m_.bodies;
    std::vector<int> last_dof(bodies_.size(), -1);  // last dof of a body or its ancestors
    for (size_t body = 0; body < bodies_.size(); ++body) {
      const BodySpec& s = *bodies_[body].spec;
      const int parent = bodies_[body].parent;
      int previous = parent >= 0 ? last_dof[parent] : -1;
      b.joint_adr.push_back(s.joints.empty() ? -1 : j.count());
      b.joint_count.push_back(static_cast<int>(s.joints.size()));
      b.dof_adr.push_back(s.joints.empty() ? -1 : d.count());
      for (const JointSpec& js : s.joints) {
        const int id = j.count();
        if (js.type == JointType::kFree) {
          if (parent != 0) {
            fail(js.where, "a free joint can only be used in a body that is a child of the world");
          }
          if (s.joints.size() > 1) {
            fail(js.where, "a body with a free joint cannot have other joints");
          }
        }
        const bool angular = js.type == JointType::kHinge || js.type == JointType::kBall;
        const double angle = js.degrees.value_or(spec_.compiler.degrees) ? M_PI / 180 : 1;
        if (js.attachment >= 0) attached_joint_[js.attachment] = id;
        Vector3d axis = js.axis;
        if (axis.norm() < kMinValue) fail(js.where, "attribute 'axis' of <joint> must not be zero");
        axis.normalize();
        const bool limited = resolve_limited(js.limited, js.range_given, spec_.compiler.autolimits,
                                             "joint", "range", "limited", js.where);
        // Only the ranges of limited joints are converted to radians (as
        // MuJoCo 2.2.2 does); an unused range is kept as written.
        Vector2d range = js.range * (angular && limited ? angle : 1.0);
        if (limited && js.type == JointType::kFree) {
          fail(js.where, "a free joint cannot be limited");
        }
        if (limited && js.type != JointType::kBall && range[0] >= range[1]) {
          fail(js.where, "a limited joint needs range[0] < range[1]");
        }
        const bool actfrc_limited = resolve_limited(
            js.actuatorfrclimited, js.actuatorfrcrange_given, spec_.compiler.autolimits, "joint",
            "actuatorfrcrange", "actuatorfrclimited", js.where);
        if (actfrc_limited && js.actuatorfrcrange[0] >= js.actuatorfrcrange[1]) {
          fail(js.where,
               "a joint with 'actuatorfrclimited' needs 'actuatorfrcrange' with range[0] < "
               "range[1]");
        }
        j.actfrc_limited.push_back(actfrc_limited);
        j.actfrc_range.push_back(js.actuatorfrcrange);
        j.actgravcomp.push_back(js.actuatorgravcomp);
        j.type.push_back(js.type);
        joint_specs_.push_back(&js);
        j.qpos_adr.push_back(m_.nq);
        j.dof_adr.push_back(d.count());
        j.body.push_back(static_cast<int>(body));
        j.group.push_back(js.group);
        j.limited.push_back(limited);
        j.solref.push_back(js.solref_limit);
        j.solimp.push_back(js.solimp_limit);
        j.pos.push_back(js.pos);
        j.axis.push_back(axis);
        j.stiffness.push_back(js.stiffness);
        j.springdamper.push_back(js.springdamper);
        j.range.push_back(range);
        j.margin.push_back(js.margin);
        j.name.push_back(js.name);
        add_user_row(kUserJoint, j.user, js.user, js.where);
        add_name(ObjectType::kJoint, js.name, id, js.where, "joint");

        add_reference_pose(js, static_cast<int>(body), angular ? angle : 1.0);
        add_dofs(js, static_cast<int>(body), id, previous);
      }
      b.dof_count.push_back(d.count() - (b.dof_adr.back() < 0 ? d.count() : b.dof_adr.back()));
      last_dof[body] = previous;
    }
    m_.nv = d.count();
    set_mass_matrix_addresses();
  }

  // Mass and inertia of each body: from <inertial>, or from its geoms (each a
  // solid of uniform density, summed about the combined centre of mass and
  // then diagonalised to the principal frame).
  // <freejoint align> (or <compiler alignfree>), as MuJoCo 3.3.8 applies it:
  // a free body without child bodies gets its inertial frame as its body
  // frame. Its geoms, sites, cameras and lights are expressed in the new
  // frame, and the joint's qpos0 is the new pose (keyframes are kept as
  // written).
  void align_free_bodies() {
    Bodies& b = m_.bodies;
    std::vector<bool> has_child(b.count(), false);
    for (int i = 1; i < b.count(); ++i) has_child[b.parent[i]] = true;
    for (int i = 1; i < b.count(); ++i) {
      if (has_child[i] || b.joint_count[i] != 1) continue;
      const int joint = b.joint_adr[i];
      const JointSpec& js = *joint_specs_[joint];
      if (js.type != JointType::kFree) continue;
      const bool align =
          js.align == TriState::kAuto ? spec_.compiler.alignfree : js.align == TriState::kTrue;
      if (!align) continue;
      const Vector3d ipos = b.ipos[i];
      const Quaterniond iquat = b.iquat[i];
      const Quaterniond inverse = iquat.conjugate();
      const auto to_new = [&](const Vector3d& p) { return Vector3d(inverse * (p - ipos)); };
      b.pos[i] = b.pos[i] + b.quat[i] * ipos;
      b.quat[i] = (b.quat[i] * iquat).normalized();
      b.ipos[i].setZero();
      b.iquat[i] = Quaterniond::Identity();
      Geoms& g = m_.geoms;
      for (int k = b.geom_adr[i]; k < b.geom_adr[i] + b.geom_count[i]; ++k) {
        g.pos[k] = to_new(g.pos[k]);
        g.quat[k] = (inverse * g.quat[k]).normalized();
        g.same_frame_as_body[k] =
            g.pos[k].isZero(0) && g.quat[k].coeffs() == Quaterniond::Identity().coeffs();
      }
      Sites& s = m_.sites;
      for (int k = 0; k < s.count(); ++k) {
        if (s.body[k] != i) continue;
        s.pos[k] = to_new(s.pos[k]);
        s.quat[k] = (inverse * s.quat[k]).normalized();
      }
      Cameras& c = m_.cameras;
      for (int k = 0; k < c.count(); ++k) {
        if (c.body[k] != i) continue;
        c.pos[k] = to_new(c.pos[k]);
        c.quat[k] = (inverse * c.quat[k]).normalized();
      }
      Lights& l = m_.lights;
      for (int k = 0; k < l.count(); ++k) {
        if (l.body[k] != i) continue;
        l.pos[k] = to_new(l.pos[k]);
        l.dir[k] = inverse * l.dir[k];
      }
      const int adr = m_.joints.qpos_adr[joint];
      const double pose[7] = {b.pos[i].x(),  b.pos[i].y(),  b.pos[i].z(), b.quat[i].w(),
                              b.quat[i].x(), b.quat[i].y(), b.quat[i].z()};
      for (int k = 0; k < 7; ++k) m_.qpos0[adr + k] = m_.qpos_spring[adr + k] = pose[k];
    }
  }

  void compile_mass() {
    Bodies& b = m_.bodies;
    const CompilerSettings& c = spec_.compiler;
    b.ipos.assign(bodies_.size(), Vector3d::Zero());
    b.iquat.assign(bodies_.size(), Quaterniond::Identity());
    b.mass.assign(bodies_.size(), 0);
    b.inertia.assign(bodies_.size(), Vector3d::Zero());
    b.invweight0.assign(bodies_.size(), Vector2d::Zero());
    for (size_t body = 1; body < bodies_.size(); ++body) {
      const BodySpec& s = *bodies_[body].spec;
      if (!takes_inertia_from_geoms(c, s) && !has_fused_mass(static_cast<int>(body))) {
        if (s.inertial) {
          b.ipos[body] = s.inertial->pos;
          b.iquat[body] = unit_as_compiler(s.inertial->quat);
          b.mass[body] = s.inertial->mass;
          b.inertia[body] = s.inertial->diaginertia;
        }
      } else {
        geom_mass(static_cast<int>(body));
        // A body whose geoms carry no mass takes its own frame (pos, quat in
        // the parent) as its inertial frame, as MuJoCo 3.3.8 does; it only
        // shows in the body's invweight0, measured at that point.
        if (b.mass[body] == 0) {
          b.ipos[body] = b.pos[body];
          b.iquat[body] = b.quat[body];
        }
      }
      b.mass[body] = std::max(b.mass[body], c.boundmass);
      for (int k = 0; k < 3; ++k) b.inertia[body][k] = std::max(b.inertia[body][k], c.boundinertia);
    }
    if (c.settotalmass > 0) {
      double total = 0;
      for (double mass : b.mass) total += mass;
      if (total < kMinValue) {
        fail(spec_.world.where, "settotalmass needs bodies with some mass to scale");
      }
      const double scale = c.settotalmass / total;
      for (size_t i = 0; i < b.mass.size(); ++i) {
        b.mass[i] *= scale;
        b.inertia[i] *= scale;
      }
    }
    // Subtree masses, children before parents (ids are depth-first).
    b.subtree_mass = b.mass;
    for (int i = static_cast<int>(bodies_.size()) - 1; i > 0; --i) {
      b.subtree_mass[b.parent[i]] += b.subtree_mass[i];
    }
    // A body that moves needs mass and inertia somewhere below it.
    for (size_t body = 1; body < bodies_.size(); ++body) {
      if (b.dof_count[body] == 0) continue;
      if (b.subtree_mass[body] < kMinValue) {
        fail(bodies_[body].spec->where,
             "body '" + b.name[body] +
                 "' moves (has joints) but it and its children have no mass; give it an "
                 "<inertial> or geoms with positive volume");
      }
    }
  }

  // Whether static bodies fused into `body` bring it mass (fuse_static.h).
  bool has_fused_mass(int body) const {
    const BodySpec& s = *bodies_[body].spec;
    if (!s.fused_inertials.empty()) return true;
    for (const GeomSpec& g : s.geoms) {
      if (g.fused) return true;
    }
    return false;
  }

  // Mass and inertia from parts: the body's geoms (those whose body took its
  // inertia from its geoms), the body's own <inertial> when it has one and
  // static bodies were fused into it, and the fused bodies' <inertial>s.
  // The parts that weigh in a body: its <inertial> or its geoms (those in
  // the inertia group range), and the inertials of fused static children.
  std::vector<MassPart> mass_parts(int body) const {
    const Bodies& b = m_.bodies;
    const CompilerSettings& c = spec_.compiler;
    const BodySpec& body_spec = *bodies_[body].spec;
    const bool own_geoms = takes_inertia_from_geoms(c, body_spec);
    std::vector<MassPart> parts;
    const auto add_inertial = [&](const InertialSpec& i) {
      const Quaterniond q = unit_as_compiler(i.quat);
      parts.push_back({i.mass, i.pos, q, i.diaginertia, rotated_inertia(i.diaginertia, q)});
    };
    if (!own_geoms && body_spec.inertial) add_inertial(*body_spec.inertial);
    const int first = b.geom_adr[body];
    for (int g = first; g >= 0 && g < first + b.geom_count[body]; ++g) {
      const GeomSpec& s = *geom_specs_[g];
      if (s.fused ? !s.fused_mass : !own_geoms) continue;
      const int group = m_.geoms.group[g];
      if (group < c.inertiagrouprange[0] || group > c.inertiagrouprange[1]) continue;
      const GeomType type = m_.geoms.type[g];
      double volume = 0;
      Vector3d box_half;  // equivalent-inertia box, for meshes
      if (type == GeomType::kMesh) {
        const ProcessedMesh& p = processed_meshes_[m_.geoms.data_id[g]];
        volume = p.volume;
        box_half = p.box_half_size;
      } else {
        // A shell (shellinertia) weighs its area at `density` per m^2.
        volume = s.shell ? primitive_area(type, m_.geoms.size[g])
                         : primitive_volume(type, m_.geoms.size[g]);
      }
      if (type == GeomType::kPlane || type == GeomType::kHfield) continue;
      double mass = s.mass ? *s.mass : s.density * volume;
      Vector3d principal = type == GeomType::kMesh ? box_inertia(mass, box_half)
                           : s.shell ? primitive_shell_inertia(type, m_.geoms.size[g], mass)
                                     : primitive_inertia(type, m_.geoms.size[g], mass);
      parts.push_back({mass, m_.geoms.pos[g], m_.geoms.quat[g], principal,
                       rotated_inertia(principal, m_.geoms.quat[g])});
    }
    for (const InertialSpec& i : body_spec.fused_inertials) add_inertial(i);
    return parts;
  }

  // A body's mass, centre of mass, principal moments and inertial frame from
  // its parts.
  void set_body_inertia(int body, const std::vector<MassPart>& parts) {
    Bodies& b = m_.bodies;
    // One geom with mass: its own frame and moments are the body's inertial
    // frame and principal moments, unsorted (MuJoCo 3.x; 2.2.2 diagonalised
    // the tensor and sorted the moments, turning the frame).
    const auto massive = [](const MassPart& p) { return p.mass > 0; };
    if (std::count_if(parts.begin(), parts.end(), massive) == 1) {
      const MassPart& only = *std::find_if(parts.begin(), parts.end(), massive);
      b.mass[body] = only.mass;
      b.ipos[body] = only.pos;
      b.iquat[body] = only.quat;
      b.inertia[body] = only.principal;
      return;
    }
    double mass = 0;
    Vector3d center = Vector3d::Zero();
    for (const MassPart& p : parts) {
      mass += p.mass;
      center += p.mass * p.pos;
    }
    if (mass < kMinValue) return;
    center /= mass;
    // Parallel-axis theorem: I_c = sum (I_i + m_i (|d|^2 E - d d^T)), each
    // entry summed as 3.3.8 sums it.
    SymmetricTensor total{};
    for (const MassPart& p : parts) {
      const SymmetricTensor offset = offset_inertia(p.mass, p.pos - center);
      for (int k = 0; k < 6; ++k) total[k] = total[k] + p.inertia[k] + offset[k];
    }
    Eigen::Matrix3d tensor;
    tensor << total[0], total[3], total[4], total[3], total[1], total[5], total[4], total[5],
        total[2];
    // Diagonalise as MuJoCo 2.2.2 does (its Jacobi iteration stops short of
    // exact for near-diagonal tensors), so the principal frame is the same.
    Vector3d principal;
    Quaterniond frame;
    eigen_decompose_symmetric3(tensor, &principal, &frame);
    b.mass[body] = mass;
    b.ipos[body] = center;
    b.inertia[body] = principal;
    b.iquat[body] = frame;
  }

  void geom_mass(int body) { set_body_inertia(body, mass_parts(body)); }

  // Body poses in the world at qpos0 (every joint at its reference, so each
  // body sits where the file puts it), for the quantities MuJoCo's compiler
  // measures there.
  void compute_frames_at_qpos0() {
    const Bodies& b = m_.bodies;
    xpos0_.assign(b.count(), Vector3d::Zero());
    xquat0_.assign(b.count(), Quaterniond::Identity());
    for (int i = 1; i < b.count(); ++i) {
      const int p = b.parent[i];
      xpos0_[i] = xpos0_[p] + xquat0_[p] * b.pos[i];
      xquat0_[i] = (xquat0_[p] * b.quat[i]).normalized();
    }
  }

  void compile_tendons() {
    Tendons& t = m_.tendons;
    for (size_t i = 0; i < spec_.tendons.size(); ++i) {
      const TendonSpec& s = spec_.tendons[i];
      const bool limited = resolve_limited(s.limited, s.range_given, spec_.compiler.autolimits,
                                           "tendon", "range", "limited", s.where);
      if (limited && s.range[0] >= s.range[1]) {
        fail(s.where, "a limited tendon needs range[0] < range[1]");
      }
      t.wrap_adr.push_back(static_cast<int>(t.wrap_type.size()));
      t.wrap_count.push_back(static_cast<int>(s.path.size()));
      t.limited.push_back(limited);
      t.range.push_back(s.range);
      // MuJoCo 3.3.8 limits a tendon's actuator force only when
      // actuatorfrclimited says "true": autolimits does not apply here
      // (measured: a given range alone leaves tendon_actfrclimited 0).
      const bool actfrc_limited = s.actuatorfrclimited == TriState::kTrue;
      if (actfrc_limited && s.actuatorfrcrange[0] >= s.actuatorfrcrange[1]) {
        fail(s.where,
             "a tendon with 'actuatorfrclimited' needs 'actuatorfrcrange' with range[0] < "
             "range[1]");
      }
      t.actfrc_limited.push_back(actfrc_limited);
      t.actfrc_range.push_back(s.actuatorfrcrange);
      t.solref_limit.push_back(s.solref_limit);
      t.solref_friction.push_back(s.solref_friction);
      t.solimp_limit.push_back(s.solimp_limit);
      t.solimp_friction.push_back(s.solimp_friction);
      t.margin.push_back(s.margin);
      t.stiffness.push_back(s.stiffness);
      t.damping.push_back(s.damping);
      t.frictionloss.push_back(s.frictionloss);
      t.armature.push_back(s.armature);
      // MuJoCo 3.3.8 refuses it (measured): the velocity product of a path
      // whose tangent points slide over a geom is not defined there.
      if (s.armature != 0 && std::any_of(s.path.begin(), s.path.end(), [](const auto& e) {
            return e.type == WrapType::kSphere;  // every geom element, until resolved below
          })) {
        fail(s.where, "tendon '" + s.name +
                          "': 'armature' needs a path without geom wrapping "
                          "(as MuJoCo 3.3.8); accepted: armature=\"0\" here, or sites, pulleys "
                          "and joints only");
      }
      t.length_spring.push_back(s.springlength);
      t.length0.push_back(0);
      t.width.push_back(s.width);
      t.rgba.push_back(s.rgba);
      t.invweight0.push_back(0);
      t.name.push_back(s.name);
      add_user_row(kUserTendon, t.user, s.user, s.where);
      add_name(ObjectType::kTendon, s.name, static_cast<int>(i), s.where, "tendon");
      if (s.spatial) check_spatial_path(s);
      for (const TendonPathElement& e : s.path) {
        WrapType type = e.type;
        int object = -1;
        double parameter = e.coefficient;
        switch (e.type) {
          case WrapType::kJoint: {
            object = lookup(ObjectType::kJoint, e.object, e.where, "joint");
            const JointType jt = m_.joints.type[object];
            if (jt != JointType::kHinge && jt != JointType::kSlide) {
              fail(e.where, "a fixed tendon can use hinge and slide joints only");
            }
            break;
          }
          case WrapType::kSite:
            object = lookup(ObjectType::kSite, e.object, e.where, "site");
            parameter = 0;
            break;
          case WrapType::kSphere: {
            object = lookup(ObjectType::kGeom, e.object, e.where, "geom");
            const GeomType gt = m_.geoms.type[object];
            if (gt == GeomType::kSphere) {
              type = WrapType::kSphere;
            } else if (gt == GeomType::kCylinder) {
              type = WrapType::kCylinder;
            } else {
              fail(e.where, "a tendon can wrap around sphere and cylinder geoms only");
            }
            parameter =
                e.sidesite.empty() ? -1 : lookup(ObjectType::kSite, e.sidesite, e.where, "site");
            break;
          }
          case WrapType::kPulley:
            if (parameter <= 0) fail(e.where, "a pulley's 'divisor' must be positive");
            break;
          default:
            break;
        }
        t.wrap_type.push_back(type);
        t.wrap_obj.push_back(object);
        t.wrap_prm.push_back(parameter);
      }
    }
  }

  // A spatial path starts and ends at a site; a wrapping geom sits between
  // two sites; a pulley starts a new branch, so it is followed by a site;
  // every site has a neighbour that is not a pulley (a branch spans two
  // sites at least), and no site follows itself (MuJoCo 3.3.8's rules).
  void check_spatial_path(const TendonSpec& s) const {
    const auto& path = s.path;
    auto is_site = [&](size_t k) { return k < path.size() && path[k].type == WrapType::kSite; };
    auto is_pulley = [&](size_t k) { return path[k].type == WrapType::kPulley; };
    if (path.size() < 2) {
      fail(s.where, "a spatial tendon's path needs two <site>s at least (it has one element)");
    }
    if (!is_site(0) || !is_site(path.size() - 1)) {
      fail(s.where, "a spatial tendon's path must start and end with a <site>");
    }
    for (size_t k = 0; k < path.size(); ++k) {
      if (!is_site(k)) continue;
      if (k > 0 && is_site(k - 1) && path[k - 1].object == path[k].object) {
        fail(path[k].where, "site '" + path[k].object +
                                "' follows itself in the spatial tendon's path (a segment of "
                                "length zero)");
      }
      const bool before = k > 0 && !is_pulley(k - 1);
      const bool after = k + 1 < path.size() && !is_pulley(k + 1);
      if (!before && !after) {
        fail(path[k].where, "site '" + path[k].object +
                                "' has only pulleys beside it: each branch of a spatial tendon "
                                "needs two sites at least");
      }
    }
    for (size_t k = 1; k + 1 < path.size(); ++k) {
      if (path[k].type == WrapType::kSphere && (!is_site(k - 1) || !is_site(k + 1))) {
        fail(path[k].where, "a wrapping <geom> in a spatial tendon must sit between two <site>s");
      }
      if (path[k].type == WrapType::kPulley && (!is_site(k - 1) || !is_site(k + 1))) {
        fail(path[k].where, "a <pulley> in a spatial tendon must sit between two <site>s");
      }
    }
  }

  // An actuator's transmission: its type and target ids (the second one for
  // a slider-crank's slider site or a site's reference site).
  struct Transmission {
    TransmissionType type = TransmissionType::kJoint;
    std::array<int, 2> ids = {-1, -1};
  };

  Transmission actuator_transmission(const ActuatorSpec& s) const {
    int targets = 0;
    Transmission t;
    if (!s.joint.empty()) {
      ++targets;
      t.ids[0] = lookup(ObjectType::kJoint, s.joint, s.where, "joint");
    }
    if (!s.jointinparent.empty()) {
      ++targets;
      t.type = TransmissionType::kJointInParent;
      t.ids[0] = lookup(ObjectType::kJoint, s.jointinparent, s.where, "joint");
    }
    if (!s.tendon.empty()) {
      ++targets;
      t.type = TransmissionType::kTendon;
      t.ids[0] = lookup(ObjectType::kTendon, s.tendon, s.where, "tendon");
    }
    if (!s.site.empty()) {
      ++targets;
      t.type = TransmissionType::kSite;
      t.ids[0] = lookup(ObjectType::kSite, s.site, s.where, "site");
    }
    if (!s.refsite.empty()) {
      if (s.site.empty()) fail(s.where, "refsite needs a site transmission (site=...)");
      t.ids[1] = lookup(ObjectType::kSite, s.refsite, s.where, "site");
    }
    if (!s.body.empty()) {
      ++targets;
      t.type = TransmissionType::kBody;
      t.ids[0] = lookup(ObjectType::kBody, s.body, s.where, "body");
    }
    if (!s.cranksite.empty() || !s.slidersite.empty()) {
      ++targets;
      t.type = TransmissionType::kSliderCrank;
      if (s.cranksite.empty() || s.slidersite.empty()) {
        fail(s.where, "a slider-crank actuator needs both cranksite and slidersite");
      }
      t.ids[0] = lookup(ObjectType::kSite, s.cranksite, s.where, "site");
      t.ids[1] = lookup(ObjectType::kSite, s.slidersite, s.where, "site");
      if (s.cranklength <= 0) fail(s.where, "a slider-crank actuator needs cranklength > 0");
    }
    if (targets != 1) {
      fail(s.where,
           "an actuator needs exactly one transmission target: joint, jointinparent, "
           "tendon, site, body, or cranksite with slidersite");
    }
    return t;
  }

  // inheritrange: the target joint's (or tendon's) range, scaled about its
  // middle.
  Vector2d inherited_range(const ActuatorSpec& s, const Transmission& t) const {
    Vector2d range;
    if (t.type == TransmissionType::kJoint || t.type == TransmissionType::kJointInParent) {
      const Joints& j = m_.joints;
      if (!j.limited[t.ids[0]] ||
          (j.type[t.ids[0]] != JointType::kHinge && j.type[t.ids[0]] != JointType::kSlide)) {
        fail(s.where, "inheritrange needs a limited hinge or slide joint as target");
      }
      range = j.range[t.ids[0]];
    } else if (t.type == TransmissionType::kTendon && m_.tendons.limited[t.ids[0]]) {
      range = m_.tendons.range[t.ids[0]];
    } else {
      fail(s.where, "inheritrange needs a limited joint or tendon as target");
    }
    const double middle = 0.5 * (range[0] + range[1]);
    const double half = 0.5 * (range[1] - range[0]) * s.inheritrange;
    return Vector2d(middle - half, middle + half);
  }

  // Whether an actuator's ctrl, force and activation are limited, and its
  // ctrl and activation ranges (inherited ones included).
  struct ActuatorLimits {
    bool ctrl, force, act;
    Vector2d ctrlrange, actrange;
  };

  ActuatorLimits actuator_limits(const ActuatorSpec& s, const Transmission& t) const {
    // An inherited range becomes ctrlrange (position) or actrange
    // (intvelocity).
    Vector2d ctrlrange = s.ctrlrange, actrange = s.actrange;
    bool ctrlrange_given = s.ctrlrange_given, actrange_given = s.actrange_given;
    if (s.inheritrange > 0) {
      (s.kind == "intvelocity" ? actrange : ctrlrange) = inherited_range(s, t);
      (s.kind == "intvelocity" ? actrange_given : ctrlrange_given) = true;
    }
    const bool autolimits = spec_.compiler.autolimits;
    const bool ctrl_limited = resolve_limited(s.ctrllimited, ctrlrange_given, autolimits,
                                              "actuator", "ctrlrange", "ctrllimited", s.where);
    const bool force_limited = resolve_limited(s.forcelimited, s.forcerange_given, autolimits,
                                               "actuator", "forcerange", "forcelimited", s.where);
    const bool act_limited = resolve_limited(s.actlimited, actrange_given, autolimits, "actuator",
                                             "actrange", "actlimited", s.where);
    if (s.kind == "damper" && (!ctrl_limited || ctrlrange[0] < 0)) {
      fail(s.where, "a damper needs a ctrlrange of non-negative values");
    }
    if (ctrl_limited && ctrlrange[0] >= ctrlrange[1]) {
      fail(s.where, "a ctrl-limited actuator needs ctrlrange[0] < ctrlrange[1]");
    }
    if (force_limited && s.forcerange[0] >= s.forcerange[1]) {
      fail(s.where, "a force-limited actuator needs forcerange[0] < forcerange[1]");
    }
    if (act_limited && actrange[0] >= actrange[1]) {
      fail(s.where, "an act-limited actuator needs actrange[0] < actrange[1]");
    }
    return {ctrl_limited, force_limited, act_limited, ctrlrange, actrange};
  }

  void compile_actuators() {
    Actuators& a = m_.actuators;
    for (size_t i = 0; i < spec_.actuators.size(); ++i) {
      const ActuatorSpec& s = spec_.actuators[i];
      const Transmission t = actuator_transmission(s);
      const ActuatorLimits limits = actuator_limits(s, t);
      a.trn_type.push_back(t.type);
      a.dyn_type.push_back(s.dyntype);
      a.gain_type.push_back(s.gaintype);
      a.bias_type.push_back(s.biastype);
      a.trn_id.push_back(t.ids);
      a.ctrl_limited.push_back(limits.ctrl);
      a.force_limited.push_back(limits.force);
      a.act_limited.push_back(limits.act);
      a.dynprm.push_back(s.dynprm);
      a.gainprm.push_back(s.gainprm);
      a.biasprm.push_back(s.biasprm);
      a.ctrl_range.push_back(limits.ctrlrange);
      a.force_range.push_back(s.forcerange);
      a.act_range.push_back(limits.actrange);
      a.gear.push_back(s.gear);
      a.crank_length.push_back(s.cranklength);
      a.group.push_back(s.group);
      a.length0.push_back(0);
      a.length_range.push_back(s.lengthrange);
      a.name.push_back(s.name);
      a.where.push_back(s.where);
      add_user_row(kUserActuator, a.user, s.user, s.where);
      add_name(ObjectType::kActuator, s.name, static_cast<int>(i), s.where, "actuator");
      // One activation per actuator with dynamics, in actuator order (MuJoCo
      // 3.x allows stateful and stateless actuators in any order).
      const bool stateful = s.dyntype != DynamicsType::kNone;
      if (s.actdim >= 0 && s.actdim != (stateful ? 1 : 0)) {
        fail(s.where, "actdim " + std::to_string(s.actdim) + " does not fit this actuator's " +
                          (stateful ? "dynamics (one activation)" : "lack of dynamics (none)") +
                          "; accepted: " + (stateful ? "1" : "0") +
                          ", or -1 for the dynamics' own (more need dyntype 'user', which "
                          "Pliant does not have)");
      }
      a.act_adr.push_back(stateful ? m_.na : -1);
      a.act_num.push_back(stateful ? 1 : 0);
      a.actearly.push_back(s.actearly);
      m_.na += stateful ? 1 : 0;
    }
    m_.nu = a.count();
  }

  void weld_data(const EqualitySpec& s, int obj1, int obj2, std::array<double, 11>& data) const {
    // As MuJoCo 3.x: `anchor` is the weld point in body2's frame,
    // data[0:3]; data[3:6] is the same point in body1's frame and
    // data[6:10] the relative orientation conj(q1) q2 to keep, both
    // at qpos0 unless relpose gives them (a zero relpose quaternion
    // means "at qpos0"). MuJoCo 2.2.2 took `anchor` in body1's frame.
    const Vector3d world_point = xpos0_[obj2] + xquat0_[obj2] * s.anchor;
    Vector3d in_body1 = xquat0_[obj1].conjugate() * (world_point - xpos0_[obj1]);
    Quaterniond relative = (xquat0_[obj1].conjugate() * xquat0_[obj2]).normalized();
    if (s.relpose) {
      const auto& r = *s.relpose;
      const Quaterniond given(r[3], r[4], r[5], r[6]);
      if (given.norm() >= kMinValue) {
        relative = given.normalized();
        in_body1 = Vector3d(r[0], r[1], r[2]);
      }
    }
    for (int k = 0; k < 3; ++k) {
      data[k] = s.anchor[k];
      data[3 + k] = in_body1[k];
    }
    data[6] = relative.w();
    data[7] = relative.x();
    data[8] = relative.y();
    data[9] = relative.z();
  }

  // A joint equality couples hinges and slides only.
  void check_joint_coupling(const EqualitySpec& s, int obj1, int obj2) const {
    for (int id : {obj1, obj2}) {
      if (id >= 0 && m_.joints.type[id] != JointType::kHinge &&
          m_.joints.type[id] != JointType::kSlide) {
        fail(s.where, "a joint equality couples hinge and slide joints only");
      }
    }
  }

  void compile_equalities() {
    Equalities& e = m_.equalities;
    for (size_t i = 0; i < spec_.equalities.size(); ++i) {
      const EqualitySpec& s = spec_.equalities[i];
      std::array<double, 11> data{};
      int obj1 = -1, obj2 = -1;
      // As MuJoCo 3.3.8's eq_objtype: body or site for connect and weld,
      // unknown (0) for joint and tendon couplings, whose type says it all.
      const bool coupling = s.type == EqualityType::kJoint || s.type == EqualityType::kTendon;
      ObjectType obj_type = coupling ? ObjectType::kUnknown : ObjectType::kBody;
      switch (s.type) {
        case EqualityType::kConnect:
        case EqualityType::kWeld: {
          if (s.sites) {
            // Site semantics (MuJoCo 3.x): the sites' current frames meet;
            // the data holds only torquescale. (A site weld keeps eq_data's
            // initial polynomial (0 1 0 0 0) in its unused entries, as 3.3.8
            // compiles it; a site connect has them zeroed.)
            obj_type = ObjectType::kSite;
            if (s.type == EqualityType::kWeld) data[1] = 1;
            obj1 = lookup(ObjectType::kSite, s.obj1, s.where, "site");
            obj2 = lookup(ObjectType::kSite, s.obj2, s.where, "site");
            if (m_.sites.body[obj1] == m_.sites.body[obj2]) {
              fail(s.where, "an equality needs sites on two different bodies");
            }
            break;
          }
          obj1 = lookup(ObjectType::kBody, s.obj1, s.where, "body");
          obj2 = s.obj2.empty() ? 0 : lookup(ObjectType::kBody, s.obj2, s.where, "body");
          if (obj1 == obj2) fail(s.where, "an equality needs two different bodies");
          const Vector3d world_anchor = xpos0_[obj1] + xquat0_[obj1] * s.anchor;
          const Vector3d in_body2 = xquat0_[obj2].conjugate() * (world_anchor - xpos0_[obj2]);
          if (s.type == EqualityType::kConnect) {
            // data[0:3] anchor in body1; data[3:6] the same point in body2 at qpos0.
            for (int k = 0; k < 3; ++k) {
              data[k] = s.anchor[k];
              data[3 + k] = in_body2[k];
            }
          } else {
            weld_data(s, obj1, obj2, data);
          }
          break;
        }
        case EqualityType::kJoint:
        case EqualityType::kTendon: {
          const bool joint = s.type == EqualityType::kJoint;
          const ObjectType type = joint ? ObjectType::kJoint : ObjectType::kTendon;
          const char* what = joint ? "joint" : "tendon";
          obj1 = lookup(type, s.obj1, s.where, what);
          obj2 = s.obj2.empty() ? -1 : lookup(type, s.obj2, s.where, what);
          if (joint) check_joint_coupling(s, obj1, obj2);
          for (int k = 0; k < 5; ++k) data[k] = s.polycoef[k];
          break;
        }
      }
      // MuJoCo keeps torquescale for every type but the site connect, whose
      // data is all zero.
      const bool site_connect = s.sites && s.type == EqualityType::kConnect;
      data[10] = site_connect ? 0 : s.torquescale;
      e.type.push_back(s.type);
      e.obj_type.push_back(obj_type);
      e.obj1.push_back(obj1);
      e.obj2.push_back(obj2);
      e.active.push_back(s.active);
      e.solref.push_back(s.solref);
      e.solimp.push_back(s.solimp);
      e.data.push_back(data);
      e.name.push_back(s.name);
      add_name(ObjectType::kEquality, s.name, static_cast<int>(i), s.where, "equality");
    }
  }

  // Explicit pairs take their own values, and what they leave unset comes
  // from the pair defaults (their class), never from the geoms: MuJoCo
  // 2.2.2 and 3.3.8 alike. The geom on the body with the lower id comes
  // first, as MuJoCo orders a pair, and the pairs are sorted by their body
  // pair (stable: pairs of the same two bodies keep the file's order), as
  // MuJoCo stores them (its pair_signature, body1 << 16 + body2).
  void compile_contacts() {
    Pairs& p = m_.pairs;
    struct Resolved {
      int geom1, geom2;
      const PairSpec* spec;
    };
    std::vector<Resolved> pairs;
    for (const PairSpec& s : spec_.pairs) {
      int g1 = lookup(ObjectType::kGeom, s.geom1, s.where, "geom");
      int g2 = lookup(ObjectType::kGeom, s.geom2, s.where, "geom");
      if (m_.geoms.body[g1] > m_.geoms.body[g2]) std::swap(g1, g2);
      pairs.push_back({g1, g2, &s});
    }
    const auto bodies = [&](const Resolved& r) {
      return std::make_pair(m_.geoms.body[r.geom1], m_.geoms.body[r.geom2]);
    };
    std::stable_sort(pairs.begin(), pairs.end(),
                     [&](const Resolved& a, const Resolved& b) { return bodies(a) < bodies(b); });
    for (const auto& [g1, g2, spec] : pairs) {
      const PairSpec& s = *spec;
      p.geom1.push_back(g1);
      p.geom2.push_back(g2);
      p.condim.push_back(s.condim);
      p.friction.push_back(s.friction);
      p.solref.push_back(s.solref);
      p.solreffriction.push_back(s.solreffriction);
      p.solimp.push_back(s.solimp);
      p.margin.push_back(s.margin);
      p.gap.push_back(s.gap);
      p.name.push_back(s.name);
      add_name(ObjectType::kPair, s.name, p.count() - 1, s.where, "pair");
    }
    // Excludes are kept sorted by body pair, as MuJoCo stores them, so
    // collision filtering can search them.
    struct Excluded {
      int body1, body2;
      const ExcludeSpec* spec;
    };
    std::vector<Excluded> excluded;
    for (const ExcludeSpec& s : spec_.excludes) {
      excluded.push_back({lookup(ObjectType::kBody, s.body1, s.where, "body"),
                          lookup(ObjectType::kBody, s.body2, s.where, "body"), &s});
    }
    std::stable_sort(excluded.begin(), excluded.end(), [](const Excluded& a, const Excluded& b) {
      return std::make_pair(a.body1, a.body2) < std::make_pair(b.body1, b.body2);
    });
    for (const auto& [body1, body2, spec] : excluded) {
      m_.excludes.body1.push_back(body1);
      m_.excludes.body2.push_back(body2);
      m_.excludes.name.push_back(spec->name);
      add_name(ObjectType::kExclude, spec->name, m_.excludes.count() - 1, spec->where, "exclude");
    }
  }

  // Sensors: objects resolved and checked against what each type reads,
  // values laid out in declaration order.
  void compile_sensors() {
    Sensors& t = m_.sensors;
    for (size_t i = 0; i < spec_.sensors.size(); ++i) {
      const SensorSpec& s = spec_.sensors[i];
      const SensorKind& kind = *find_sensor_kind(s.type);
      const std::string what = "<" + s.type + ">";
      auto resolve = [&](ObjectType type, const std::string& name) {
        if (name.empty()) return -1;
        static const char* words[] = {
            "object",   "body",   "body",     "joint",  "dof",     "geom",     "site",  "camera",
            "light",    "mesh",   "skin",     "hfield", "texture", "material", "pair",  "exclude",
            "equality", "tendon", "actuator", "sensor", "numeric", "text",     "tuple", "key"};
        const ObjectType lookup_type = type == ObjectType::kXBody ? ObjectType::kBody : type;
        return lookup(lookup_type, name, s.where, words[static_cast<int>(lookup_type)]);
      };
      const int object = resolve(s.object_type, s.object);
      const int reference = resolve(s.reference_type, s.reference);
      check_sensor_object(s, kind.type, object, reference, what);
      t.type.push_back(kind.type);
      t.datatype.push_back(static_cast<int>(kind.datatype));
      t.stage.push_back(static_cast<int>(kind.stage));
      t.obj_type.push_back(kind.object == SensorObject::kNone ? ObjectType::kUnknown
                                                              : s.object_type);
      t.obj_id.push_back(object);
      t.ref_type.push_back(reference < 0 ? ObjectType::kUnknown : s.reference_type);
      t.ref_id.push_back(reference);
      // A contact sensor: its slots, each of the data parts it asks for.
      const int dim = kind.type == SensorType::kContact
                          ? contact_slot_size(s.intprm[0]) * s.intprm[2]
                          : kind.dim;
      t.intprm.push_back(s.intprm);
      t.dim.push_back(dim);
      t.adr.push_back(t.data_size);
      t.data_size += dim;
      t.noise.push_back(s.noise);
      t.cutoff.push_back(s.cutoff);
      t.name.push_back(s.name);
      add_user_row(kUserSensor, t.user, s.user, s.where);
      add_name(ObjectType::kSensor, s.name, static_cast<int>(i), s.where, "sensor");
    }
  }

  // A distance sensor's two sides: different, with geoms, none a height field.
  void check_distance_objects(const SensorSpec& s, int object, int reference,
                              const std::string& what) const {
    if (s.object_type == s.reference_type && object == reference) {
      fail(s.where, what + " measures between two different " +
                        (s.object_type == ObjectType::kGeom ? "geoms" : "bodies") + "; both are '" +
                        s.object + "'");
    }
    for (const auto& [type, id, name] : {std::tuple{s.object_type, object, s.object},
                                         std::tuple{s.reference_type, reference, s.reference}}) {
      const int first = type == ObjectType::kBody ? m_.bodies.geom_adr[id] : id;
      const int last = type == ObjectType::kBody ? first + m_.bodies.geom_count[id] : id + 1;
      for (int g = first; g < last; ++g) {
        if (m_.geoms.type[g] == GeomType::kHfield) {
          fail(s.where, what + " does not measure height fields; '" + name + "' is one" +
                            (type == ObjectType::kBody ? " or has one" : ""));
        }
      }
    }
    if (s.object_type == ObjectType::kBody && m_.bodies.geom_count[object] == 0) {
      fail(s.where, what + ": body '" + s.object + "' has no geoms");
    }
    if (s.reference_type == ObjectType::kBody && m_.bodies.geom_count[reference] == 0) {
      fail(s.where, what + ": body '" + s.reference + "' has no geoms");
    }
  }

  // The object checks MuJoCo 3.3.8 makes: joint kinds, limits, distinct geoms.
  void check_sensor_object(const SensorSpec& s, SensorType type, int object, int reference,
                           const std::string& what) const {
    const auto joint_is = [&](std::initializer_list<JointType> kinds) {
      for (JointType k : kinds) {
        if (m_.joints.type[object] == k) return true;
      }
      return false;
    };
    const SensorKind& kind = sensor_kind(type);
    if (s.cutoff > 0 && type != SensorType::kGeomNormal &&
        (kind.datatype == SensorDataType::kAxis || kind.datatype == SensorDataType::kQuaternion)) {
      fail(s.where, what + " gives an axis or quaternion, which 'cutoff' cannot clip; remove it");
    }
    switch (type) {
      case SensorType::kJointPos:
      case SensorType::kJointVel:
      case SensorType::kJointActuatorFrc:
        if (!joint_is({JointType::kHinge, JointType::kSlide})) {
          fail(s.where,
               what + " reads a hinge or slide joint; joint '" + s.object + "' is not one");
        }
        break;
      case SensorType::kBallQuat:
      case SensorType::kBallAngVel:
        if (!joint_is({JointType::kBall})) {
          fail(s.where, what + " reads a ball joint; joint '" + s.object + "' is not one");
        }
        break;
      case SensorType::kJointLimitPos:
      case SensorType::kJointLimitVel:
      case SensorType::kJointLimitFrc:
        if (!m_.joints.limited[object]) {
          fail(s.where, what + " reads a joint limit; joint '" + s.object + "' is not limited");
        }
        break;
      case SensorType::kTendonLimitPos:
      case SensorType::kTendonLimitVel:
      case SensorType::kTendonLimitFrc:
        if (!m_.tendons.limited[object]) {
          fail(s.where, what + " reads a tendon limit; tendon '" + s.object + "' is not limited");
        }
        break;
      case SensorType::kCamProjection:
        if (m_.cameras.resolution[reference][0] <= 0 || m_.cameras.resolution[reference][1] <= 0) {
          fail(s.where, what + " needs a camera with a positive 'resolution'; camera '" +
                            s.reference + "' has none");
        }
        break;
      case SensorType::kGeomDist:
      case SensorType::kGeomNormal:
      case SensorType::kGeomFromTo:
        check_distance_objects(s, object, reference, what);
        break;
      default:
        break;
    }
  }

  void compile_keyframes() {
    Keyframes& k = m_.keyframes;
    const Bodies& b = m_.bodies;
    std::vector<double> mocap_pos, mocap_quat;
    for (int i = 0; i < b.count(); ++i) {
      if (b.mocap[i] < 0) continue;
      for (int c = 0; c < 3; ++c) mocap_pos.push_back(b.pos[i][c]);
      for (double v : {b.quat[i].w(), b.quat[i].x(), b.quat[i].y(), b.quat[i].z()}) {
        mocap_quat.push_back(v);
      }
    }
    // <size nkey> beyond the <key> elements: keyframes of the default state.
    std::vector<KeyframeSpec> keys = spec_.keyframes;
    keys.resize(std::max(keys.size(), static_cast<size_t>(spec_.nkey)));
    for (size_t i = 0; i < keys.size(); ++i) {
      const KeyframeSpec& s = keys[i];
      // A shorter array is completed from the default (qpos0, zeros, the
      // mocap bodies' poses), as MuJoCo 3.x does.
      // A keyframe of an attached model fills its part from these offsets.
      size_t qpos_at = 0, qvel_at = 0, act_at = 0, ctrl_at = 0, mocap_at = 0;
      if (s.attachment >= 0) {
        const auto joint = attached_joint_.find(s.attachment);
        if (joint != attached_joint_.end()) {
          qpos_at = m_.joints.qpos_adr[joint->second];
          qvel_at = m_.joints.dof_adr[joint->second];
        }
        const auto mocap = attached_mocap_.find(s.attachment);
        if (mocap != attached_mocap_.end()) mocap_at = mocap->second;
        ctrl_at = s.actuator_offset;
        const Actuators& a = m_.actuators;
        act_at = m_.na;
        for (int u = s.actuator_offset; u < m_.nu; ++u) {
          if (a.act_adr[u] >= 0) {
            act_at = a.act_adr[u];
            break;
          }
        }
      }
      auto take = [&](const std::optional<std::vector<double>>& given, const char* what,
                      std::vector<double> fallback, size_t at, size_t width) {
        if (!given) return fallback;
        const size_t offset = at * width;
        if (offset + given->size() > fallback.size()) {
          fail(s.where, std::string("'") + what + "' of <key> has " +
                            std::to_string(given->size()) + " values; the model needs " +
                            std::to_string(fallback.size()) + " (or fewer: the rest default)");
        }
        std::copy(given->begin(), given->end(), fallback.begin() + offset);
        return fallback;
      };
      k.time.push_back(s.time);
      k.qpos.push_back(take(s.qpos, "qpos", m_.qpos0, qpos_at, 1));
      // Free and ball joint quaternions are normalised, as MuJoCo's compiler
      // does, so a keyframe starts where the simulation would put it.
      normalize_joint_quaternions(k.qpos.back());
      k.qvel.push_back(take(s.qvel, "qvel", std::vector<double>(m_.nv, 0.0), qvel_at, 1));
      k.act.push_back(take(s.act, "act", std::vector<double>(m_.na, 0.0), act_at, 1));
      k.ctrl.push_back(take(s.ctrl, "ctrl", std::vector<double>(m_.nu, 0.0), ctrl_at, 1));
      k.mocap_pos.push_back(take(s.mpos, "mpos", mocap_pos, mocap_at, 3));
      k.mocap_quat.push_back(take(s.mquat, "mquat", mocap_quat, mocap_at, 4));
      for (size_t q = 0; q + 3 < k.mocap_quat.back().size(); q += 4) {
        normalize_key_quaternion(k.mocap_quat.back().data() + q);
      }
      k.name.push_back(s.name);
      add_name(ObjectType::kKey, s.name, static_cast<int>(i), s.where, "key");
    }
  }

  const ModelSpec& spec_;
  Model m_;
  std::vector<FlatBody> bodies_;
  std::vector<const JointSpec*> joint_specs_;  // per compiled joint, its spec
  std::vector<const GeomSpec*> geom_specs_;
  std::vector<const CameraSpec*> camera_specs_;
  std::vector<const LightSpec*> light_specs_;
  // Where each element's user data was written, by kind (UserKind).
  std::vector<SourceLocation> user_where_[8];
  std::vector<ProcessedMesh> processed_meshes_;
  // Each mesh's hull triangles (compute_mesh_hulls), empty without a hull.
  std::vector<std::vector<std::array<int, 3>>> hull_faces_;
  std::vector<Vector3d> xpos0_;
  std::vector<Quaterniond> xquat0_;
  // Attachment number -> its first joint and first mocap body (attach.h).
  std::map<int, int> attached_joint_, attached_mocap_;
};

}  // namespace

Model compile_model(const ModelSpec& spec) {
  if (!spec.compiler.fusestatic) return Compiler(spec).run();
  ModelSpec fused = spec;
  fuse_static_bodies(fused);
  return Compiler(fused).run();
}

}  // namespace pliant
