// Ray casting (engine/ray.h) against MuJoCo 2.2.2's mj_ray and mju_rayGeom.
//
// Scene conformance: tests/data/ray/ray_scene.xml holds one geom of every
// type. For each type, 10 random states x 1000 rays around that geom (origins
// around it, from inside it, rays parallel to its faces or axis, rays aimed
// at it from near and far, directions of random length) go to cast_ray and to
// mj_ray(m, d, pnt, vec, NULL, 1, -1, &geomid); the distances must agree
// within kTolerance relative to max(1, |d|) and the geom ids exactly. The
// filters (groups, static, excluded body) are compared the same way on random
// rays through the whole scene. The worst error of each is printed.
//
// Height fields: MuJoCo 2.2.2 reads no inline elevation, so the reference
// loads the scene without it and takes Pliant's elevations. On the walls
// normal to x, 2.2.2 reads the elevation profile with the row count as the
// row stride where 3.3.8 uses the column count; Pliant follows 3.3.8. The two
// agree on the square field of the scene; NonSquareHeightFieldAsMuJoCo3
// checks the difference against values measured with MuJoCo 3.3.8.

#include "pliant/ray.h"

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

#include "engine/kinematics.h"
#include "pliant/data.h"
#include "pliant/load.h"
#include "tests/conformance/reference.h"

namespace pliant::conformance {
namespace {

// |d_pliant - d_mujoco| / max(1, |d_mujoco|).
constexpr double kTolerance = 1e-9;
constexpr int kStates = 10;
constexpr int kRaysPerState = 1000;

std::string scene_path() { return std::string(PLIANT_TEST_DATA) + "/ray/ray_scene.xml"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The scene without `elevation="..."` attributes, which MuJoCo 2.2.2 does
// not know.
std::string without_elevation(std::string xml) {
  const std::string key = " elevation=\"";
  for (size_t at = xml.find(key); at != std::string::npos; at = xml.find(key, at)) {
    const size_t end = xml.find('"', at + key.size());
    xml.erase(at, end + 1 - at);
  }
  return xml;
}

Matrix3d row_major(const mjtNum* m) {
  Matrix3d r;
  r << m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8];
  return r;
}

struct Comparison {
  double worst = 0;  // relative distance error
  int rays = 0, hits = 0, mismatches = 0;
  std::string first_mismatch;

  void add(const Vector3d& origin, const Vector3d& direction, double ours, int our_geom,
           double theirs, int their_geom) {
    ++rays;
    if (theirs >= 0) ++hits;
    const bool both_miss = ours < 0 && theirs < 0;
    const double error = both_miss ? 0
                         : (ours < 0) != (theirs < 0)
                             ? std::numeric_limits<double>::infinity()
                             : std::abs(ours - theirs) / std::max(1.0, std::abs(theirs));
    worst = std::max(worst, error);
    if (error > kTolerance || our_geom != their_geom) {
      if (mismatches++ == 0) {
        std::ostringstream s;
        s.precision(17);
        s << "origin (" << origin.transpose() << ") direction (" << direction.transpose()
          << "): Pliant " << ours << " geom " << our_geom << ", MuJoCo " << theirs << " geom "
          << their_geom;
        first_mismatch = s.str();
      }
    }
  }

  void report(const std::string& name) const {
    std::printf("%-16s rays %6d  hits %6d  worst relative error %.3g  mismatches %d\n",
                name.c_str(), rays, hits, worst, mismatches);
    EXPECT_EQ(mismatches, 0) << name << ": first " << first_mismatch;
    EXPECT_LE(worst, kTolerance) << name;
  }
};

Vector3d uniform_cube(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  return {u(rng), u(rng), u(rng)};
}

Matrix3d random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0, 1);
  return Quaterniond(n(rng), n(rng), n(rng), n(rng)).normalized().toRotationMatrix();
}

Vector3d unit_vector(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0, 1);
  Vector3d v;
  do {
    v = Vector3d(n(rng), n(rng), n(rng));
  } while (v.norm() < 1e-6);
  return v.normalized();
}

// A direction of random length (MuJoCo's distance is in units of it).
double direction_scale(std::mt19937_64& rng) {
  return std::uniform_real_distribution<double>(0.2, 5)(rng);
}

