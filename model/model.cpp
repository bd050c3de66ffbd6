#include "model/model.h"

namespace pliant {

int OptionFlags::disable_bits() const {
  // MuJoCo 3.x's mjtDisableBit order.
  const bool off[] = {!constraint,   !equality,  !frictionloss, !limit,     !contact,
                      !spring,       !damper,    !gravity,      !clampctrl, !warmstart,
                      !filterparent, !actuation, !refsafe,      !sensor,    !midphase,
                      !eulerdamp,    !autoreset, !nativeccd,    !island};
  int bits = 0;
  for (int i = 0; i < 19; ++i) bits |= off[i] ? (1 << i) : 0;
  return bits;
}

int OptionFlags::enable_bits() const {
  // MuJoCo 3.x's mjtEnableBit order (2.x's sensornoise is not a 3.x bit).
  const bool on[] = {override_contacts, energy, fwdinv, invdiscrete, multiccd};
  int bits = 0;
  for (int i = 0; i < 5; ++i) bits |= on[i] ? (1 << i) : 0;
  return bits;
}

int Model::id(ObjectType type, const std::string& name) const {
  const auto& table = name_to_id[static_cast<int>(type)];
  auto it = table.find(name);
  return it == table.end() ? -1 : it->second;
}

const std::string& Model::name(ObjectType type, int id) const {
  static const std::string empty;
  const std::vector<std::string>* names = nullptr;
  switch (type) {
    case ObjectType::kBody:
    case ObjectType::kXBody:
      names = &bodies.name;
      break;
    case ObjectType::kJoint:
      names = &joints.name;
      break;
    case ObjectType::kGeom:
      names = &geoms.name;
      break;
    case ObjectType::kSite:
      names = &sites.name;
      break;
    case ObjectType::kCamera:
      names = &cameras.name;
      break;
    case ObjectType::kLight:
      names = &lights.name;
      break;
    case ObjectType::kMesh:
      names = &meshes.name;
      break;
    case ObjectType::kMaterial:
      names = &materials.name;
      break;
    case ObjectType::kTexture:
      names = &textures.name;
      break;
    case ObjectType::kEquality:
      names = &equalities.name;
      break;
    case ObjectType::kTendon:
      names = &tendons.name;
      break;
    case ObjectType::kActuator:
      names = &actuators.name;
      break;
    case ObjectType::kSensor:
      names = &sensors.name;
      break;
    case ObjectType::kKey:
      names = &keyframes.name;
      break;
    default:
      return empty;
  }
  if (id < 0 || id >= static_cast<int>(names->size())) return empty;
  return (*names)[id];
}

}  // namespace pliant
