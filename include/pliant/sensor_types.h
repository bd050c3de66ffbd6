#pragma once

// The sensor kinds Pliant computes: for each MJCF element, its type code
// (MuJoCo's mjtSensor), the object it reads, its size, its data type (which
// decides how `cutoff` clips it) and the stage of the step whose results it
// needs. The parser, the compiler and the engine share this one table.

#include <string>

#include "pliant/model.h"

namespace pliant {

// How `cutoff` applies: real values are clipped to [-cutoff, cutoff],
// positive ones to at most cutoff; axes and quaternions are never clipped.
enum class SensorDataType : int { kReal = 0, kPositive = 1, kAxis = 2, kQuaternion = 3 };

// The stage whose results a sensor reads (MuJoCo's mjtStage).
enum class SensorStage : int { kPosition = 1, kVelocity = 2, kAcceleration = 3 };

// Which attributes name the sensed object.
enum class SensorObject {
  kNone,        // clock, energies
  kSite,        // site="..."
  kJoint,       // joint="..."
  kTendon,      // tendon="..."
  kActuator,    // actuator="..."
  kBody,        // body="..."
  kFrame,       // objtype/objname, optional reftype/refname
  kFrameNoRef,  // objtype/objname (accelerations: no reference frame)
  kGeomPair,    // geom1|body1 and geom2|body2
  kSiteCamera,  // site="..." camera="..."
  kContact,     // geom1|body1|subtree1|site, geom2|body2|subtree2, all optional
  kInsideSite,  // objtype/objname and site="..." (the volume)
};

struct SensorKind {
  const char* element;
  SensorType type;
  SensorObject object;
  int dim;
  SensorDataType datatype;
  SensorStage stage;
};

// A contact sensor's data parts, in the order its slots hold them and its
// `data` attribute lists them (bit k of sensor_intprm[0] for part k), with
// their sizes; and its reductions (sensor_intprm[1]).
inline constexpr int kContactDataParts = 7;
inline constexpr const char* kContactDataNames[kContactDataParts] = {
    "found", "force", "torque", "dist", "pos", "normal", "tangent"};
inline constexpr int kContactDataSizes[kContactDataParts] = {1, 3, 3, 1, 3, 3, 3};
inline constexpr const char* kContactReduceNames[] = {"none", "mindist", "maxforce", "netforce"};

// The values of one slot of a contact sensor with data bits `bits`.
inline int contact_slot_size(int bits) {
  int size = 0;
  for (int k = 0; k < kContactDataParts; ++k) size += (bits >> k & 1) ? kContactDataSizes[k] : 0;
  return size;
}

// The kind of the MJCF element `element`, or nullptr when Pliant has none.
const SensorKind* find_sensor_kind(const std::string& element);
const SensorKind& sensor_kind(SensorType type);
// Every element name, comma-separated, for error messages.
std::string sensor_element_names();

}  // namespace pliant