// Half-extents of the region around a shape that ray origins come from, in
// the shape's frame.
Vector3d origin_region(GeomType type, const Vector3d& size, double rbound,
                       const Vector4d& hfield_size) {
  switch (type) {
    case GeomType::kPlane:  // a size of 0 is unbounded
      return {1.2 * std::max(size[0], 2.0), 1.2 * std::max(size[1], 2.0), 2};
    case GeomType::kHfield:
      return {1.5 * hfield_size[0], 1.5 * hfield_size[1], 1.5 * (hfield_size[2] + hfield_size[3])};
    default:
      return Vector3d::Constant(1.5 * rbound);
  }
}

// A point inside the shape (behind a plane, inside a height field's base),
// in the shape's frame. For the non-convex mesh, inside its bounding box.
Vector3d inside_point(GeomType type, const Vector3d& size, const Vector4d& hfield_size,
                      std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  switch (type) {
    case GeomType::kPlane:
      return {u(rng) * size[0], u(rng) * size[1], -2 * std::abs(u(rng)) - 1e-3};
    case GeomType::kHfield:
      return {0.9 * u(rng) * hfield_size[0], 0.9 * u(rng) * hfield_size[1],
              -0.9 * std::abs(u(rng)) * hfield_size[3]};
    case GeomType::kSphere:
      return 0.5 * size[0] * uniform_cube(rng);
    case GeomType::kCapsule:
    case GeomType::kCylinder:
      return {0.6 * size[0] * u(rng), 0.6 * size[0] * u(rng), 0.9 * size[1] * u(rng)};
    case GeomType::kEllipsoid:
      return 0.5 * size.cwiseProduct(uniform_cube(rng));
    case GeomType::kBox:
    case GeomType::kMesh:
      return 0.5 * size.cwiseProduct(uniform_cube(rng));
  }
  return Vector3d::Zero();
}

// A direction in the shape's frame along one of its axes, or in the plane
// normal to one (parallel to box faces, cylinder ends, the plane).
Vector3d parallel_direction(std::mt19937_64& rng) {
  const int axis = std::uniform_int_distribution<int>(0, 2)(rng);
  Vector3d d = Vector3d::Zero();
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
    d[axis] = std::uniform_int_distribution<int>(0, 1)(rng) ? 1 : -1;
  } else {
    const double angle = std::uniform_real_distribution<double>(0, 2 * std::numbers::pi)(rng);
    d[(axis + 1) % 3] = std::cos(angle);
    d[(axis + 2) % 3] = std::sin(angle);
  }
  return d;
}

// One random ray about a shape at (pos, rot): kind 0-4 from around it in a
// random direction, 5 aimed at it (half of them from 50 m away), 6-7 from
// inside it, 8-9 parallel to its axes or faces.
void random_ray(GeomType type, const Vector3d& size, double rbound, const Vector4d& hfield_size,
                const Vector3d& pos, const Matrix3d& rot, int kind, std::mt19937_64& rng,
                Vector3d& origin, Vector3d& direction) {
  const Vector3d region = origin_region(type, size, rbound, hfield_size);
  origin = pos + rot * region.cwiseProduct(uniform_cube(rng));
  if (kind <= 4) {
    direction = unit_vector(rng);
  } else if (kind == 5) {
    if (std::uniform_int_distribution<int>(0, 1)(rng)) origin = pos + 50 * unit_vector(rng);
    const Vector3d target = pos + rot * inside_point(type, size, hfield_size, rng);
    direction = (target - origin).normalized();
  } else if (kind <= 7) {
    origin = pos + rot * inside_point(type, size, hfield_size, rng);
    direction = unit_vector(rng);
  } else {
    direction = rot * parallel_direction(rng);
  }
  direction *= direction_scale(rng);
}

class RayConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    model_ = std::make_unique<Model>(load_model(scene_path()));
    data_ = std::make_unique<Data>(*model_);
    // MuJoCo 2.2.2 loads the scene without inline elevations, from a
    // temporary copy, and takes Pliant's.
    const std::filesystem::path copy = std::filesystem::temp_directory_path() /
                                       ("pliant_ray_scene_" + std::to_string(::getpid()) + ".xml");
    {
      std::ofstream out(copy);
      out << without_elevation(read_text(scene_path()));
    }
    ref_ = load_reference(copy.string());
    std::filesystem::remove(copy);
    ASSERT_TRUE(ref_);
    const Hfields& h = model_->hfields;
    ASSERT_EQ(ref_->nhfield, h.count());
    for (int i = 0; i < h.count(); ++i) {
      ASSERT_EQ(ref_->hfield_nrow[i], h.nrow[i]);
      ASSERT_EQ(ref_->hfield_ncol[i], h.ncol[i]);
      for (int k = 0; k < h.nrow[i] * h.ncol[i]; ++k) {
        ref_->hfield_data[ref_->hfield_adr[i] + k] = h.data[h.adr[i] + k];
      }
    }
    rd_.reset(mj_makeData(ref_.get()));
    ASSERT_EQ(ref_->ngeom, model_->geoms.count());
  }

  // A random state in both engines, posed; the geom poses must agree.
  void pose(std::mt19937_64& rng) {
    set_random_state(*model_, *data_, *ref_, *rd_, rng);
    kinematics(*model_, *data_);
    mj_forward(ref_.get(), rd_.get());
    for (int g = 0; g < ref_->ngeom; ++g) {
      ASSERT_LE((data_->geom_xpos[g] - Vector3d(rd_->geom_xpos + 3 * g)).norm(), 1e-12);
      ASSERT_LE((data_->geom_xmat[g] - row_major(rd_->geom_xmat + 9 * g)).norm(), 1e-12);
    }
  }

  // Both engines at the reference configuration (qpos0).
  void pose_reference() {
    kinematics(*model_, *data_);
    mj_forward(ref_.get(), rd_.get());
  }

  void compare(const Vector3d& origin, const Vector3d& direction, const RayFilter& filter,
               Comparison& comparison) {
    const RayHit ours = cast_ray(*model_, *data_, origin, direction, filter);
    mjtByte groups[kRayGeomGroups];
    for (int k = 0; k < kRayGeomGroups; ++k) {
      groups[k] = filter.geom_groups && filter.geom_groups[k] ? 1 : 0;
    }
    // MuJoCo 2.3.6 changed two filters, and Pliant follows the later
    // semantics (3.3.8's): static means welded to the world (2.2.2: geoms
    // of the world body only), and planes and height fields obey the group
    // filter (2.2.2: always seen). The reference sees those geoms hidden
    // (alpha 0) for the one call.
    std::vector<int> hidden;
    for (int g = 0; g < ref_->ngeom; ++g) {
      const int body = ref_->geom_bodyid[g];
      const bool later_static = !filter.include_static && ref_->body_weldid[body] == 0 && body != 0;
      const int type = ref_->geom_type[g];
      const int group = std::clamp(ref_->geom_group[g], 0, kRayGeomGroups - 1);
      const bool later_group = (type == mjGEOM_PLANE || type == mjGEOM_HFIELD) &&
                               filter.geom_groups && !filter.geom_groups[group];
      if ((later_static || later_group) && ref_->geom_rgba[4 * g + 3] != 0) hidden.push_back(g);
    }
    std::vector<float> alpha;
    for (int g : hidden) {
      alpha.push_back(ref_->geom_rgba[4 * g + 3]);
      ref_->geom_rgba[4 * g + 3] = 0;
    }
    int their_geom = -1;
    const double theirs = mj_ray(ref_.get(), rd_.get(), origin.data(), direction.data(),
                                 filter.geom_groups ? groups : nullptr,
                                 filter.include_static ? 1 : 0, filter.exclude_body, &their_geom);
    for (size_t k = 0; k < hidden.size(); ++k) ref_->geom_rgba[4 * hidden[k] + 3] = alpha[k];
    comparison.add(origin, direction, ours.distance, ours.geom, theirs, their_geom);
  }

  int geom(const std::string& name) const { return model_->id(ObjectType::kGeom, name); }

  std::unique_ptr<Model> model_;
  std::unique_ptr<Data> data_;
  MjModelPtr ref_;
  MjDataPtr rd_;
};

TEST_F(RayConformance, EveryGeomTypeMatchesMjRay) {
  const char* targets[] = {"floor",     "terrain",  "sphere", "capsule",
                           "ellipsoid", "cylinder", "box",    "mesh"};
  std::mt19937_64 rng(20240611);
  for (const char* name : targets) {
    const int g = geom(name);
    ASSERT_GE(g, 0) << name;
    const Geoms& geoms = model_->geoms;
    const Vector4d hfield_size = geoms.type[g] == GeomType::kHfield
                                     ? model_->hfields.size[geoms.data_id[g]]
                                     : Vector4d::Zero();
    Comparison comparison;
    for (int state = 0; state < kStates; ++state) {
      pose(rng);
      if (HasFatalFailure()) return;
      for (int i = 0; i < kRaysPerState; ++i) {
        Vector3d origin, direction;
        random_ray(geoms.type[g], geoms.size[g], geoms.rbound[g], hfield_size, data_->geom_xpos[g],
                   data_->geom_xmat[g], i % 10, rng, origin, direction);
        compare(origin, direction, {}, comparison);
      }
    }
    comparison.report(name);
    EXPECT_GT(comparison.hits, kStates * kRaysPerState / 10) << name;
  }
}

