#include "pliant/model.h"

namespace pliant {

int mass_matrix_size(const Model& m) {
  if (m.nv == 0) return 0;
  int depth = 0;
  for (int k = m.nv - 1; k >= 0; k = m.dofs.parent[k]) ++depth;
  return m.dofs.madr.back() + depth;
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
    case ObjectType::kHfield:
      names = &hfields.name;
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
