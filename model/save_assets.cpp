// <asset> of save_xml: textures, materials, meshes and height fields.

#include <filesystem>
#include <vector>

#include "model/reload_inputs.h"
#include "model/save_parts.h"
#include "model/spec.h"

namespace pliant::save {
namespace {

// A texture as the model keeps it: its kind, builtin pattern and colours,
// and its image file by absolute path (the compiler does not read images;
// the viewer does, from wherever the written file is).
void write_texture(const Model& m, int i, XmlElement& asset) {
  const Textures& t = m.textures;
  static const char* kTypes[] = {"2d", "cube", "skybox"};
  XmlElement& e = asset.add("texture");
  e.set_name(t.name[i]);
  e.set("type", t.type[i] >= 0 && t.type[i] < 3 ? kTypes[t.type[i]] : "cube");
  if (!t.file[i].empty()) e.set("file", std::filesystem::absolute(t.file[i]).string());
  for (size_t k = 0; k < kTextureSides.size(); ++k) {
    const std::string& side = t.side_files[i][k];
    if (!side.empty()) e.set(kTextureSides[k], std::filesystem::absolute(side).string());
  }
  if (t.builtin[i] != "none") e.set("builtin", t.builtin[i]);
  e.set("rgb1", t.rgb1[i]).set("rgb2", t.rgb2[i]);
  if (t.width[i] != 0) e.set("width", t.width[i]);
  if (t.height[i] != 0) e.set("height", t.height[i]);
}

void write_material(const Model& m, int i, XmlElement& asset) {
  const Materials& t = m.materials;
  XmlElement& e = asset.add("material");
  e.set_name(t.name[i]);
  if (t.texture[i] >= 0) {
    e.set("texture", required_name(m, ObjectType::kTexture, t.texture[i], "texture"));
  }
  e.set("texrepeat", t.texrepeat[i])
      .set_bool("texuniform", t.texuniform[i])
      .set("emission", t.emission[i])
      .set("specular", t.specular[i])
      .set("shininess", t.shininess[i])
      .set("reflectance", t.reflectance[i])
      .set("metallic", t.metallic[i])
      .set("roughness", t.roughness[i])
      .set("rgba", t.rgba[i]);
}

// A mesh inline, from the vertices the model read (before scale, refpos and
// refquat) and its faces, with the same transforms and inertia mode: the
// loader rebuilds the same principal frame, vertices, volume and hull. The
// faces are the compiled ones (a mirrored file mesh's are already rewound;
// inline faces are taken as written).
void write_mesh(const Model& m, int i, XmlElement& asset) {
  const Meshes& t = m.meshes;
  static const char* kInertia[] = {"legacy", "convex", "exact", "shell"};
  XmlElement& e = asset.add("mesh");
  e.set_name(t.name[i]);
  std::vector<double> vertices;
  vertices.reserve(3 * static_cast<size_t>(t.vert_count[i]));
  for (int v = t.vert_adr[i]; v < t.vert_adr[i] + t.vert_count[i]; ++v) {
    for (int c = 0; c < 3; ++c) vertices.push_back(t.source_vertices[v][c]);
  }
  std::vector<int> faces;
  faces.reserve(3 * static_cast<size_t>(t.face_count[i]));
  for (int f = t.face_adr[i]; f < t.face_adr[i] + t.face_count[i]; ++f) {
    for (int c = 0; c < 3; ++c) faces.push_back(t.faces[f][c]);
  }
  e.set("vertex", std::span<const double>(vertices)).set("face", std::span<const int>(faces));
  e.set("scale", t.scale[i]).set("refpos", t.refpos[i]);
  e.set("refquat", unit_quat_to_write(t.refquat[i]));
  e.set("inertia", t.inertia[i] >= 0 && t.inertia[i] < 4 ? kInertia[t.inertia[i]] : "legacy");
  e.set("maxhullvert", t.maxhullvert[i]);
}

// A height field inline: its size and its normalised elevations, top row of
// the text first (the loader puts the text's first row last), which load
// back unchanged (their minimum is 0 and their maximum 1, or all are 0).
void write_hfield(const Model& m, int i, XmlElement& asset) {
  const Hfields& h = m.hfields;
  XmlElement& e = asset.add("hfield");
  e.set_name(h.name[i]);
  e.set("size", h.size[i]).set("nrow", h.nrow[i]).set("ncol", h.ncol[i]);
  std::vector<double> elevation;
  elevation.reserve(static_cast<size_t>(h.nrow[i]) * h.ncol[i]);
  for (int r = h.nrow[i] - 1; r >= 0; --r) {
    for (int c = 0; c < h.ncol[i]; ++c) elevation.push_back(h.elevation(i, r, c));
  }
  e.set("elevation", std::span<const double>(elevation));
}

}  // namespace

void write_assets(const Model& model, XmlElement& root) {
  XmlElement asset("asset");
  for (int i = 0; i < model.textures.count(); ++i) write_texture(model, i, asset);
  for (int i = 0; i < model.materials.count(); ++i) write_material(model, i, asset);
  for (int i = 0; i < model.meshes.count(); ++i) write_mesh(model, i, asset);
  for (int i = 0; i < model.hfields.count(); ++i) write_hfield(model, i, asset);
  if (asset.has_children()) root.add("asset") = std::move(asset);
}

}  // namespace pliant::save