TEST_F(RayConformance, FiltersMatchMjRay) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  Comparison comparison;
  const int ngeom = model_->geoms.count(), nbody = model_->body_count();
  for (int state = 0; state < 2 * kStates; ++state) {
    pose(rng);
    if (HasFatalFailure()) return;
    for (int i = 0; i < kRaysPerState; ++i) {
      // From anywhere in the scene, towards a random geom.
      const Vector3d origin(-1.5 + 18.5 * u(rng), -2 + 4 * u(rng), -1.5 + 3.5 * u(rng));
      const int target = std::uniform_int_distribution<int>(0, ngeom - 1)(rng);
      const Vector3d aim = data_->geom_xpos[target] + 0.2 * uniform_cube(rng);
      const Vector3d direction = (aim - origin).normalized() * direction_scale(rng);
      bool groups[kRayGeomGroups];
      for (bool& group : groups) group = u(rng) < 0.6;
      RayFilter filter;
      if (u(rng) < 0.7) filter.geom_groups = groups;
      filter.include_static = u(rng) < 0.5;
      if (u(rng) < 0.7) filter.exclude_body = std::uniform_int_distribution<int>(0, nbody - 1)(rng);
      compare(origin, direction, filter, comparison);
    }
  }
  comparison.report("filters");
}

// Geoms not drawn are not hit; groups outside 0..5 count as the nearest end.
TEST_F(RayConformance, VisibilityAndGroupClamping) {
  pose_reference();
  const Vector3d down(0, 0, -1);
  const auto above = [&](const std::string& name) -> Vector3d {
    return data_->geom_xpos[geom(name)] + Vector3d(0, 0, 3);
  };
  Comparison comparison;
  for (const char* name : {"invisible", "clear_material"}) {
    const RayHit hit = cast_ray(*model_, *data_, above(name), down);
    EXPECT_NE(hit.geom, geom(name)) << name;
    EXPECT_GT(ray_geom(*model_, *data_, geom(name), above(name), down), 0) << name;
    compare(above(name), down, {}, comparison);
  }
  // Alpha 0 in rgba, but an opaque material: drawn, so hit.
  EXPECT_EQ(cast_ray(*model_, *data_, above("material_alpha"), down).geom, geom("material_alpha"));
  compare(above("material_alpha"), down, {}, comparison);

  bool only[kRayGeomGroups] = {};
  RayFilter filter;
  filter.geom_groups = only;
  only[5] = true;  // group 7 counts as group 5
  EXPECT_EQ(cast_ray(*model_, *data_, above("group7"), down, filter).geom, geom("group7"));
  compare(above("group7"), down, filter, comparison);
  only[5] = false;
  only[0] = true;  // group -2 counts as group 0
  EXPECT_EQ(cast_ray(*model_, *data_, above("group_negative"), down, filter).geom,
            geom("group_negative"));
  compare(above("group_negative"), down, filter, comparison);

  // The static box is skipped without include_static; the jointless child
  // of the capsule's body moves with it, so it is not static.
  RayFilter dynamic_only;
  dynamic_only.include_static = false;
  EXPECT_NE(cast_ray(*model_, *data_, above("box"), down, dynamic_only).geom, geom("box"));
  EXPECT_EQ(cast_ray(*model_, *data_, above("tip"), down, dynamic_only).geom, geom("tip"));
  compare(above("box"), down, dynamic_only, comparison);
  compare(above("tip"), down, dynamic_only, comparison);
  comparison.report("visibility");
}

