#include "model/parser.h"

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

#include "model/attach.h"
#include "model/element_parsers.h"
#include "model/orientation.h"
#include "pliant/load_error.h"
#include "pliant/sensor_types.h"

namespace pliant {
namespace {

[[noreturn]] void fail_at(const XmlNode& node, const std::string& message) {
  throw LoadError(node.file, node.line, message);
}

[[noreturn]] void unknown_element(const XmlNode& node, const std::string& parent,
                                  const std::string& accepted) {
  fail_at(node, "unknown element <" + node.name + "> in <" + parent + ">; accepted: " + accepted);
}

SourceLocation where(const XmlNode& node) { return {node.file, node.line}; }

constexpr const char* kActuatorKinds =
    "general, motor, position, velocity, intvelocity, damper, cylinder, muscle, adhesion";

bool is_actuator_kind(const std::string& name) {
  return name == "general" || name == "motor" || name == "position" || name == "velocity" ||
         name == "intvelocity" || name == "damper" || name == "cylinder" || name == "muscle" ||
         name == "adhesion";
}

class Parser {
 public:
  Parser(const std::string& file, const std::string& directory) {
    spec_.file = file;
    spec_.directory = directory;
    DefaultClass main;
    main.name = "main";
    classes_.push_back(main);
    class_ids_["main"] = 0;
  }

  ModelSpec run(const XmlNode& root) {
    AttributeReader reader(root, &spec_.notes);
    reader.read("model", spec_.model_name);
    reader.finish();

    // MuJoCo reads compiler settings and defaults before anything that uses
    // them, wherever they stand in the file.
    for (const XmlNode& node : root.children) {
      if (node.name == "compiler") {
        AttributeReader r(node, &spec_.notes);
        parse_compiler(r, spec_.compiler);
        for (const XmlNode& child : node.children) {
          if (child.name != "lengthrange") {
            fail_at(child,
                    "<compiler> takes only <lengthrange> children, found <" + child.name + ">");
          }
          // How actuator length ranges are found by simulation.
          AttributeReader lr(child, &spec_.notes);
          LengthRangeOptions& o = spec_.compiler.lengthrange;
          using Mode = LengthRangeOptions::Mode;
          lr.read_keyword("mode", o.mode,
                          {{"none", Mode::kNone},
                           {"muscle", Mode::kMuscle},
                           {"muscleuser", Mode::kMuscleUser},
                           {"all", Mode::kAll}});
          lr.read_bool("useexisting", o.useexisting);
          lr.read_bool("uselimit", o.uselimit);
          lr.read("accel", o.accel);
          lr.read("maxforce", o.maxforce);
          lr.read("timeconst", o.timeconst);
          lr.read("timestep", o.timestep);
          lr.read("inttotal", o.inttotal);
          lr.read("interval", o.interval);
          lr.read("tolrange", o.tolrange);
          lr.finish();
          no_children(child);
        }
      }
    }
    for (const XmlNode& node : root.children) {
      if (node.name == "default") parse_default(node, -1);
    }
    // Sub-models (<asset><model>) load before any <attach> can name them.
    for (const XmlNode& node : root.children) {
      if (node.name != "asset") continue;
      for (const XmlNode& child : node.children) {
        if (child.name == "model") load_submodel(child);
      }
    }
    for (const XmlNode& node : root.children) {
      const std::string& n = node.name;
      if (n == "compiler" || n == "default") continue;
      if (n == "option") {
        parse_option_element(node);
      } else if (n == "size") {
        parse_size(node);
      } else if (n == "visual" || n == "custom") {
        // Rendering settings and user data: accepted, not used by the engine,
        // except the near clipping plane, a camera's default focal length.
        for (const XmlNode& child : node.children) {
          if (child.name != "map") continue;
          AttributeReader r(child, &spec_.notes);
          r.read("znear", spec_.visual_znear);
        }
      } else if (n == "statistic") {
        parse_statistic(node);
      } else if (n == "asset") {
        parse_assets(node);
      } else if (n == "worldbody") {
        parse_worldbody(node);
      } else if (n == "contact") {
        parse_contact(node);
      } else if (n == "equality") {
        parse_equalities(node);
      } else if (n == "tendon") {
        parse_tendons(node);
      } else if (n == "actuator") {
        parse_actuators(node);
      } else if (n == "sensor") {
        parse_sensors(node);
      } else if (n == "keyframe") {
        parse_keyframes(node);
      } else if (n == "extension" || n == "deformable") {
        not_simulated(node);
      } else {
        unknown_element(node, "mujoco",
                        "compiler, option, size, visual, statistic, default, custom, asset, "
                        "worldbody, contact, equality, tendon, actuator, sensor, keyframe");
      }
    }
    merge_attached();
    return std::move(spec_);
  }

