#include "pliant/save_xml.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <system_error>

#include "model/save_parts.h"
#include "model/spec.h"

namespace pliant {
namespace save {

const std::string& required_name(const Model& model, ObjectType type, int id, const char* what) {
  const std::string& name = model.name(type, id);
  if (name.empty()) {
    throw LoadError(model.file, 0,
                    std::string("cannot write the model as MJCF: ") + what + " " +
                        std::to_string(id) +
                        " has no name, and MJCF refers to it by name; give it a name");
  }
  return name;
}

namespace {

const char* keyword(Integrator integrator) {
  switch (integrator) {
    case Integrator::kEuler:
      return "Euler";
    case Integrator::kRk4:
      return "RK4";
    case Integrator::kImplicit:
      return "implicit";
    case Integrator::kImplicitFast:
      return "implicitfast";
  }
  return "Euler";
}

const char* keyword(CollisionMode mode) {
  switch (mode) {
    case CollisionMode::kAll:
      return "all";
    case CollisionMode::kPair:
      return "predefined";
    case CollisionMode::kDynamic:
      return "dynamic";
  }
  return "all";
}

const char* keyword(JacobianLayout layout) {
  switch (layout) {
    case JacobianLayout::kDense:
      return "dense";
    case JacobianLayout::kSparse:
      return "sparse";
    case JacobianLayout::kAuto:
      return "auto";
  }
  return "auto";
}

const char* keyword(SolverType solver) {
  switch (solver) {
    case SolverType::kPgs:
      return "PGS";
    case SolverType::kCg:
      return "CG";
    case SolverType::kNewton:
      return "Newton";
  }
  return "Newton";
}

const char* keyword(LengthRangeOptions::Mode mode) {
  using Mode = LengthRangeOptions::Mode;
  switch (mode) {
    case Mode::kNone:
      return "none";
    case Mode::kMuscle:
      return "muscle";
    case Mode::kMuscleUser:
      return "muscleuser";
    case Mode::kAll:
      return "all";
  }
  return "muscle";
}

// Angles in radians, limits by name, and mass and inertia from each body's
// <inertial> only: the reload recomputes nothing the model already holds.
void write_compiler(const Model& m, XmlElement& root) {
  XmlElement& compiler = root.add("compiler");
  compiler.set("angle", "radian").set_bool("autolimits", true).set("inertiafromgeom", "false");
  const LengthRangeOptions& o = m.lengthrange;
  compiler.add("lengthrange")
      .set("mode", keyword(o.mode))
      .set_bool("useexisting", o.useexisting)
      .set_bool("uselimit", o.uselimit)
      .set("accel", o.accel)
      .set("maxforce", o.maxforce)
      .set("timeconst", o.timeconst)
      .set("timestep", o.timestep)
      .set("inttotal", o.inttotal)
      .set("interval", o.interval)
      .set("tolrange", o.tolrange);
}

void write_flags(const OptionFlags& f, XmlElement& option) {
  XmlElement& flag = option.add("flag");
  const auto set = [&](const char* name, bool on) { flag.set(name, on ? "enable" : "disable"); };
  set("constraint", f.constraint);
  set("equality", f.equality);
  set("frictionloss", f.frictionloss);
  set("limit", f.limit);
  set("contact", f.contact);
  set("spring", f.spring);
  set("damper", f.damper);
  set("gravity", f.gravity);
  set("clampctrl", f.clampctrl);
  set("warmstart", f.warmstart);
  set("filterparent", f.filterparent);
  set("actuation", f.actuation);
  set("refsafe", f.refsafe);
  set("sensor", f.sensor);
  set("midphase", f.midphase);
  set("eulerdamp", f.eulerdamp);
  set("autoreset", f.autoreset);
  set("nativeccd", f.nativeccd);
  set("island", f.island);
  set("override", f.override_contacts);
  set("energy", f.energy);
  set("fwdinv", f.fwdinv);
  set("invdiscrete", f.invdiscrete);
  set("multiccd", f.multiccd);
  // MuJoCo 2.x only: MuJoCo 3.x refuses the attribute, so it is written only
  // when on.
  if (f.sensornoise) set("sensornoise", true);
}

void write_option(const Model& m, XmlElement& root) {
  const Options& o = m.options;
  XmlElement& option = root.add("option");
  // apirate and collision are MuJoCo 2.x options that 3.x refuses: written
  // only when a model sets them.
  const Options defaults;
  if (o.apirate != defaults.apirate) option.set("apirate", o.apirate);
  if (o.collision != defaults.collision) option.set("collision", keyword(o.collision));
  option.set("timestep", o.timestep)
      .set("impratio", o.impratio)
      .set("tolerance", o.tolerance)
      .set("ls_tolerance", o.ls_tolerance)
      .set("noslip_tolerance", o.noslip_tolerance)
      .set("ccd_tolerance", o.mpr_tolerance)
      .set("gravity", o.gravity)
      .set("wind", o.wind)
      .set("magnetic", o.magnetic)
      .set("density", o.density)
      .set("viscosity", o.viscosity)
      .set("o_margin", o.o_margin);
  set_solref(option, "o_solref", o.o_solref);
  set_solimp(option, "o_solimp", o.o_solimp);
  option.set("o_friction", o.o_friction)
      .set("integrator", keyword(o.integrator))
      .set("cone", o.cone == Cone::kElliptic ? "elliptic" : "pyramidal")
      .set("jacobian", keyword(o.jacobian))
      .set("solver", keyword(o.solver))
      .set("iterations", o.iterations)
      .set("ls_iterations", o.ls_iterations)
      .set("noslip_iterations", o.noslip_iterations)
      .set("ccd_iterations", o.mpr_iterations);
  std::string disabled;
  for (int group = 0; group <= 30; ++group) {
    if (o.disableactuator & (1 << group))
      disabled += (disabled.empty() ? "" : " ") + std::to_string(group);
  }
  if (!disabled.empty()) option.set("actuatorgroupdisable", disabled);
  write_flags(o.flags, option);
}

// The statistics the file gave (the compiler computes none but meaninertia,
// which loading measures again); zero ones are left out.
void write_statistic(const Model& m, XmlElement& root) {
  XmlElement statistic("statistic");
  if (m.stat.meanmass != 0) statistic.set("meanmass", m.stat.meanmass);
  if (m.stat.meansize != 0) statistic.set("meansize", m.stat.meansize);
  if (m.stat.extent != 0) statistic.set("extent", m.stat.extent);
  if (!m.stat.center.isZero(0)) statistic.set("center", m.stat.center);
  if (!statistic.empty()) root.add("statistic") = statistic;
}

}  // namespace

void write_settings(const Model& model, XmlElement& root) {
  write_compiler(model, root);
  write_option(model, root);
  write_statistic(model, root);
  // The user data widths, so that rows of zeros come back as wide.
  XmlElement size("size");
  const std::pair<const char*, int> widths[] = {
      {"nuser_body", model.nuser_body},         {"nuser_jnt", model.nuser_jnt},
      {"nuser_geom", model.nuser_geom},         {"nuser_site", model.nuser_site},
      {"nuser_cam", model.nuser_cam},           {"nuser_tendon", model.nuser_tendon},
      {"nuser_actuator", model.nuser_actuator}, {"nuser_sensor", model.nuser_sensor}};
  for (const auto& [name, width] : widths) {
    if (width > 0) size.set(name, width);
  }
  if (!size.empty()) root.add("size") = size;
  // A camera without a sensor size has the near clipping plane as its focal
  // length: <visual><map znear> gives it back.
  const Cameras& c = model.cameras;
  for (int i = 0; i < c.count(); ++i) {
    if (c.sensorsize[i][1] > 0) continue;
    if (c.intrinsic[i][0] != CameraSpec().focal[0]) {
      root.add("visual").add("map").set("znear", c.intrinsic[i][0]);
    }
    break;
  }
}

}  // namespace save

std::string to_xml(const Model& model) {
  XmlElement root("mujoco");
  root.set("model", model.model_name);
  save::write_settings(model, root);
  save::write_tendon_classes(model, root);
  save::write_assets(model, root);
  save::write_worldbody(model, root);
  save::write_contacts(model, root);
  save::write_equalities(model, root);
  save::write_tendons(model, root);
  save::write_actuators(model, root);
  save::write_sensors(model, root);
  save::write_keyframes(model, root);
  std::string text =
      "<!-- Written by Pliant's save_xml: the compiled model, every value "
      "explicit. -->\n";
  root.write(text);
  return text;
}

void save_xml(const Model& model, const std::string& path) {
  namespace fs = std::filesystem;
  const std::string text = to_xml(model);
  const auto fail = [&](const std::string& why) {
    throw LoadError(path, 0, "cannot write the model: " + why + "; nothing was written");
  };
  const fs::path target(path);
  if (target.filename().empty()) fail("the path names a directory, not a file");
  std::error_code error;
  if (fs::is_directory(target, error)) fail("the path is a directory");
  // A temporary file beside the target, renamed over it once complete, so a
  // failed write leaves neither a partial file nor a damaged old one.
  std::random_device entropy;
  const fs::path temporary = target.parent_path() / ("." + target.filename().string() + ".tmp" +
                                                     std::to_string(entropy() % 1000000));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      const fs::path directory = target.parent_path().empty() ? "." : target.parent_path();
      fail(fs::is_directory(directory, error)
               ? "the directory '" + directory.string() + "' is not writable"
               : "the directory '" + directory.string() + "' does not exist");
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      fs::remove(temporary, error);
      fail("writing the file failed (disk full?)");
    }
  }
  fs::rename(temporary, target, error);
  if (error) {
    fs::remove(temporary, error);
    fail("could not replace the file: " + error.message());
  }
}

}  // namespace pliant
