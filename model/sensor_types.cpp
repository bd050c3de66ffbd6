#include "pliant/sensor_types.h"

#include <array>

namespace pliant {
namespace {

using D = SensorDataType;
using O = SensorObject;
using S = SensorStage;
using T = SensorType;

// In MJCF order within each group; stages and data types are MuJoCo's.
constexpr SensorKind kKinds[] = {
    {"touch", T::kTouch, O::kSite, 1, D::kPositive, S::kAcceleration},
    {"accelerometer", T::kAccelerometer, O::kSite, 3, D::kReal, S::kAcceleration},
    {"velocimeter", T::kVelocimeter, O::kSite, 3, D::kReal, S::kVelocity},
    {"gyro", T::kGyro, O::kSite, 3, D::kReal, S::kVelocity},
    {"force", T::kForce, O::kSite, 3, D::kReal, S::kAcceleration},
    {"torque", T::kTorque, O::kSite, 3, D::kReal, S::kAcceleration},
    {"magnetometer", T::kMagnetometer, O::kSite, 3, D::kReal, S::kPosition},
    {"rangefinder", T::kRangefinder, O::kSite, 1, D::kPositive, S::kPosition},
    {"camprojection", T::kCamProjection, O::kSiteCamera, 2, D::kReal, S::kPosition},
    {"jointpos", T::kJointPos, O::kJoint, 1, D::kReal, S::kPosition},
    {"jointvel", T::kJointVel, O::kJoint, 1, D::kReal, S::kVelocity},
    {"tendonpos", T::kTendonPos, O::kTendon, 1, D::kReal, S::kPosition},
    {"tendonvel", T::kTendonVel, O::kTendon, 1, D::kReal, S::kVelocity},
    {"actuatorpos", T::kActuatorPos, O::kActuator, 1, D::kReal, S::kPosition},
    {"actuatorvel", T::kActuatorVel, O::kActuator, 1, D::kReal, S::kVelocity},
    {"actuatorfrc", T::kActuatorFrc, O::kActuator, 1, D::kReal, S::kAcceleration},
    {"jointactuatorfrc", T::kJointActuatorFrc, O::kJoint, 1, D::kReal, S::kAcceleration},
    {"tendonactuatorfrc", T::kTendonActuatorFrc, O::kTendon, 1, D::kReal, S::kAcceleration},
    {"ballquat", T::kBallQuat, O::kJoint, 4, D::kQuaternion, S::kPosition},
    {"ballangvel", T::kBallAngVel, O::kJoint, 3, D::kReal, S::kVelocity},
    {"jointlimitpos", T::kJointLimitPos, O::kJoint, 1, D::kReal, S::kPosition},
    {"jointlimitvel", T::kJointLimitVel, O::kJoint, 1, D::kReal, S::kVelocity},
    {"jointlimitfrc", T::kJointLimitFrc, O::kJoint, 1, D::kReal, S::kAcceleration},
    {"tendonlimitpos", T::kTendonLimitPos, O::kTendon, 1, D::kReal, S::kPosition},
    {"tendonlimitvel", T::kTendonLimitVel, O::kTendon, 1, D::kReal, S::kVelocity},
    {"tendonlimitfrc", T::kTendonLimitFrc, O::kTendon, 1, D::kReal, S::kAcceleration},
    {"framepos", T::kFramePos, O::kFrame, 3, D::kReal, S::kPosition},
    {"framequat", T::kFrameQuat, O::kFrame, 4, D::kQuaternion, S::kPosition},
    {"framexaxis", T::kFrameXAxis, O::kFrame, 3, D::kAxis, S::kPosition},
    {"frameyaxis", T::kFrameYAxis, O::kFrame, 3, D::kAxis, S::kPosition},
    {"framezaxis", T::kFrameZAxis, O::kFrame, 3, D::kAxis, S::kPosition},
    {"framelinvel", T::kFrameLinVel, O::kFrame, 3, D::kReal, S::kVelocity},
    {"frameangvel", T::kFrameAngVel, O::kFrame, 3, D::kReal, S::kVelocity},
    {"framelinacc", T::kFrameLinAcc, O::kFrameNoRef, 3, D::kReal, S::kAcceleration},
    {"frameangacc", T::kFrameAngAcc, O::kFrameNoRef, 3, D::kReal, S::kAcceleration},
    {"subtreecom", T::kSubtreeCom, O::kBody, 3, D::kReal, S::kPosition},
    {"subtreelinvel", T::kSubtreeLinVel, O::kBody, 3, D::kReal, S::kVelocity},
    {"subtreeangmom", T::kSubtreeAngMom, O::kBody, 3, D::kReal, S::kVelocity},
    {"distance", T::kGeomDist, O::kGeomPair, 1, D::kReal, S::kPosition},
    {"normal", T::kGeomNormal, O::kGeomPair, 3, D::kAxis, S::kPosition},
    {"fromto", T::kGeomFromTo, O::kGeomPair, 6, D::kReal, S::kPosition},
    // Its size follows its data and slots (SensorSpec::intprm).
    {"contact", T::kContact, O::kContact, 0, D::kReal, S::kAcceleration},
    {"insidesite", T::kInsideSite, O::kInsideSite, 1, D::kPositive, S::kPosition},
    {"e_potential", T::kEPotential, O::kNone, 1, D::kReal, S::kPosition},
    {"e_kinetic", T::kEKinetic, O::kNone, 1, D::kReal, S::kPosition},
    {"clock", T::kClock, O::kNone, 1, D::kReal, S::kPosition},
};

}  // namespace

const SensorKind* find_sensor_kind(const std::string& element) {
  for (const SensorKind& kind : kKinds) {
    if (element == kind.element) return &kind;
  }
  return nullptr;
}

const SensorKind& sensor_kind(SensorType type) {
  for (const SensorKind& kind : kKinds) {
    if (kind.type == type) return kind;
  }
  return kKinds[0];  // unreachable: every SensorType has a row
}

std::string sensor_element_names() {
  std::string out;
  for (const SensorKind& kind : kKinds)
    out += (out.empty() ? "" : ", ") + std::string(kind.element);
  return out;
}

}  // namespace pliant