// The distance is in units of the direction's length; a zero direction
// hits nothing.
TEST_F(RayConformance, DistanceInUnitsOfDirection) {
  pose_reference();
  const Vector3d origin = data_->geom_xpos[geom("sphere")] + Vector3d(0, 0, 2);
  const RayHit unit = cast_ray(*model_, *data_, origin, Vector3d(0, 0, -1));
  const RayHit twice = cast_ray(*model_, *data_, origin, Vector3d(0, 0, -2));
  ASSERT_EQ(unit.geom, geom("sphere"));
  EXPECT_EQ(twice.geom, unit.geom);
  EXPECT_NEAR(twice.distance, unit.distance / 2, 1e-15);
  EXPECT_NEAR(unit.distance, 2 - 0.3, 1e-12);
  const RayHit none = cast_ray(*model_, *data_, origin, Vector3d::Zero());
  EXPECT_EQ(none.geom, -1);
  EXPECT_EQ(none.distance, -1);
}

// ray_shape against mju_rayGeom on random shapes, poses and rays.
TEST(RayShape, PrimitivesMatchMjuRayGeom) {
  const GeomType types[] = {GeomType::kSphere,   GeomType::kCapsule, GeomType::kEllipsoid,
                            GeomType::kCylinder, GeomType::kBox,     GeomType::kPlane};
  const char* names[] = {"sphere", "capsule", "ellipsoid", "cylinder", "box", "plane"};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 6; ++t) {
    const GeomType type = types[t];
    Comparison comparison;
    for (int i = 0; i < 10000; ++i) {
      Vector3d size(0.1 + u(rng), 0.1 + u(rng), 0.1 + u(rng));
      // Planes: half of them infinite in x, y or both.
      if (type == GeomType::kPlane && u(rng) < 0.5) {
        if (u(rng) < 0.6) size[0] = 0;
        if (u(rng) < 0.6) size[1] = 0;
      }
      const Vector3d pos = uniform_cube(rng);
      const Matrix3d rot = random_rotation(rng);
      const double rbound = type == GeomType::kPlane ? 0 : size.norm();
      Vector3d origin, direction;
      random_ray(type, size, rbound, Vector4d::Zero(), pos, rot, i % 10, rng, origin, direction);
      mjtNum mat[9];
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) mat[3 * r + c] = rot(r, c);
      }
      const double ours = ray_shape(type, size, pos, rot, origin, direction);
      const double theirs = mju_rayGeom(pos.data(), mat, size.data(), origin.data(),
                                        direction.data(), static_cast<int>(type));
      comparison.add(origin, direction, ours, ours >= 0 ? 0 : -1, theirs, theirs >= 0 ? 0 : -1);
    }
    comparison.report(names[t]);
  }
}

// A height field with nrow != ncol, as MuJoCo 3.3.8 casts rays at it
// (values measured with MuJoCo 3.3.8's mj_ray). Only the ray onto the x wall
// differs in MuJoCo 2.2.2 (9.35: it misses the wall and meets the surface).
TEST(RayHfield, NonSquareHeightFieldAsMuJoCo3) {
  const Model model = load_model_from_string(R"(
    <mujoco>
      <asset>
        <hfield name="field" nrow="3" ncol="5" size="1 1 1 0.5"
                elevation="0 0 0 0 1  0 0 0 0 0  0 0 0 0 0"/>
      </asset>
      <worldbody>
        <geom name="field" type="hfield" hfield="field" pos="10 0 0"/>
      </worldbody>
    </mujoco>)");
  Data data(model);
  kinematics(model, data);
  struct Case {
    Vector3d origin, direction;
    double distance;
  };
  const Case cases[] = {
      {{20, 0.9, 0.3}, {-1, 0, 0}, 9},      // the wall x = +1, below the corner's rise
      {{20, -0.9, 0.3}, {-1, 0, 0}, -1},    // above the flat edge: over the wall and surface
      {{10.9, 0.9, 5}, {0, 0, -1}, 4.2},    // onto the surface near the raised corner
      {{10.9, -0.9, 5}, {0, 0, -1}, 5},     // onto the flat surface
      {{10.75, 0.5, 5}, {0, 0, -2}, 2.25},  // a direction of length 2
      {{10.9, 5, 0.2}, {0, -1, 0}, 4},      // the wall y = +1 (the last row)
  };
  for (const Case& c : cases) {
    const RayHit hit = cast_ray(model, data, c.origin, c.direction);
    EXPECT_NEAR(hit.distance, c.distance, 1e-12) << c.origin.transpose();
    EXPECT_EQ(hit.geom, c.distance < 0 ? -1 : 0) << c.origin.transpose();
  }
}

}  // namespace
}  // namespace pliant::conformance