 private:
  static void no_children(const XmlNode& node) {
    if (!node.children.empty()) {
      fail_at(node.children.front(), "<" + node.name + "> takes no child elements, found <" +
                                         node.children.front().name + ">");
    }
  }

  // MJCF that MuJoCo 3.x reads and Pliant does not simulate (flex and skins,
  // plugins, composites): one clear error, never a model
  // that is half loaded.
  [[noreturn]] static void not_simulated(const XmlNode& node) {
    const std::string& n = node.name;
    std::string what = "it";
    if (n == "composite" || n == "flexcomp") what = "the bodies it would make";
    fail_at(node, "<" + n +
                      "> is not supported by Pliant: flex, skins, plugins and composites are "
                      "not simulated; write " +
                      (what == "it" ? std::string("the model without it") : what + " explicitly"));
  }

  // The class an element uses: its own class attribute, else the inherited one.
  int class_of(const XmlNode& node, int inherited) const {
    const std::string* name = node.find("class");
    if (name == nullptr) return inherited;
    auto it = class_ids_.find(*name);
    if (it == class_ids_.end()) {
      fail_at(node, "unknown default class '" + *name + "' on <" + node.name +
                        ">; define it with <default class=\"" + *name + "\">");
    }
    return it->second;
  }

  void parse_default(const XmlNode& node, int parent) {
    AttributeReader reader(node, &spec_.notes);
    std::string name;
    reader.read("class", name);
    reader.finish();
    int id = 0;
    if (parent < 0) {
      // The top-level <default> is the "main" class (it may be named so).
      if (!name.empty() && name != "main") {
        fail_at(node,
                "the top-level <default> is the class 'main'; it cannot be named '" + name + "'");
      }
    } else {
      if (name.empty()) fail_at(node, "a nested <default> needs a class attribute");
      if (class_ids_.count(name)) fail_at(node, "default class '" + name + "' is defined twice");
      DefaultClass defaults = classes_[parent];
      defaults.name = name;
      defaults.parent = parent;
      id = static_cast<int>(classes_.size());
      classes_.push_back(defaults);
      class_ids_[name] = id;
    }
    // The class's own prototypes first, so nested classes inherit them
    // whatever the order in the file.
    for (const XmlNode& child : node.children) {
      if (child.name == "default") continue;
      AttributeReader r(child, &spec_.notes);
      DefaultClass& c = classes_[id];
      const std::string& n = child.name;
      if (n == "geom") {
        parse_geom(r, spec_.compiler, c.geom);
      } else if (n == "site") {
        parse_site(r, spec_.compiler, c.site);
      } else if (n == "joint") {
        parse_joint(r, c.joint);
      } else if (n == "camera") {
        parse_camera(r, spec_.compiler, c.camera);
      } else if (n == "light") {
        parse_light(r, c.light);
      } else if (n == "mesh") {
        parse_mesh(r, c.mesh);
      } else if (n == "material") {
        parse_material(r, c.material);
      } else if (is_actuator_kind(n)) {
        parse_actuator(r, n, c.actuator);
      } else if (n == "tendon") {
        parse_tendon(r, c.tendon);
      } else if (n == "equality") {
        parse_equality(r, spec_.compiler, c.equality);
      } else if (n == "pair") {
        parse_pair(r, c.pair);
      } else {
        unknown_element(child, "default",
                        "default, geom, site, joint, camera, light, mesh, material, general, "
                        "motor, position, velocity, muscle, tendon, equality, pair");
      }
      no_children(child);
    }
    for (const XmlNode& child : node.children) {
      if (child.name == "default") parse_default(child, id);
    }
  }

