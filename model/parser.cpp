#include "model/parser.h"

#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "model/attach.h"
#include "model/element_parsers.h"
#include "model/element_reading.h"
#include "model/exact_rotation.h"
#include "model/orientation.h"
#include "model/unit_quaternion.h"
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

// The actuator elements Pliant reads (parse_actuator gives each its gain,
// bias and dynamics).
constexpr const char* kActuatorKinds[] = {"general",  "motor",       "position",
                                          "velocity", "intvelocity", "damper",
                                          "cylinder", "muscle",      "adhesion"};

bool is_actuator_kind(const std::string& name) {
  for (const char* kind : kActuatorKinds) {
    if (name == kind) return true;
  }
  return false;
}

std::string actuator_kind_names() {
  std::string names;
  for (const char* kind : kActuatorKinds) names += (names.empty() ? "" : ", ") + std::string(kind);
  return names;
}

// How a <default> class's prototype of one element kind is read.
using DefaultParser = void (*)(AttributeReader&, const CompilerSettings&, DefaultClass&);

// The prototypes a <default> may hold, by element name.
const std::unordered_map<std::string, DefaultParser>& default_parsers() {
  static const std::unordered_map<std::string, DefaultParser> table = [] {
    std::unordered_map<std::string, DefaultParser> t = {
        {"geom", [](AttributeReader& r, const CompilerSettings& c,
                    DefaultClass& d) { parse_geom(r, c, d.geom); }},
        {"site", [](AttributeReader& r, const CompilerSettings& c,
                    DefaultClass& d) { parse_site(r, c, d.site); }},
        {"joint", [](AttributeReader& r, const CompilerSettings&,
                     DefaultClass& d) { parse_joint(r, d.joint); }},
        {"camera", [](AttributeReader& r, const CompilerSettings& c,
                      DefaultClass& d) { parse_camera(r, c, d.camera); }},
        {"light", [](AttributeReader& r, const CompilerSettings&,
                     DefaultClass& d) { parse_light(r, d.light); }},
        {"mesh", [](AttributeReader& r, const CompilerSettings&,
                    DefaultClass& d) { parse_mesh(r, d.mesh); }},
        {"material", [](AttributeReader& r, const CompilerSettings&,
                        DefaultClass& d) { parse_material(r, d.material); }},
        {"tendon", [](AttributeReader& r, const CompilerSettings&,
                      DefaultClass& d) { parse_tendon(r, d.tendon, true); }},
        {"equality", [](AttributeReader& r, const CompilerSettings& c,
                        DefaultClass& d) { parse_equality(r, c, d.equality); }},
        {"pair", [](AttributeReader& r, const CompilerSettings&,
                    DefaultClass& d) { parse_pair(r, d.pair); }},
    };
    for (const char* kind : kActuatorKinds) {
      t[kind] = [](AttributeReader& r, const CompilerSettings&, DefaultClass& d) {
        parse_actuator(r, r.node().name, d.actuator);
      };
    }
    return t;
  }();
  return table;
}

// An element in a default class sets what its kind shares, never its own
// name or class, nor what names one object (MuJoCo 3.3.8's schema refuses
// those there): each is an error at the element.
void refuse_in_default(const XmlNode& node) {
  static const std::unordered_map<std::string, std::set<std::string>> kOwn = [] {
    const std::set<std::string> transmission = {"joint",   "jointinparent", "tendon",
                                                "site",    "slidersite",    "cranksite",
                                                "refsite", "body",          "lengthrange"};
    std::unordered_map<std::string, std::set<std::string>> own = {
        {"camera", {"target"}},
        {"light", {"target", "texture"}},
        {"mesh",
         {"file", "vertex", "face", "texcoord", "normal", "smoothnormal", "material", "params",
          "refpos", "refquat", "content_type"}},
        {"tendon", {"armature", "actuatorfrcrange", "actuatorfrclimited"}},
        {"pair", {"geom1", "geom2"}}};
    for (const char* kind : kActuatorKinds) own[kind] = transmission;
    own["muscle"].insert("tausmooth");
    return own;
  }();
  const auto it = kOwn.find(node.name);
  for (const XmlAttribute& attribute : node.attributes) {
    const std::string& a = attribute.name;
    if (a == "name" || a == "class" || (it != kOwn.end() && it->second.count(a))) {
      fail_at(node, "'" + a + "' cannot be set in a default class (<default><" + node.name +
                        ">): it belongs to one element; write it on the element");
    }
  }
}

