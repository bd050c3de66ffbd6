#pragma once

// One function per MJCF element kind: reads the element's attributes onto a
// spec that already holds the defaults (of the element's class). The same
// functions parse <default> prototypes and real elements.

#include "model/attribute_reader.h"
#include "model/spec.h"
#include "pliant/sensor_types.h"

namespace pliant {

void parse_geom(AttributeReader& reader, const CompilerSettings& compiler, GeomSpec& geom);
void parse_site(AttributeReader& reader, const CompilerSettings& compiler, SiteSpec& site);
void parse_joint(AttributeReader& reader, JointSpec& joint);
void parse_camera(AttributeReader& reader, const CompilerSettings& compiler, CameraSpec& camera);
void parse_light(AttributeReader& reader, LightSpec& light);
void parse_inertial(AttributeReader& reader, const CompilerSettings& compiler,
                    InertialSpec& inertial);
void parse_mesh(AttributeReader& reader, MeshSpec& mesh);
void parse_texture(AttributeReader& reader, TextureSpec& texture);
void parse_material(AttributeReader& reader, MaterialSpec& material);
void parse_hfield(AttributeReader& reader, HfieldSpec& hfield);
// `kind` is the element name: general, motor, position, velocity, muscle,
// ...; defined in actuator_parser.cpp.
void parse_actuator(AttributeReader& reader, const std::string& kind, ActuatorSpec& actuator);
// `visual`: width, rgba and material, which a spatial tendon (and a default
// class) has and a fixed one does not.
void parse_tendon(AttributeReader& reader, TendonSpec& tendon, bool visual);
void parse_equality(AttributeReader& reader, const CompilerSettings& compiler,
                    EqualitySpec& equality);
void parse_pair(AttributeReader& reader, PairSpec& pair);
// `kind` is the sensor kind of the element's name (sensor_types.h); defined
// in sensor_parser.cpp.
void parse_sensor(AttributeReader& reader, const SensorKind& kind, SensorSpec& sensor);
void parse_option(AttributeReader& reader, Options& options);
void parse_option_flags(AttributeReader& reader, OptionFlags& flags);
void parse_compiler(AttributeReader& reader, CompilerSettings& compiler);

}  // namespace pliant