  void parse_option_element(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    parse_option(reader, spec_.options);
    for (const XmlNode& child : node.children) {
      if (child.name != "flag") unknown_element(child, "option", "flag");
      AttributeReader r(child, &spec_.notes);
      parse_option_flags(r, spec_.options.flags);
    }
  }

  void parse_size(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    // nkey allocates keyframes (the extra ones hold the default state).
    if (reader.read("nkey", spec_.nkey) && spec_.nkey < 0) {
      reader.fail("attribute 'nkey' of <size> is " + std::to_string(spec_.nkey) +
                  "; accepted: 0 or more keyframes");
    }
    // Memory sizes: Pliant grows its buffers as needed, so these are accepted
    // for compatibility and not used.
    for (const char* name :
         {"njmax", "nconmax", "nstack", "nuserdata", "nuser_body", "nuser_jnt", "nuser_geom",
          "nuser_site", "nuser_cam", "nuser_tendon", "nuser_actuator", "nuser_sensor", "memory"}) {
      reader.has(name);
    }
    reader.finish();
    no_children(node);
  }

  void parse_statistic(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    spec_.stat_meaninertia_given = reader.read("meaninertia", spec_.stat.meaninertia);
    spec_.stat_meanmass_given = reader.read("meanmass", spec_.stat.meanmass);
    spec_.stat_meansize_given = reader.read("meansize", spec_.stat.meansize);
    spec_.stat_extent_given = reader.read("extent", spec_.stat.extent);
    spec_.stat_center_given = reader.read("center", spec_.stat.center);
    reader.finish();
    no_children(node);
  }

  void parse_assets(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      AttributeReader r(child, &spec_.notes);
      const int cls = class_of(child, 0);
      if (child.name == "mesh") {
        MeshSpec mesh = classes_[cls].mesh;
        mesh.where = where(child);
        parse_mesh(r, mesh);
        spec_.meshes.push_back(mesh);
      } else if (child.name == "texture") {
        TextureSpec texture;
        texture.where = where(child);
        parse_texture(r, texture);
        spec_.textures.push_back(texture);
      } else if (child.name == "material") {
        MaterialSpec material = classes_[cls].material;
        material.where = where(child);
        parse_material(r, material);
        spec_.materials.push_back(material);
      } else if (child.name == "hfield") {
        HfieldSpec hfield;
        hfield.where = where(child);
        parse_hfield(r, hfield);
        spec_.hfields.push_back(hfield);
      } else if (child.name == "model") {
        continue;  // loaded first (load_submodel)
      } else {
        if (child.name == "skin") not_simulated(child);
        unknown_element(child, "asset", "mesh, texture, material, hfield, model");
      }
      if (child.name != "material") {
        no_children(child);
        continue;
      }
      // Texture layers of physically based rendering (MuJoCo 3.x): accepted;
      // the viewer uses the material's texture attribute.
      for (const XmlNode& layer : child.children) {
        if (layer.name != "layer") {
          fail_at(layer, "<material> takes only <layer> children, found <" + layer.name + ">");
        }
        AttributeReader lr(layer, &spec_.notes);
        lr.has("texture");
        lr.has("role");
        lr.finish();
        no_children(layer);
      }
    }
  }

  void parse_worldbody(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    reader.finish();
    spec_.world.where = where(node);
    spec_.world.name = "world";
    parse_body_children(node, spec_.world, 0, true, Pose());
  }

  void parse_body(const XmlNode& node, BodySpec& body, int inherited_class) {
    body.where = where(node);
    AttributeReader reader(node, &spec_.notes);
    reader.read("name", body.name);
    int childclass = inherited_class;
    if (reader.read("childclass", body.childclass)) {
      auto it = class_ids_.find(body.childclass);
      if (it == class_ids_.end()) {
        fail_at(node, "unknown default class '" + body.childclass +
                          "' in 'childclass' of <body>; define it with <default class=\"" +
                          body.childclass + "\">");
      }
      childclass = it->second;
    }
    reader.read("pos", body.pos);
    if (auto quat = read_orientation(reader, spec_.compiler)) body.quat = *quat;
    reader.read_bool("mocap", body.mocap);
    reader.read("gravcomp", body.gravcomp);
    reader.has("user");
    reader.finish();
    parse_body_children(node, body, childclass, false, Pose());
  }

