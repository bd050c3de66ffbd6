#include "pliant/model.h"

#include <iterator>

namespace pliant {
namespace {

// MJCF's geom type names, indexed by GeomType.
constexpr const char* kGeomTypeNames[] = {"plane",     "hfield",   "sphere", "capsule",
                                          "ellipsoid", "cylinder", "box",    "mesh"};
static_assert(std::size(kGeomTypeNames) == static_cast<size_t>(GeomType::kMesh) + 1);

}  // namespace

const char* geom_type_name(GeomType type) { return kGeomTypeNames[static_cast<int>(type)]; }

bool geom_type_from_name(std::string_view name, GeomType& type) {
  for (size_t k = 0; k < std::size(kGeomTypeNames); ++k) {
    if (name == kGeomTypeNames[k]) {
      type = static_cast<GeomType>(k);
      return true;
    }
  }
  return false;
}

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
    case ObjectType::kPair:
      names = &pairs.name;
      break;
    case ObjectType::kExclude:
      names = &excludes.name;
      break;
    default:
      return empty;
  }
  if (id < 0 || id >= static_cast<int>(names->size())) return empty;
  return (*names)[id];
}

}  // namespace pliant