// The equality constraints, by element name.
const std::unordered_map<std::string, EqualityType>& equality_types() {
  static const std::unordered_map<std::string, EqualityType> table = {
      {"connect", EqualityType::kConnect},
      {"weld", EqualityType::kWeld},
      {"joint", EqualityType::kJoint},
      {"tendon", EqualityType::kTendon}};
  return table;
}

// Where a body's child elements go: the body, the default class they
// inherit, whether the body is the world, and the frame that places them.
struct BodyScope {
  BodySpec& body;
  int childclass;
  bool world;
  const Pose& frame;
};

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
      if (node.name == "compiler") parse_compiler_element(node);
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
      const auto it = section_parsers().find(node.name);
      if (it == section_parsers().end()) {
        unknown_element(node, "mujoco",
                        "compiler, option, size, visual, statistic, default, custom, asset, "
                        "worldbody, contact, equality, tendon, actuator, sensor, keyframe");
      }
      // The sections take no attributes (MuJoCo 3.3.8 refuses any);
      // <default> reads its class itself.
      if (node.name != "default" && node.name != "option" && node.name != "compiler" &&
          node.name != "size" && node.name != "statistic") {
        AttributeReader(node).finish();
      }
      (this->*it->second)(node);
    }
    merge_attached();
    return std::move(spec_);
  }

 private:
  using SectionParser = void (Parser::*)(const XmlNode&);

  // The sections of <mujoco>, by element name.
  static const std::unordered_map<std::string, SectionParser>& section_parsers() {
    static const std::unordered_map<std::string, SectionParser> table = {
        {"compiler", &Parser::already_parsed},     {"default", &Parser::already_parsed},
        {"option", &Parser::parse_option_element}, {"size", &Parser::parse_size},
        {"visual", &Parser::parse_visual},         {"custom", &Parser::parse_custom},
        {"statistic", &Parser::parse_statistic},   {"asset", &Parser::parse_assets},
        {"worldbody", &Parser::parse_worldbody},   {"contact", &Parser::parse_contact},
        {"equality", &Parser::parse_equalities},   {"tendon", &Parser::parse_tendons},
        {"actuator", &Parser::parse_actuators},    {"sensor", &Parser::parse_sensors},
        {"keyframe", &Parser::parse_keyframes},    {"extension", &Parser::reject_section},
        {"deformable", &Parser::reject_section}};
    return table;
  }

  // <compiler> and <default>: read before the other sections (run).
  void already_parsed(const XmlNode&) {}

  void reject_section(const XmlNode& node) { not_simulated(node); }

  void parse_compiler_element(const XmlNode& node) {
    AttributeReader r(node, &spec_.notes);
    parse_compiler(r, spec_.compiler);
    for (const XmlNode& child : node.children) {
      if (child.name != "lengthrange") {
        fail_at(child, "<compiler> takes only <lengthrange> children, found <" + child.name + ">");
      }
      parse_lengthrange(child);
    }
    at_most_once(node);
  }

  // Children of `node` that MJCF allows once (MuJoCo 3.3.8's schema): a
  // second one is an error at its line. Every child kind, or those listed.
  static void at_most_once(const XmlNode& node, const std::set<std::string>* only = nullptr) {
    std::set<std::string> seen;
    for (const XmlNode& child : node.children) {
      if (only != nullptr && only->count(child.name) == 0) continue;
      if (!seen.insert(child.name).second) {
        fail_at(child, "<" + node.name + "> takes one <" + child.name +
                           ">; this is the second (write its attributes on the first)");
      }
    }
  }

  // How actuator length ranges are found by simulation.
  void parse_lengthrange(const XmlNode& node) {
    AttributeReader lr(node, &spec_.notes);
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
    no_children(node);
  }

  // Rendering settings: checked as MuJoCo 3.3.8 checks them, not used by
  // the engine, except the near clipping plane, a camera's default focal
  // length.
  void parse_visual(const XmlNode& node) {
    AttributeReader(node, &spec_.notes).finish();
    static const std::unordered_map<std::string, std::vector<const char*>> kVisual = {
        {"global",
         {"cameraid", "orthographic", "fovy", "ipd", "azimuth", "elevation", "linewidth", "glow",
          "offwidth", "offheight", "realtime", "ellipsoidinertia", "bvactive"}},
        {"quality", {"shadowsize", "offsamples", "numslices", "numstacks", "numquads"}},
        {"headlight", {"ambient", "diffuse", "specular", "active"}},
        {"map",
         {"stiffness", "stiffnessrot", "force", "torque", "alpha", "fogstart", "fogend", "znear",
          "zfar", "haze", "shadowclip", "shadowscale", "actuatortendon"}},
        {"scale",
         {"forcewidth", "contactwidth", "contactheight", "connect", "com", "camera", "light",
          "selectpoint", "jointlength", "jointwidth", "actuatorlength", "actuatorwidth",
          "framelength", "framewidth", "constraint", "slidercrank", "frustum"}},
        {"rgba",
         {"fog",
          "haze",
          "force",
          "inertia",
          "joint",
          "actuator",
          "actuatornegative",
          "actuatorpositive",
          "com",
          "camera",
          "light",
          "selectpoint",
          "connect",
          "contactpoint",
          "contactforce",
          "contactfriction",
          "contacttorque",
          "contactgap",
          "rangefinder",
          "constraint",
          "slidercrank",
          "crankbroken",
          "frustum",
          "bv",
          "bvactive"}}};
    for (const XmlNode& child : node.children) {
      const auto it = kVisual.find(child.name);
      if (it == kVisual.end()) {
        unknown_element(child, "visual", "global, quality, headlight, map, scale, rgba");
      }
      AttributeReader r(child, &spec_.notes);
      if (child.name == "map") r.read("znear", spec_.visual_znear);
      for (const char* name : it->second) r.has(name);
      r.finish();
      no_children(child);
    }
    at_most_once(node);
  }

  // User data (<numeric>, <text>, <tuple>): checked as MuJoCo 3.3.8 checks
  // it; the engine does not use it.
  void parse_custom(const XmlNode& node) {
    AttributeReader(node, &spec_.notes).finish();
    const auto named = [this](const XmlNode& element, std::initializer_list<const char*> names) {
      AttributeReader r(element, &spec_.notes);
      if (!r.has("name")) fail_at(element, "<" + element.name + "> needs a 'name'");
      for (const char* name : names) r.has(name);
      r.finish();
    };
    for (const XmlNode& child : node.children) {
      if (child.name == "numeric") {
        named(child, {"size", "data"});
        no_children(child);
      } else if (child.name == "text") {
        named(child, {"data"});
        no_children(child);
      } else if (child.name == "tuple") {
        named(child, {});
        for (const XmlNode& element : child.children) {
          if (element.name != "element") unknown_element(element, "tuple", "element");
          AttributeReader r(element, &spec_.notes);
          for (const char* name : {"objtype", "objname", "prm"}) r.has(name);
          r.finish();
          no_children(element);
        }
      } else {
        unknown_element(child, "custom", "numeric, text, tuple");
      }
    }
  }

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
    if (name == nullptr || name->empty()) return inherited;  // "" is absent, as in MuJoCo
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
      const auto it = default_parsers().find(child.name);
      if (it == default_parsers().end()) {
        unknown_element(child, "default",
                        "default, geom, site, joint, camera, light, mesh, material, general, "
                        "motor, position, velocity, intvelocity, damper, cylinder, muscle, "
                        "adhesion, tendon, equality, pair");
      }
      refuse_in_default(child);
      it->second(r, spec_.compiler, classes_[id]);
      no_children(child);
    }
    static const std::set<std::string> kNotRepeated = [] {
      std::set<std::string> kinds;
      for (const auto& [kind, parser] : default_parsers()) kinds.insert(kind);
      return kinds;
    }();
    at_most_once(node, &kNotRepeated);
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
      no_children(child);
    }
    at_most_once(node);
  }

  void parse_size(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    // nkey allocates keyframes (the extra ones hold the default state).
    if (reader.read("nkey", spec_.nkey) && spec_.nkey < 0) {
      reader.fail("attribute 'nkey' of <size> is " + std::to_string(spec_.nkey) +
                  "; accepted: 0 or more keyframes");
    }
    // Memory sizes: Pliant grows its buffers as needed, so these are not
    // used; they are checked as MuJoCo 3.3.8 checks them (integers;
    // nconmax and the nuser_ sizes -1 or more, nuserdata 0 or more; memory a
    // whole number of bytes with an optional K, M, G, T, P or E). The
    // nuser_ sizes set the width of the model's user data arrays.
    for (const char* name : {"njmax", "nstack"}) {
      int value = 0;
      reader.read(name, value);
    }
    int nconmax = 0, nuserdata = 0;
    const std::pair<const char*, int*> counts[] = {{"nconmax", &nconmax},
                                                   {"nuser_body", &spec_.nuser_body},
                                                   {"nuser_jnt", &spec_.nuser_jnt},
                                                   {"nuser_geom", &spec_.nuser_geom},
                                                   {"nuser_site", &spec_.nuser_site},
                                                   {"nuser_cam", &spec_.nuser_cam},
                                                   {"nuser_tendon", &spec_.nuser_tendon},
                                                   {"nuser_actuator", &spec_.nuser_actuator},
                                                   {"nuser_sensor", &spec_.nuser_sensor},
                                                   {"nuserdata", &nuserdata}};
    for (const auto& [name, target] : counts) {
      const int least = std::string(name) == "nuserdata" ? 0 : -1;
      if (reader.read(name, *target) && *target < least) {
        reader.fail("attribute '" + std::string(name) + "' of <size> is " +
                    std::to_string(*target) + "; accepted: " + std::to_string(least) + " or more");
      }
    }
    if (const std::optional<std::string> memory = reader.text("memory"))
      check_memory(reader, *memory);
    reader.finish();
    no_children(node);
  }

  // <size memory>: -1, or a whole number of bytes with an optional K, M, G,
  // T, P or E (powers of 1024).
  static void check_memory(AttributeReader& reader, const std::string& text) {
    if (text == "-1") return;
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    const std::string suffix = text.substr(digits);
    const bool ok = digits > 0 && digits <= 18 &&
                    (suffix.empty() || (suffix.size() == 1 &&
                                        std::string("KMGTPE").find(suffix) != std::string::npos));
    if (!ok) {
      reader.fail("attribute 'memory' of <size> is '" + text +
                  "'; accepted: -1, or a whole number of bytes with an optional suffix K, M, "
                  "G, T, P or E");
    }
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

  using AssetParser = void (Parser::*)(const XmlNode&, AttributeReader&, const DefaultClass&);

  // The elements of <asset>, by name.
  static const std::unordered_map<std::string, AssetParser>& asset_parsers() {
    static const std::unordered_map<std::string, AssetParser> table = {
        {"mesh", &Parser::add_mesh},
        {"texture", &Parser::add_texture},
        {"material", &Parser::add_material},
        {"hfield", &Parser::add_hfield},
        {"model", &Parser::skip_submodel}};
    return table;
  }

  void parse_assets(const XmlNode& node) {
    for (const XmlNode& child : node.children) {
      AttributeReader r(child, &spec_.notes);
      const DefaultClass& defaults = classes_[class_of(child, 0)];
      const auto it = asset_parsers().find(child.name);
      if (it == asset_parsers().end()) {
        if (child.name == "skin") not_simulated(child);
        unknown_element(child, "asset", "mesh, texture, material, hfield, model");
      }
      (this->*it->second)(child, r, defaults);
    }
  }

  void add_mesh(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults) {
    MeshSpec mesh = defaults.mesh;
    mesh.where = where(node);
    parse_mesh(r, mesh);
    spec_.meshes.push_back(mesh);
    no_children(node);
  }

  void add_texture(const XmlNode& node, AttributeReader& r, const DefaultClass&) {
    TextureSpec texture;
    texture.where = where(node);
    parse_texture(r, texture);
    spec_.textures.push_back(texture);
    no_children(node);
  }

  void add_material(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults) {
    MaterialSpec material = defaults.material;
    material.where = where(node);
    parse_material(r, material);
    spec_.materials.push_back(material);
    // Texture layers of physically based rendering (MuJoCo 3.x): accepted;
    // the viewer uses the material's texture attribute.
    for (const XmlNode& layer : node.children) {
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

  void add_hfield(const XmlNode& node, AttributeReader& r, const DefaultClass&) {
    HfieldSpec hfield;
    hfield.where = where(node);
    parse_hfield(r, hfield);
    spec_.hfields.push_back(hfield);
    no_children(node);
  }

  // <asset><model>: loaded before the other sections (load_submodel).
  void skip_submodel(const XmlNode&, AttributeReader&, const DefaultClass&) {}

  void parse_worldbody(const XmlNode& node) {
    AttributeReader reader(node, &spec_.notes);
    reader.finish();
    spec_.world.where = where(node);
    spec_.world.name = "world";
    parse_body_children(node, {spec_.world, 0, true, Pose()});
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
    read_user_data(reader, body.user);
    reader.finish();
    parse_body_children(node, {body, childclass, false, Pose()});
  }

  // A <frame> (MuJoCo 3.x): its children belong to the enclosing body, placed
  // by the frame's pose, with the frame's childclass if it has one.
  void parse_frame(const XmlNode& node, const BodyScope& outer) {
    AttributeReader reader(node, &spec_.notes);
    int childclass = outer.childclass;
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
    combined.pos = outer.frame.point(pose.pos);
    combined.quat = unit_as_compiler(quat_mul(outer.frame.quat, pose.quat));
    parse_body_children(node, {outer.body, childclass, outer.world, combined});
  }

  // A <replicate> (MuJoCo 3.x): `count` copies of its children, copy i
  // placed by the repeat transform (offset, euler) applied i times after the
  // enclosing frame; a named element's copy gets sep and i appended (inner
  // replicates first).
  void parse_replicate(const XmlNode& node, const BodyScope& outer) {
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
    if (spec_.compiler.degrees) {
      for (int k = 0; k < 3; ++k) euler[k] = degrees_as_compiler(euler[k]);
    }
    step.quat = euler_to_quat(euler, spec_.compiler.eulerseq);
    Pose repeat;  // the step applied i times
    for (int i = 0; i < count; ++i) {
      Pose placed;
      placed.pos = outer.frame.point(repeat.pos);
      placed.quat = unit_as_compiler(quat_mul(outer.frame.quat, repeat.quat));
      const BodySpec before = counts_of(outer.body);
      parse_body_children(node, {outer.body, outer.childclass, outer.world, placed});
      append_suffix(outer.body, before, sep + std::to_string(i));
      repeat.pos = step.point(repeat.pos);
      repeat.quat = unit_as_compiler(quat_mul(step.quat, repeat.quat));
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

  // Elements of a body that nest further: they read their own attributes.
  using NestingParser = void (Parser::*)(const XmlNode&, const BodyScope&);
  // Elements of a body read with the defaults of their class.
  using BodyElementParser = void (Parser::*)(const XmlNode&, AttributeReader&, const DefaultClass&,
                                             const BodyScope&);
  struct BodyElement {
    BodyElementParser parse;
    bool in_world;  // whether <worldbody> may hold it
  };

  static const std::unordered_map<std::string, NestingParser>& nesting_parsers() {
    static const std::unordered_map<std::string, NestingParser> table = {
        {"body", &Parser::add_body},
        {"frame", &Parser::parse_frame},
        {"replicate", &Parser::parse_replicate}};
    return table;
  }

  static const std::unordered_map<std::string, BodyElement>& body_element_parsers() {
    static const std::unordered_map<std::string, BodyElement> table = {
        {"geom", {&Parser::add_geom, true}},
        {"site", {&Parser::add_site, true}},
        {"camera", {&Parser::add_camera, true}},
        {"light", {&Parser::add_light, true}},
        {"joint", {&Parser::add_joint, false}},
        {"freejoint", {&Parser::add_freejoint, false}},
        {"inertial", {&Parser::add_inertial, false}},
        {"attach", {&Parser::add_attach, true}}};
    return table;
  }

  void parse_body_children(const XmlNode& node, const BodyScope& scope) {
    for (const XmlNode& child : node.children) {
      const auto nesting = nesting_parsers().find(child.name);
      if (nesting != nesting_parsers().end()) {
        (this->*nesting->second)(child, scope);
        continue;
      }
      AttributeReader r(child, &spec_.notes);
      const DefaultClass& defaults = classes_[class_of(child, scope.childclass)];
      const auto it = body_element_parsers().find(child.name);
      if (it == body_element_parsers().end() || (scope.world && !it->second.in_world)) {
        reject_body_child(child, scope.world);
      }
      (this->*it->second.parse)(child, r, defaults, scope);
      no_children(child);
    }
  }

  [[noreturn]] static void reject_body_child(const XmlNode& child, bool world) {
    const std::string& n = child.name;
    if (n == "composite" || n == "flexcomp" || n == "plugin") not_simulated(child);
    if (world && (n == "joint" || n == "freejoint" || n == "inertial")) {
      fail_at(child, "<" + n +
                         "> cannot be in <worldbody>: the world does not move; put it "
                         "inside a <body>");
    }
    unknown_element(child, world ? "worldbody" : "body",
                    world ? "body, frame, replicate, attach, geom, site, camera, light"
                          : "body, frame, replicate, attach, inertial, joint, freejoint, "
                            "geom, site, camera, light");
  }

  void add_body(const XmlNode& node, const BodyScope& scope) {
    scope.body.children.emplace_back();
    BodySpec& added = scope.body.children.back();
    parse_body(node, added, scope.childclass);
    scope.frame.place(added.pos, added.quat);
  }

  void add_geom(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults,
                const BodyScope& scope) {
    GeomSpec geom = defaults.geom;
    geom.where = where(node);
    parse_geom(r, spec_.compiler, geom);
    scope.frame.place(geom.pos, geom.quat);
    scope.frame.place(geom.fromto);
    scope.body.geoms.push_back(geom);
  }

  void add_site(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults,
                const BodyScope& scope) {
    SiteSpec site = defaults.site;
    site.where = where(node);
    parse_site(r, spec_.compiler, site);
    scope.frame.place(site.pos, site.quat);
    scope.frame.place(site.fromto);
    scope.body.sites.push_back(site);
  }

  void add_camera(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults,
                  const BodyScope& scope) {
    CameraSpec camera = defaults.camera;
    camera.where = where(node);
    parse_camera(r, spec_.compiler, camera);
    scope.frame.place(camera.pos, camera.quat);
    scope.body.cameras.push_back(camera);
  }

  void add_light(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults,
                 const BodyScope& scope) {
    LightSpec light = defaults.light;
    light.where = where(node);
    parse_light(r, light);
    light.pos = scope.frame.point(light.pos);
    light.dir = scope.frame.quat * light.dir;
    scope.body.lights.push_back(light);
  }

  void add_joint(const XmlNode& node, AttributeReader& r, const DefaultClass& defaults,
                 const BodyScope& scope) {
    JointSpec joint = defaults.joint;
    joint.where = where(node);
    parse_joint(r, joint);
    joint.pos = scope.frame.point(joint.pos);
    joint.axis = scope.frame.quat * joint.axis;
    scope.body.joints.push_back(joint);
  }

  // <freejoint>: a free joint that takes no defaults.
  void add_freejoint(const XmlNode& node, AttributeReader& r, const DefaultClass&,
                     const BodyScope& scope) {
    JointSpec joint;
    joint.where = where(node);
    joint.type = JointType::kFree;
    r.read("name", joint.name);
    r.read("group", joint.group);
    read_tristate(r, "align", joint.align);
    r.finish();
    scope.body.joints.push_back(joint);
  }

  void add_inertial(const XmlNode& node, AttributeReader& r, const DefaultClass&,
                    const BodyScope& scope) {
    if (scope.body.inertial) fail_at(node, "a body can have only one <inertial>");
    InertialSpec inertial;
    inertial.where = where(node);
    parse_inertial(r, spec_.compiler, inertial);
    scope.frame.place(inertial.pos, inertial.quat);
    scope.body.inertial = inertial;
  }

  void add_attach(const XmlNode& node, AttributeReader&, const DefaultClass&,
                  const BodyScope& scope) {
    parse_attach(node, scope.body, scope.frame);
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
      const auto type = equality_types().find(n);
      if (type == equality_types().end()) {
        unknown_element(child, "equality", "connect, weld, joint, tendon");
      }
      equality.type = type->second;
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
      parse_tendon(r, tendon, tendon.spatial);
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
        no_children(element);
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
                             actuator_kind_names());
        }
        unknown_element(child, "actuator", actuator_kind_names());
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
        if (child.name == "user" || child.name == "plugin" || child.name == "tactile") {
          fail_at(child, "<" + child.name + "> sensors are not supported by Pliant; supported: " +
                             sensor_element_names());
        }
        unknown_element(child, "sensor", sensor_element_names());
      }
      SensorSpec sensor;
      sensor.where = where(child);
      AttributeReader r(child, &spec_.notes);
      parse_sensor(r, *kind, sensor);
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