  // A <frame>'s pose in the enclosing body: elements written inside it are
  // placed by it (nested frames compose).

  // A <frame> (MuJoCo 3.x): its children belong to the enclosing body, placed
  // by the frame's pose, with the frame's childclass if it has one.
  void parse_frame(const XmlNode& node, BodySpec& body, int childclass, bool world,
                   const Pose& outer) {
    AttributeReader reader(node, &spec_.notes);
    reader.has("name");
    std::string frame_class;
    if (reader.read("childclass", frame_class)) {
      auto it = class_ids_.find(frame_class);
      if (it == class_ids_.end()) {
        fail_at(node, "unknown default class '" + frame_class + "' in 'childclass' of <frame>");
      }
      childclass = it->second;
    }
    Pose pose;
    reader.read("pos", pose.pos);
    if (auto quat = read_orientation(reader, spec_.compiler)) pose.quat = *quat;
    reader.finish();
    Pose combined;
    combined.pos = outer.point(pose.pos);
    combined.quat = (outer.quat * pose.quat).normalized();
    parse_body_children(node, body, childclass, world, combined);
  }

  // A <replicate> (MuJoCo 3.x): `count` copies of its children, copy i
  // placed by the repeat transform (offset, euler) applied i times after the
  // enclosing frame; a named element's copy gets sep and i appended (inner
  // replicates first).
  void parse_replicate(const XmlNode& node, BodySpec& body, int childclass, bool world,
                       const Pose& outer) {
    AttributeReader reader(node, &spec_.notes);
    int count = 0;
    if (!reader.read("count", count) || count < 1) {
      reader.fail("<replicate> needs 'count', a positive number of copies");
    }
    if (count > 10000) reader.fail("<replicate> 'count' may be at most 10000");
    Vector3d offset(0, 0, 0), euler(0, 0, 0);
    std::string sep;
    reader.read("offset", offset);
    reader.read("euler", euler);
    reader.read("sep", sep);
    reader.finish();
    Pose step;
    step.pos = offset;
    step.quat =
        euler_to_quat(euler * (spec_.compiler.degrees ? M_PI / 180 : 1.0), spec_.compiler.eulerseq);
    Pose repeat;  // the step applied i times
    for (int i = 0; i < count; ++i) {
      Pose placed;
      placed.pos = outer.point(repeat.pos);
      placed.quat = (outer.quat * repeat.quat).normalized();
      const BodySpec before = counts_of(body);
      parse_body_children(node, body, childclass, world, placed);
      append_suffix(body, before, sep + std::to_string(i));
      repeat.pos = step.point(repeat.pos);
      repeat.quat = (step.quat * repeat.quat).normalized();
    }
  }

  // How many of each element a body holds (the other fields are unused).
  static BodySpec counts_of(const BodySpec& body) {
    BodySpec counts;
    counts.joints.resize(body.joints.size());
    counts.geoms.resize(body.geoms.size());
    counts.sites.resize(body.sites.size());
    counts.cameras.resize(body.cameras.size());
    counts.lights.resize(body.lights.size());
    counts.children.resize(body.children.size());
    return counts;
  }

  // Appends `suffix` to the names of the elements `body` gained since
  // `before`, and to every name in the bodies it gained.
  static void append_suffix(BodySpec& body, const BodySpec& before, const std::string& suffix) {
    const auto rename = [&](auto& list, size_t from) {
      for (size_t k = from; k < list.size(); ++k) {
        if (!list[k].name.empty()) list[k].name += suffix;
      }
    };
    rename(body.joints, before.joints.size());
    rename(body.geoms, before.geoms.size());
    rename(body.sites, before.sites.size());
    rename(body.cameras, before.cameras.size());
    rename(body.lights, before.lights.size());
    for (size_t k = before.children.size(); k < body.children.size(); ++k) {
      BodySpec& child = body.children[k];
      if (!child.name.empty()) child.name += suffix;
      append_suffix(child, BodySpec(), suffix);
    }
  }

  void parse_body_children(const XmlNode& node, BodySpec& body, int childclass, bool world,
                           const Pose& frame) {
    for (const XmlNode& child : node.children) {
      const std::string& n = child.name;
      if (n == "body") {
        body.children.emplace_back();
        BodySpec& added = body.children.back();
        parse_body(child, added, childclass);
        frame.place(added.pos, added.quat);
        continue;
      }
      if (n == "frame") {
        parse_frame(child, body, childclass, world, frame);
        continue;
      }
      if (n == "replicate") {
        parse_replicate(child, body, childclass, world, frame);
        continue;
      }
      AttributeReader r(child, &spec_.notes);
      const int cls = class_of(child, childclass);
      if (n == "geom") {
        GeomSpec geom = classes_[cls].geom;
        geom.where = where(child);
        parse_geom(r, spec_.compiler, geom);
        frame.place(geom.pos, geom.quat);
        frame.place(geom.fromto);
        body.geoms.push_back(geom);
      } else if (n == "site") {
        SiteSpec site = classes_[cls].site;
        site.where = where(child);
        parse_site(r, spec_.compiler, site);
        frame.place(site.pos, site.quat);
        frame.place(site.fromto);
        body.sites.push_back(site);
      } else if (n == "camera") {
        CameraSpec camera = classes_[cls].camera;
        camera.where = where(child);
        parse_camera(r, spec_.compiler, camera);
        frame.place(camera.pos, camera.quat);
        body.cameras.push_back(camera);
      } else if (n == "light") {
        LightSpec light = classes_[cls].light;
        light.where = where(child);
        parse_light(r, light);
        light.pos = frame.point(light.pos);
        light.dir = frame.quat * light.dir;
        body.lights.push_back(light);
      } else if (!world && n == "joint") {
        JointSpec joint = classes_[cls].joint;
        joint.where = where(child);
        parse_joint(r, joint);
        joint.pos = frame.point(joint.pos);
        joint.axis = frame.quat * joint.axis;
        body.joints.push_back(joint);
      } else if (!world && n == "freejoint") {
        JointSpec joint;
        joint.where = where(child);
        joint.type = JointType::kFree;
        r.read("name", joint.name);
        r.read("group", joint.group);
        r.accept_unused("align",
                        "not applied: the free body keeps its frame (no inertial alignment)");
        r.finish();
        body.joints.push_back(joint);
      } else if (!world && n == "inertial") {
        if (body.inertial) fail_at(child, "a body can have only one <inertial>");
        InertialSpec inertial;
        inertial.where = where(child);
        parse_inertial(r, spec_.compiler, inertial);
        frame.place(inertial.pos, inertial.quat);
        body.inertial = inertial;
      } else if (n == "attach") {
        parse_attach(child, body, frame);
      } else if (n == "composite" || n == "flexcomp" || n == "plugin") {
        not_simulated(child);
      } else if (world && (n == "joint" || n == "freejoint" || n == "inertial")) {
        fail_at(child, "<" + n +
                           "> cannot be in <worldbody>: the world does not move; put it "
                           "inside a <body>");
      } else {
        unknown_element(child, world ? "worldbody" : "body",
                        world ? "body, frame, replicate, attach, geom, site, camera, light"
                              : "body, frame, replicate, attach, inertial, joint, freejoint, "
                                "geom, site, camera, light");
      }
      no_children(child);
    }
  }

  void parse_contact(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      AttributeReader r(child, &spec_.notes);
      if (child.name == "pair") {
        PairSpec pair = classes_[class_of(child, 0)].pair;
        pair.where = where(child);
        parse_pair(r, pair);
        if (pair.geom1.empty() || pair.geom2.empty()) {
          fail_at(child, "<pair> needs both geom1 and geom2");
        }
        spec_.pairs.push_back(pair);
      } else if (child.name == "exclude") {
        ExcludeSpec exclude;
        exclude.where = where(child);
        r.read("name", exclude.name);
        r.read("body1", exclude.body1);
        r.read("body2", exclude.body2);
        r.finish();
        if (exclude.body1.empty() || exclude.body2.empty()) {
          fail_at(child, "<exclude> needs both body1 and body2");
        }
        spec_.excludes.push_back(exclude);
      } else {
        unknown_element(child, "contact", "pair, exclude");
      }
      no_children(child);
    }
  }

  void parse_equalities(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      const std::string& n = child.name;
      EqualitySpec equality = classes_[class_of(child, 0)].equality;
      equality.where = where(child);
      if (n == "connect") {
        equality.type = EqualityType::kConnect;
      } else if (n == "weld") {
        equality.type = EqualityType::kWeld;
      } else if (n == "joint") {
        equality.type = EqualityType::kJoint;
      } else if (n == "tendon") {
        equality.type = EqualityType::kTendon;
      } else {
        unknown_element(child, "equality", "connect, weld, joint, tendon");
      }
      AttributeReader r(child, &spec_.notes);
      parse_equality(r, spec_.compiler, equality);
      if (equality.obj1.empty()) {
        fail_at(child,
                "<" + n + "> needs " +
                    (n == "connect" || n == "weld" ? std::string("body1 (or site1 and site2)")
                                                   : n + std::string("1")));
      }
      spec_.equalities.push_back(equality);
      no_children(child);
    }
  }

  void parse_tendons(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      if (child.name != "fixed" && child.name != "spatial") {
        unknown_element(child, "tendon", "fixed, spatial");
      }
      TendonSpec tendon = classes_[class_of(child, 0)].tendon;
      tendon.where = where(child);
      tendon.spatial = child.name == "spatial";
      AttributeReader r(child, &spec_.notes);
      parse_tendon(r, tendon);
      for (const XmlNode& element : child.children) {
        AttributeReader e(element, &spec_.notes);
        TendonPathElement path;
        path.where = where(element);
        if (!tendon.spatial && element.name == "joint") {
          path.type = WrapType::kJoint;
          e.read("joint", path.object);
          if (!e.read("coef", path.coefficient)) e.fail("<joint> in a fixed tendon needs 'coef'");
        } else if (tendon.spatial && element.name == "site") {
          path.type = WrapType::kSite;
          e.read("site", path.object);
        } else if (tendon.spatial && element.name == "geom") {
          path.type = WrapType::kSphere;  // sphere or cylinder: fixed by the compiler
          e.read("geom", path.object);
          e.read("sidesite", path.sidesite);
        } else if (tendon.spatial && element.name == "pulley") {
          path.type = WrapType::kPulley;
          if (!e.read("divisor", path.coefficient)) e.fail("<pulley> needs 'divisor'");
        } else {
          unknown_element(element, child.name, tendon.spatial ? "site, geom, pulley" : "joint");
        }
        e.finish();
        if (path.type != WrapType::kPulley && path.object.empty()) {
          e.fail("<" + element.name + "> in a tendon needs the name of its " + element.name);
        }
        tendon.path.push_back(path);
      }
      if (tendon.path.empty()) fail_at(child, "a tendon needs at least one path element");
      spec_.tendons.push_back(tendon);
    }
  }

  void parse_actuators(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      const std::string& n = child.name;
      if (!is_actuator_kind(n)) {
        if (n == "plugin") {
          fail_at(child, "<" + n + "> actuators are not supported by Pliant yet; accepted: " +
                             kActuatorKinds);
        }
        unknown_element(child, "actuator", kActuatorKinds);
      }
      ActuatorSpec actuator = classes_[class_of(child, 0)].actuator;
      actuator.where = where(child);
      AttributeReader r(child, &spec_.notes);
      parse_actuator(r, n, actuator);
      spec_.actuators.push_back(actuator);
      no_children(child);
    }
  }

  void parse_sensors(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      const SensorKind* kind = find_sensor_kind(child.name);
      if (!kind) {
        if (child.name == "user" || child.name == "plugin" || child.name == "contact" ||
            child.name == "tactile" || child.name == "insidesite") {
          fail_at(child, "<" + child.name + "> sensors are not supported by Pliant; supported: " +
                             sensor_element_names());
        }
        unknown_element(child, "sensor", sensor_element_names());
      }
      SensorSpec sensor;
      sensor.where = where(child);
      sensor.type = child.name;
      AttributeReader r(child, &spec_.notes);
      r.read("name", sensor.name);
      r.read("noise", sensor.noise);
      r.read("cutoff", sensor.cutoff);
      r.has("user");
      const auto needs = [&](const char* attribute, std::string& out, ObjectType type) {
        if (!r.read(attribute, out) || out.empty()) {
          r.fail("<" + child.name + "> needs the attribute '" + attribute + "' naming a " +
                 attribute);
        }
        return type;
      };
      const auto frame_type = [&](const char* attribute, ObjectType& out) {
        r.read_keyword(attribute, out,
                       {{"body", ObjectType::kBody},
                        {"xbody", ObjectType::kXBody},
                        {"geom", ObjectType::kGeom},
                        {"site", ObjectType::kSite},
                        {"camera", ObjectType::kCamera}});
      };
      // One of geomN or bodyN names each side of a distance sensor.
      const auto geom_or_body = [&](const std::string& geom, const std::string& body,
                                    std::string& out, ObjectType& type) {
        const bool has_geom = r.read(geom, out);
        std::string body_name;
        const bool has_body = r.read(body, body_name);
        if (has_geom == has_body) {
          r.fail("<" + child.name + "> needs exactly one of '" + geom + "' and '" + body + "'");
        }
        if (has_body) out = body_name;
        if (out.empty()) r.fail("<" + child.name + "> '" + (has_geom ? geom : body) + "' is empty");
        type = has_geom ? ObjectType::kGeom : ObjectType::kBody;
      };
      switch (kind->object) {
        case SensorObject::kNone:
          break;
        case SensorObject::kSite:
          sensor.object_type = needs("site", sensor.object, ObjectType::kSite);
          break;
        case SensorObject::kJoint:
          sensor.object_type = needs("joint", sensor.object, ObjectType::kJoint);
          break;
        case SensorObject::kTendon:
          sensor.object_type = needs("tendon", sensor.object, ObjectType::kTendon);
          break;
        case SensorObject::kActuator:
          sensor.object_type = needs("actuator", sensor.object, ObjectType::kActuator);
          break;
        case SensorObject::kBody:
          sensor.object_type = needs("body", sensor.object, ObjectType::kBody);
          break;
        case SensorObject::kSiteCamera:
          sensor.object_type = needs("site", sensor.object, ObjectType::kSite);
          sensor.reference_type = needs("camera", sensor.reference, ObjectType::kCamera);
          break;
        case SensorObject::kGeomPair:
          geom_or_body("geom1", "body1", sensor.object, sensor.object_type);
          geom_or_body("geom2", "body2", sensor.reference, sensor.reference_type);
          break;
        case SensorObject::kFrame:
        case SensorObject::kFrameNoRef:
          frame_type("objtype", sensor.object_type);
          r.read("objname", sensor.object);
          if (sensor.object_type == ObjectType::kUnknown || sensor.object.empty()) {
            r.fail("<" + child.name + "> needs 'objtype' and 'objname'");
          }
          if (kind->object == SensorObject::kFrameNoRef) {
            if (r.has("reftype") || r.has("refname")) {
              r.fail("<" + child.name + "> has no reference frame: remove 'reftype' and 'refname'");
            }
            break;
          }
          frame_type("reftype", sensor.reference_type);
          r.read("refname", sensor.reference);
          if ((sensor.reference_type == ObjectType::kUnknown) != sensor.reference.empty()) {
            r.fail("<" + child.name + "> needs both 'reftype' and 'refname', or neither");
          }
          break;
      }
      if (sensor.cutoff < 0) r.fail("<" + child.name + "> 'cutoff' must not be negative");
      if (sensor.noise < 0) r.fail("<" + child.name + "> 'noise' must not be negative");
      r.finish();
      no_children(child);
      spec_.sensors.push_back(sensor);
    }
  }

  void parse_keyframes(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      if (child.name != "key") unknown_element(child, "keyframe", "key");
      KeyframeSpec key;
      key.where = where(child);
      AttributeReader r(child, &spec_.notes);
      r.read("name", key.name);
      r.read("time", key.time);
      auto vector = [&](const char* name, std::optional<std::vector<double>>& out) {
        std::vector<double> values;
        if (r.read_numbers(name, values, 0, 1 << 30)) out = values;
      };
      vector("qpos", key.qpos);
      vector("qvel", key.qvel);
      vector("act", key.act);
      vector("ctrl", key.ctrl);
      vector("mpos", key.mpos);
      vector("mquat", key.mquat);
      r.finish();
      no_children(child);
      spec_.keyframes.push_back(key);
    }
  }

  // <asset><model name file>: a model to attach, parsed from its own file
  // with its own compiler settings and default classes (attach.h).
  void load_submodel(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    std::string name, file;
    reader.read("name", name);
    if (!reader.read("file", file)) reader.fail("<model> needs a 'file' naming an MJCF model");
    reader.has("content_type");
    reader.finish();
    no_children(node);
    namespace fs = std::filesystem;
    fs::path path(file);
    if (!path.is_absolute()) path = fs::path(spec_.directory) / path;
    // Absolute, so that the sub-model's asset paths stay right wherever the
    // attaching model is compiled from.
    path = fs::absolute(path).lexically_normal();
    if (name.empty()) name = path.stem().string();
    if (submodels_.count(name)) fail_at(node, "model '" + name + "' is defined twice");
    if (!fs::is_regular_file(path)) {
      fail_at(node, "model file '" + path.string() + "' does not exist");
    }
    for (const std::string& open : open_files()) {
      if (fs::path(open).lexically_normal() == path) {
        fail_at(node, "model file '" + path.string() + "' attaches itself");
      }
    }
    open_files().push_back(path.string());
    try {
      const XmlNode root = read_xml_file(path.string());
      auto submodel =
          std::make_shared<ModelSpec>(parse_mjcf(root, path.string(), path.parent_path().string()));
      prepare_submodel(*submodel);
      submodels_[name] = submodel;
    } catch (...) {
      open_files().pop_back();
      throw;
    }
    open_files().pop_back();
  }

  // <attach model body prefix>: the sub-model's body (or world) joins the
  // enclosing body, placed by the enclosing frames.
  void parse_attach(const XmlNode& node, BodySpec& body, const Pose& frame) {
    AttributeReader reader(node, &spec_.notes);
    std::string model, child_body, prefix;
    if (!reader.read("model", model)) reader.fail("<attach> needs 'model', a <model> asset");
    reader.read("body", child_body);
    reader.read("prefix", prefix);
    reader.finish();
    const auto it = submodels_.find(model);
    if (it == submodels_.end()) {
      std::string defined;
      for (const auto& [n, unused] : submodels_) defined += (defined.empty() ? "" : ", ") + n;
      fail_at(node, "<attach> names model '" + model + "'; " +
                        (defined.empty() ? std::string("the <asset> section defines no <model>")
                                         : "defined: " + defined));
    }
    attach_submodel(*it->second, child_body, prefix, frame, where(node), attachments_++, body,
                    attached_);
  }

  // The attached models' assets, tendons, actuators, ... follow the model's
  // own, in the order of the <attach> elements.
  void merge_attached() {
    const auto move_all = [](auto& from, auto& to) {
      to.insert(to.end(), std::make_move_iterator(from.begin()),
                std::make_move_iterator(from.end()));
    };
    const int own_actuators = static_cast<int>(spec_.actuators.size());
    for (KeyframeSpec& key : attached_.keyframes) key.actuator_offset += own_actuators;
    move_all(attached_.meshes, spec_.meshes);
    move_all(attached_.textures, spec_.textures);
    move_all(attached_.materials, spec_.materials);
    move_all(attached_.hfields, spec_.hfields);
    move_all(attached_.tendons, spec_.tendons);
    move_all(attached_.equalities, spec_.equalities);
    move_all(attached_.pairs, spec_.pairs);
    move_all(attached_.excludes, spec_.excludes);
    move_all(attached_.actuators, spec_.actuators);
    move_all(attached_.sensors, spec_.sensors);
    move_all(attached_.keyframes, spec_.keyframes);
    move_all(attached_.notes, spec_.notes);
  }

  // The sub-model files being parsed, outermost first (the top-level file is
  // not among them, so a file that attaches itself is caught one level
  // down): a cycle of attachments is an error rather than an endless
  // recursion.
  static std::vector<std::string>& open_files() {
    thread_local std::vector<std::string> files;
    return files;
  }

  ModelSpec spec_;
  std::vector<DefaultClass> classes_;
  std::unordered_map<std::string, int> class_ids_;
  std::map<std::string, std::shared_ptr<const ModelSpec>> submodels_;
  ModelSpec attached_;  // elements of attached models, merged at the end
  int attachments_ = 0;
};

}  // namespace

ModelSpec parse_mjcf(const XmlNode& root, const std::string& file, const std::string& directory) {
  return Parser(file, directory).run(root);
}

}  // namespace pliant
