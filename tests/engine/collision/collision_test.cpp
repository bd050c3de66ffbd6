// Collision unit tests: known contact counts for resting configurations,
// filters, the broadphase on a large scene, and a fuzz test over random and
// degenerate pairs (no NaN, no Inf, unit normals).

#include "engine/collision/collision.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <sstream>

#include "engine/collision/broadphase.h"
#include "engine/collision/pair.h"
#include "engine/kinematics.h"
#include "engine/workspace.h"
#include "pliant/forward.h"
#include "pliant/load.h"

namespace pliant {
namespace {

// Contacts of `body_geom` (a free body at `pos`, `quat` w x y z) against
// `other` (in the world).
int count_contacts(const std::string& other, const std::string& body_geom, const Vector3d& pos,
                   const Quaterniond& quat = Quaterniond::Identity()) {
  std::ostringstream xml;
  xml << "<mujoco><worldbody>" << other << "<body><freejoint/>" << body_geom
      << "</body></worldbody></mujoco>";
  const Model model = load_model_from_string(xml.str());
  Data data(model);
  const int q = model.joints.qpos_adr[0];
  for (int k = 0; k < 3; ++k) data.qpos[q + k] = pos[k];
  data.qpos[q + 3] = quat.w();
  data.qpos[q + 4] = quat.x();
  data.qpos[q + 5] = quat.y();
  data.qpos[q + 6] = quat.z();
  kinematics(model, data);
  collide(model, data);
  for (const Contact& c : data.contacts) {
    EXPECT_NEAR(c.frame.row(0).norm(), 1, 1e-12);
    EXPECT_LE(c.dist, 1e-12);
  }
  return static_cast<int>(data.contacts.size());
}

const char* kPlane = "<geom type='plane' size='5 5 1'/>";
const Quaterniond kLying(Eigen::AngleAxisd(M_PI / 2, Vector3d::UnitX()));

TEST(Collision, KnownCounts) {
  EXPECT_EQ(count_contacts(kPlane, "<geom type='capsule' size='0.1 0.3'/>", Vector3d(0, 0, 0.099),
                           kLying),
            2);
  EXPECT_EQ(count_contacts(kPlane, "<geom type='cylinder' size='0.1 0.3'/>", Vector3d(0, 0, 0.299)),
            3);
  EXPECT_EQ(count_contacts(kPlane, "<geom type='cylinder' size='0.1 0.3'/>", Vector3d(0, 0, 0.099),
                           kLying),
            2);
  EXPECT_EQ(
      count_contacts(kPlane, "<geom type='ellipsoid' size='0.1 0.2 0.3'/>", Vector3d(0, 0, 0.299)),
      1);
  EXPECT_EQ(count_contacts("<geom type='box' size='1 1 0.1'/>", "<geom type='sphere' size='0.1'/>",
                           Vector3d(0, 0, 0.199)),
            1);
  EXPECT_EQ(count_contacts("<geom type='box' size='1 1 0.1'/>",
                           "<geom type='capsule' size='0.1 0.3'/>", Vector3d(0, 0, 0.199), kLying),
            2);
  EXPECT_EQ(count_contacts(kPlane, "<geom type='box' size='0.1 0.2 0.3'/>", Vector3d(0, 0, 0.299)),
            4);
  // A box exactly on the plane touches with four corners at zero distance.
  EXPECT_EQ(count_contacts(kPlane, "<geom type='box' size='0.1 0.2 0.3'/>", Vector3d(0, 0, 0.3)),
            4);
  // Stacked boxes, face on face: four corners of the smaller face.
  EXPECT_EQ(count_contacts("<geom type='box' size='1 1 0.1'/>",
                           "<geom type='box' size='0.2 0.2 0.2'/>", Vector3d(0, 0, 0.299)),
            4);
  // Parallel capsules side by side: two contacts.
  EXPECT_EQ(count_contacts("<geom type='capsule' size='0.1 0.3'/>",
                           "<geom type='capsule' size='0.1 0.3'/>", Vector3d(0.199, 0, 0)),
            2);
}

// Face contacts carry half the penetration, as MuJoCo 2.2.2 and 3.3.8 report
// them (the boxes overlap by 0.01 here); the position is halfway down.
TEST(Collision, BoxBoxFaceContactsCarryHalfTheDepth) {
  std::ostringstream xml;
  const Model model = load_model_from_string(
      "<mujoco><worldbody><geom type='box' size='1 1 0.1'/><body pos='0 0 0.29'><freejoint/>"
      "<geom type='box' size='0.2 0.2 0.2'/></body></worldbody></mujoco>");
  Data data(model);
  kinematics(model, data);
  collide(model, data);
  ASSERT_EQ(data.contacts.size(), 4u);
  for (const Contact& c : data.contacts) {
    EXPECT_NEAR(c.dist, -0.005, 1e-12);
    EXPECT_NEAR(c.frame(0, 2), 1, 1e-12);
    EXPECT_NEAR(c.pos[2], 0.095, 1e-12);
  }
}

// Two boxes deep in each other (one of 3.3.8's comparison poses): clipping
// the incident edge against the reference face also gives a point off both
// boxes (more than 1 % outside one, not inside the other), which is dropped
// as MuJoCo 3.3.8 drops it; the deepest point stays.
TEST(Collision, BoxBoxDropsContactsOffBothBoxes) {
  using collision::GeomShape;
  GeomShape a, b;
  a.type = b.type = GeomType::kBox;
  a.size = b.size = Vector3d(0.12, 0.09, 0.07);
  a.pos = Vector3d::Zero();
  a.mat = Quaterniond(-0.3490171152184161, 0.7385203037232047, -0.31867215871712384,
                      -0.4808563917967284)
              .normalized()
              .toRotationMatrix();
  b.pos = Vector3d(-0.0792096565579776, -0.08548682249416796, -0.02071974696808363);
  b.mat =
      Quaterniond(0.5951001435134543, -0.6080796269333131, -0.2418949590891489, 0.4664566595796095)
          .normalized()
          .toRotationMatrix();
  collision::RawContact out[collision::kMaxPairContacts];
  const int n = collision::box_box(a, b, 0, out);
  ASSERT_EQ(n, 1);
  EXPECT_NEAR(out[0].dist, -0.0697985, 1e-6);
  // How far p is beyond the box grown by 1 % (> 0: outside it).
  const auto beyond = [](const GeomShape& box, const Vector3d& p) {
    return ((box.mat.transpose() * (p - box.pos)).cwiseAbs() - box.size * 1.01).maxCoeff();
  };
  // The dropped point (2.2.2 keeps it): outside b, and not inside a (on
  // its surface, within 1 % of a's size).
  const Vector3d dropped(-0.0936502, 0.0408607, 0.0315365);
  EXPECT_GT(beyond(b, dropped), 0.01);
  EXPECT_NEAR(beyond(a, dropped), -0.0007, 1e-4);
  EXPECT_LT(beyond(a, out[0].pos), 0);
  EXPECT_LT(beyond(b, out[0].pos), 0);
}

// Equal boxes face to face: the shared corners are found twice (incident
// edges ending on the reference face's sides) and kept once, as MuJoCo 2.2.2
// does (measured: 4 contacts aligned, 4 shifted along x, 9 once turned by
// 1e-8 degrees about z, where the edges cross near each corner).
TEST(Collision, AlignedEqualBoxesMakeFourDistinctCorners) {
  const char* box = "<geom type='box' size='0.1 0.1 0.1'/>";
  for (const Vector3d& pos : {Vector3d(0, 0, 0.199), Vector3d(0.05, 0, 0.199),
                              Vector3d(0, 0.199, 0), Vector3d(0.05, 0.03, 0.199)}) {
    const Model model =
        load_model_from_string(std::string("<mujoco><worldbody>") + box + "<body><freejoint/>" +
                               box + "</body></worldbody></mujoco>");
    Data data(model);
    for (int k = 0; k < 3; ++k) data.qpos[k] = pos[k];
    kinematics(model, data);
    collide(model, data);
    ASSERT_EQ(data.contacts.size(), 4u) << pos.transpose();
    for (size_t i = 0; i < 4; ++i) {
      for (size_t j = i + 1; j < 4; ++j) {
        EXPECT_GT((data.contacts[i].pos - data.contacts[j].pos).norm(), 0.01);
      }
    }
  }
  const Quaterniond turned(Eigen::AngleAxisd(1e-8 * M_PI / 180, Vector3d::UnitZ()));
  EXPECT_EQ(count_contacts(box, box, Vector3d(0, 0, 0.199), turned), 9);
}

// Capsules whose axes cross exactly: the nearest points coincide and the
// normal is z1 x z2 (here x cross y = z), not an arbitrary axis.
TEST(Collision, CrossingCapsulesTakeTheCrossProductNormal) {
  const Model model = load_model_from_string(
      "<mujoco><worldbody><geom type='capsule' size='0.05 0.3' euler='0 90 0'/>"
      "<body><freejoint/><geom type='capsule' size='0.05 0.3' euler='-90 0 0'/></body>"
      "</worldbody></mujoco>");
  Data data(model);
  kinematics(model, data);
  collide(model, data);
  ASSERT_EQ(data.contacts.size(), 1u);
  const Contact& c = data.contacts[0];
  const Vector3d z1 = data.geom_xmat[c.geom1].col(2), z2 = data.geom_xmat[c.geom2].col(2);
  EXPECT_NEAR((Vector3d(c.frame.row(0)) - z1.cross(z2).normalized()).norm(), 0, 1e-12);
  EXPECT_NEAR(c.dist, -0.1, 1e-12);
}

// A flat height field (4 x 4 cells of 0.5 m; one raised corner keeps the
// elevations from normalising away) holds a sphere like a floor. The
// sphere's cap below z = 0 (4.4 cm across at 1 cm deep) lies inside one
// triangle, so one prism touches it: one contact, the sphere's depth to MPR's
// tolerance (1e-6), at a point between the two surfaces (MPR's point mixes the
// portal's support points), with an upward normal: MPR stops once a support
// gains less than 1e-6 along the normal, which on a 0.1 m sphere leaves the
// normal up to sqrt(2e-6 / 0.1) = 4.5e-3 rad off vertical (z >= 1 - 1e-5).
TEST(Collision, FlatHeightFieldActsAsAFloor) {
  const std::string xml =
      "<mujoco><asset><hfield name='f' nrow='5' ncol='5' size='1 1 0.4 0.1' elevation='"
      "0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 0 0 0 1'/></asset>"
      "<worldbody><geom type='hfield' hfield='f'/>"
      "<body><freejoint/><geom type='sphere' size='0.1'/></body></worldbody></mujoco>";
  const Model model = load_model_from_string(xml);
  Data data(model);
  for (double depth : {0.01, -0.02}) {
    const Vector3d centre(-0.35, -0.15, 0.1 - depth);
    for (int k = 0; k < 3; ++k) data.qpos[k] = centre[k];
    kinematics(model, data);
    collide(model, data);
    if (depth < 0) {
      EXPECT_EQ(data.contacts.size(), 0u) << "a sphere 2 cm above the field";
      continue;
    }
    ASSERT_EQ(data.contacts.size(), 1u);
    for (const Contact& c : data.contacts) {
      EXPECT_NEAR(c.dist, -depth, 1e-6);
      EXPECT_GE(c.frame(0, 2), 1 - 1e-5);
      EXPECT_GE(c.pos[2], -depth);
      EXPECT_LE(c.pos[2], 0);
      EXPECT_NEAR(c.pos[0], -0.35, 1e-3);
      EXPECT_EQ(c.geom1, 0);
    }
  }
  EXPECT_EQ(collision::pair_function(GeomType::kHfield, GeomType::kPlane), nullptr);
  EXPECT_EQ(collision::pair_function(GeomType::kHfield, GeomType::kHfield), nullptr);
  EXPECT_NE(collision::pair_function(GeomType::kMesh, GeomType::kHfield), nullptr);
}

TEST(Collision, FiltersAndParameters) {
  const Model model = load_model_from_string(R"(
    <mujoco><worldbody>
      <geom name='floor' type='plane' size='5 5 1' friction='0.5 0.01 0.001' priority='1'/>
      <body name='a' pos='0 0 0.09'><freejoint/>
        <geom name='ga' type='sphere' size='0.1' friction='2 0.1 0.01'/>
        <body name='child' pos='0 0 0.1'><joint type='hinge'/>
          <geom name='gc' type='sphere' size='0.1'/></body></body>
      <body name='b' pos='0.15 0 0.09'><freejoint/>
        <geom name='gb' type='sphere' size='0.1' contype='2' conaffinity='2'/></body>
      <body name='c' pos='-0.15 0 0.09'><freejoint/>
        <geom name='gx' type='sphere' size='0.1'/></body>
    </worldbody>
    <contact><exclude body1='a' body2='c'/></contact></mujoco>)");
  Data data(model);
  kinematics(model, data);
  collide(model, data);
  // floor-ga (priority: floor's friction), floor-gx; gb has no matching bits
  // with the floor (contype 2 vs conaffinity 1) nor ga; a-child is the
  // parent filter; a-c is excluded; gc-gx: separate bodies, within reach.
  int floor_contacts = 0;
  for (const Contact& c : data.contacts) {
    EXPECT_NE(c.geom2, model.id(ObjectType::kGeom, "gb"));
    if (c.geom1 == 0) {
      ++floor_contacts;
      EXPECT_DOUBLE_EQ(c.friction[0], 0.5);
      EXPECT_DOUBLE_EQ(c.friction[2], 0.01);
    }
  }
  EXPECT_EQ(floor_contacts, 2);
}

// 1000 free boxes in a pile: the broadphase keeps the pair count linear.
TEST(Collision, ThousandBoxesAreNotQuadratic) {
  std::ostringstream xml;
  xml << "<mujoco><worldbody><geom type='plane' size='50 50 1'/>";
  for (int i = 0; i < 1000; ++i) {
    xml << "<body pos='" << 0.21 * (i % 10) << " " << 0.21 * ((i / 10) % 10) << " "
        << 0.1 + 0.199 * (i / 100) << "'><freejoint/><geom type='box' size='0.1 0.1 0.1'/></body>";
  }
  xml << "</worldbody></mujoco>";
  const Model model = load_model_from_string(xml.str());
  Data data(model);
  kinematics(model, data);
  collide(model, data);
  EXPECT_LT(workspace(data).collision.body_pairs.size(), 20000u);
  EXPECT_GE(data.contacts.size(), 400u);
}

// The broadphase finds exactly the body pairs whose boxes overlap, against
// every pair checked: spheres of mixed sizes (a few tiny, one large) spread
// over a wide flat region, where the grid's cells across the second axis
// matter; through a cube, where both of its axes do (and boxes reach up to
// four cells); all of them in one cluster, where one cell holds
// everything; and 20 bodies, few enough to be compared pair by pair
// without the grid.
TEST(Collision, BroadphaseFindsEveryOverlappingPair) {
  std::mt19937 random(7);
  const std::pair<Vector3d, int> scenes[] = {{Vector3d(40, 8, 0.4), 300},
                                             {Vector3d(4, 4, 4), 300},
                                             {Vector3d(0.5, 0.1, 0.005), 300},
                                             {Vector3d(1.5, 1, 0.5), 20}};
  for (const auto& [spread, bodies] : scenes) {
    std::uniform_real_distribution<double> position(-1, 1), size(0.05, 0.6);
    std::ostringstream xml;
    xml << "<mujoco><worldbody>";
    for (int i = 0; i < bodies; ++i) {
      const double r = i == 0 ? 1.5 : i % 50 == 1 ? 0.001 : size(random);
      xml << "<body pos='" << spread[0] * position(random) << " " << spread[1] * position(random)
          << " " << spread[2] * position(random) << "' euler='" << 90 * position(random) << " "
          << 90 * position(random) << " 0'><freejoint/>"
          << (i % 3 ? "<geom size='" : "<geom type='box' size='0.1 0.4 ") << r << "'/></body>";
    }
    xml << "</worldbody></mujoco>";
    const Model model = load_model_from_string(xml.str());
    Data data(model);
    kinematics(model, data);
    collide(model, data);
    std::vector<uint64_t> expected;
    for (int g1 = 0; g1 < model.geoms.count(); ++g1) {
      for (int g2 = g1 + 1; g2 < model.geoms.count(); ++g2) {
        const Vector3d r1 =
            collision::geom_half_extents(model, data, g1).array() + model.geoms.margin[g1];
        const Vector3d r2 =
            collision::geom_half_extents(model, data, g2).array() + model.geoms.margin[g2];
        const Vector3d& c1 = data.geom_xpos[g1];
        const Vector3d& c2 = data.geom_xpos[g2];
        bool overlap = true;
        for (int k = 0; k < 3; ++k) {
          overlap = overlap && !(c2[k] - r2[k] > c1[k] + r1[k]) && !(c1[k] - r1[k] > c2[k] + r2[k]);
        }
        if (overlap) {
          expected.push_back(
              collision::body_pair_signature(model.geoms.body[g1], model.geoms.body[g2]));
        }
      }
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_GT(expected.size(), bodies / 6u) << "spread " << spread.transpose();
    EXPECT_LT(expected.size(), bodies * (bodies - 1) / 2u) << "spread " << spread.transpose();
    EXPECT_EQ(workspace(data).collision.body_pairs, expected) << "spread " << spread.transpose();
  }
}

// The broadphase box of each primitive holds every point of its surface and
// is tight: some surface point reaches each face within 1% (points sampled
// on the surface; a box's corners exactly).
TEST(Collision, GeomBoxesHoldTheirGeomsTightly) {
  std::mt19937 random(11);
  std::normal_distribution<double> normal;
  const auto unit = [&] {
    Vector3d u(normal(random), normal(random), normal(random));
    return Vector3d(u.normalized());
  };
  const std::string geoms[] = {
      "<geom type='sphere' size='0.3'/>",         "<geom type='capsule' size='0.1 0.4'/>",
      "<geom type='cylinder' size='0.25 0.05'/>", "<geom type='ellipsoid' size='0.5 0.1 0.2'/>",
      "<geom type='box' size='0.5 0.05 0.2'/>",
  };
  for (const std::string& geom : geoms) {
    const Model model = load_model_from_string("<mujoco><worldbody><body><freejoint/>" + geom +
                                               "</body></worldbody></mujoco>");
    Data data(model);
    const Vector3d size = model.geoms.size[0];
    for (int pose = 0; pose < 20; ++pose) {
      const Quaterniond q(Eigen::AngleAxisd(3.0 * pose, unit()));
      data.qpos.segment<4>(3) << q.w(), q.x(), q.y(), q.z();
      kinematics(model, data);
      const Vector3d half = collision::geom_half_extents(model, data, 0);
      const Matrix3d& r = data.geom_xmat[0];
      Vector3d reach(0, 0, 0);
      for (int i = 0; i < 20000; ++i) {
        Vector3d local;
        switch (model.geoms.type[0]) {
          case GeomType::kSphere:
            local = size[0] * unit();
            break;
          case GeomType::kCapsule:
            local = size[0] * unit() + Vector3d(0, 0, i % 2 ? size[1] : -size[1]);
            break;
          case GeomType::kCylinder: {
            const Vector3d u = unit();
            local = Vector3d(u[0], u[1], 0).normalized() * size[0];
            local[2] = i % 2 ? size[1] : -size[1];
            break;
          }
          case GeomType::kEllipsoid:
            local = size.cwiseProduct(unit());
            break;
          default:
            local = Vector3d(i & 1 ? size[0] : -size[0], i & 2 ? size[1] : -size[1],
                             i & 4 ? size[2] : -size[2]);
            break;
        }
        reach = reach.cwiseMax((r * local).cwiseAbs());
      }
      for (int k = 0; k < 3; ++k) {
        EXPECT_LE(reach[k], half[k] * (1 + 1e-12)) << geom << " pose " << pose << " axis " << k;
        EXPECT_GE(reach[k], half[k] * 0.99) << geom << " pose " << pose << " axis " << k;
      }
    }
  }
}

// Pairs with a mesh are dropped early when the geoms' boxes are apart by
// more than the margin. That may only drop pairs without contacts: over
// random poses of a lopsided mesh (its hull's box off its frame's origin)
// near every other geom type, collide() makes contacts for a pair exactly
// when the unfiltered narrow phase (geom_distance) finds the pair within
// the margin.
// Puts the free body of qpos[0..7) within `spread` of `centre` along each
// axis, turned at random.
void place_at_random(Data& data, const Vector3d& centre, double spread, std::mt19937& random) {
  std::uniform_real_distribution<double> unit(-1, 1);
  for (int k = 0; k < 3; ++k) data.qpos[k] = centre[k] + spread * unit(random);
  Quaterniond q(unit(random), unit(random), unit(random), unit(random));
  q.normalize();
  data.qpos.segment<4>(3) << q.w(), q.x(), q.y(), q.z();
}

TEST(Collision, MeshBoxTestDropsOnlyPairsWithoutContacts) {
  const Model model = load_model_from_string(R"(
    <mujoco>
      <asset>
        <mesh name="wedge" vertex="0 0 0  0.3 0 0  0 0.12 0  0 0 0.05  0.02 0.01 0.2"/>
      </asset>
      <worldbody>
        <geom name="floor" type="plane" size="0 0 1" pos="0 0 -0.25" euler="8 -5 0"/>
        <geom type="sphere" size="0.1" pos="0.5 0 0"/>
        <geom type="capsule" size="0.05 0.15" pos="0 0.5 0" euler="40 10 0"/>
        <geom type="box" size="0.1 0.05 0.08" pos="-0.5 0 0" euler="0 30 60"/>
        <geom type="cylinder" size="0.08 0.1" pos="0 -0.5 0" euler="70 0 20"/>
        <geom type="ellipsoid" size="0.12 0.06 0.09" pos="0.4 0.4 0"/>
        <geom type="mesh" mesh="wedge" pos="-0.4 -0.4 0" euler="20 50 10"/>
        <body name="probe">
          <freejoint/>
          <geom type="mesh" mesh="wedge" margin="0.01"/>
        </body>
      </worldbody>
    </mujoco>)");
  Data data(model);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  const int probe = model.geoms.count() - 1;
  int touching = 0, apart = 0;
  for (int pose = 0; pose < 400; ++pose) {
    // Near one of the world geoms (or the floor), turned at random.
    const int near = pose % (probe);
    const Vector3d centre =
        near == 0 ? Vector3d(unit(random), unit(random), -0.2) : Vector3d(model.geoms.pos[near]);
    place_at_random(data, centre, 0.22, random);
    kinematics(model, data);
    collide(model, data);
    for (int g = 0; g < probe; ++g) {
      bool contact = false;
      for (const Contact& c : data.contacts) {
        contact =
            contact || (c.geom1 == g && c.geom2 == probe) || (c.geom1 == probe && c.geom2 == g);
      }
      const double distance = geom_distance(model, data, g, probe, 0.01);
      EXPECT_EQ(contact, distance < 0.01)
          << "pose " << pose << " geom " << g << " distance " << distance;
      (contact ? touching : apart) += 1;
    }
  }
  EXPECT_GT(touching, 100);
  EXPECT_GT(apart, 1000);
}

// The world and a static body with a floor pair with every body; each of
// their bounded geoms is first compared with the other body's box. Probes of
// two geoms with margins, near every such geom (the static body's id is
// above the probe's, so its geoms are the second of their pairs): a probe
// geom and a world geom make contacts exactly when they are within the
// pair's margin.
TEST(Collision, GlobalGeomBoxTestDropsOnlyPairsWithoutContacts) {
  const Model model = load_model_from_string(R"(
    <mujoco>
      <worldbody>
        <geom type="plane" size="0 0 1" pos="0 0 -0.6"/>
        <geom type="sphere" size="0.1" pos="0.5 0 0"/>
        <geom type="capsule" size="0.05 0.4" pos="0 0.5 0" euler="40 10 0"/>
        <geom type="box" size="0.1 0.05 0.08" pos="-0.5 0 0" euler="0 30 60" margin="0.01"/>
        <geom type="cylinder" size="0.08 0.1" pos="0 -0.5 0" euler="70 0 20"/>
        <geom type="ellipsoid" size="0.12 0.06 0.09" pos="0.4 0.4 0"/>
        <body name="probe" pos="0 0 0">
          <freejoint/>
          <geom type="capsule" size="0.04 0.08" margin="0.02"/>
          <geom type="box" size="0.05 0.03 0.02" pos="0.1 0 0" margin="0.005"/>
        </body>
        <body name="step" pos="0 0 0">
          <geom type="plane" size="1 1 1" pos="0 0 -0.7"/>
          <geom type="box" size="0.2 0.2 0.05" pos="-0.4 0.4 0"/>
        </body>
      </worldbody>
    </mujoco>)");
  Data data(model);
  std::mt19937 random(11);
  const int probe = model.bodies.geom_adr[1];
  std::vector<int> targets;
  for (int g = 0; g < model.geoms.count(); ++g) {
    if (model.geoms.body[g] != 1 && model.geoms.type[g] != GeomType::kPlane) targets.push_back(g);
  }
  ASSERT_EQ(targets.size(), 6u);
  int touching = 0, apart = 0;
  for (int pose = 0; pose < 600; ++pose) {
    const Vector3d centre = model.geoms.pos[targets[pose % targets.size()]];
    place_at_random(data, centre, 0.3, random);
    kinematics(model, data);
    collide(model, data);
    for (const int g : targets) {
      for (const int p : {probe, probe + 1}) {
        bool contact = false;
        for (const Contact& c : data.contacts) {
          contact = contact || (c.geom1 == g && c.geom2 == p) || (c.geom1 == p && c.geom2 == g);
        }
        const double margin = std::max(model.geoms.margin[g], model.geoms.margin[p]);
        const double distance = geom_distance(model, data, g, p, margin);
        EXPECT_EQ(contact, distance < margin)
            << "pose " << pose << " geom " << g << " probe " << p << " distance " << distance;
        (contact ? touching : apart) += 1;
      }
    }
  }
  EXPECT_GT(touching, 200);
  EXPECT_GT(apart, 3000);
}

// Random shapes and poses, including degenerate ones (coincident centres,
// parallel and crossing axes, zero-thickness and huge or tiny sizes): every
// contact is finite with a unit normal.
TEST(Collision, FuzzNoNanNoInfUnitNormals) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kPairs = 10000;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  constexpr int kPairs = 10000;
#else
  constexpr int kPairs = 100000;
#endif
#else
  constexpr int kPairs = 100000;
#endif
  using namespace collision;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::normal_distribution<double> normal(0, 1);
  // A small convex mesh hull for mesh geoms.
  const Model mesh_model = load_model_from_string(
      "<mujoco><asset><mesh name='m' vertex='1 0 0  -1 0.5 0  0 1 0.2  0 -1 0.3  0.2 0.3 1  "
      "-0.3 0.1 -1'/></asset><worldbody><geom type='mesh' mesh='m'/></worldbody></mujoco>");
  const Meshes& me = mesh_model.meshes;
  HullView hull{me.hull_vertices.data(), me.hull_vert_count[0], me.hull_neighbour_adr.data(),
                me.hull_neighbour_count.data(), me.hull_neighbours.data()};
  const GeomType types[] = {GeomType::kPlane,     GeomType::kSphere,   GeomType::kCapsule,
                            GeomType::kEllipsoid, GeomType::kCylinder, GeomType::kBox,
                            GeomType::kMesh};
  auto random_rotation = [&](bool aligned) {
    if (aligned) return Matrix3d(Matrix3d::Identity());
    Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
    return Matrix3d(q.normalized().toRotationMatrix());
  };
  auto random_size = [&]() {
    const double u = uniform(rng);
    if (u < 0.05) return 0.0;    // zero thickness
    if (u < 0.1) return 1e-9;    // tiny
    if (u < 0.15) return 1e6;    // huge
    return 0.05 + uniform(rng);  // ordinary
  };
  RawContact out[kMaxPairContacts];
  int produced = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int trial = 0; trial < kPairs; ++trial) {
    GeomShape a, b;
    a.type = types[rng() % 7];
    b.type = types[1 + rng() % 6];
    if (a.type > b.type) std::swap(a, b);
    for (GeomShape* g : {&a, &b}) {
      g->size = Vector3d(random_size(), random_size(), random_size());
      if (g->type == GeomType::kMesh) {
        g->hull = hull;
        g->size = Vector3d(1, 1, 1);
      }
    }
    const int mode = static_cast<int>(rng() % 4);
    // 0: random; 1: coincident centres; 2: aligned axes; 3: offset along one axis.
    a.mat = random_rotation(mode == 2);
    b.mat = mode == 2 ? a.mat : random_rotation(false);
    a.pos = Vector3d(normal(rng), normal(rng), normal(rng)) * 0.3;
    b.pos =
        mode == 1 ? a.pos : Vector3d(a.pos + Vector3d(normal(rng), normal(rng), normal(rng)) * 0.5);
    if (mode == 3) b.pos = a.pos + a.mat.col(rng() % 3) * uniform(rng);
    const PairFunction fn = pair_function(a.type, b.type);
    if (fn == nullptr) continue;
    const double margin = uniform(rng) < 0.5 ? 0.0 : 0.1 * uniform(rng);
    const int count = fn(a, b, margin, out);
    ASSERT_GE(count, 0);
    ASSERT_LE(count, kMaxPairContacts);
    for (int k = 0; k < count; ++k) {
      ++produced;
      std::ostringstream info;
      info << "trial " << trial << " types " << int(a.type) << " " << int(b.type) << " sizes "
           << a.size.transpose() << " | " << b.size.transpose() << " mode " << mode;
      ASSERT_TRUE(std::isfinite(out[k].dist)) << info.str();
      ASSERT_TRUE(out[k].pos.allFinite()) << info.str();
      ASSERT_TRUE(out[k].normal.allFinite()) << info.str();
      ASSERT_NEAR(out[k].normal.norm(), 1, 1e-9) << info.str();
      ASSERT_LE(out[k].dist, margin + 1e-9 * (1 + a.size.maxCoeff() + b.size.maxCoeff()))
          << info.str();
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << kPairs << " random pairs, " << produced << " contacts, " << seconds << " s\n";
  EXPECT_GT(produced, kPairs / 10);
}

// A Robotiq pad (box) pressing on a held cube, face to face, 17 um deep,
// the cube turned by 2.5e-7 rad: an edge of the pad and one of the cube are
// then nearly parallel, and their cross product is a separating axis whose
// overlap ties the face's to 1e-12. Taking that edge-edge axis made two
// contacts 22.6 mm deep (the pad's far corners) and threw the cube out of
// the grasp (Scenario.robotiq_grasp, after a change of the Hessian's
// round-off). Nearly parallel edges are left to the faces: every contact
// carries half the faces' overlap, as face contacts do.
TEST(Collision, NearlyParallelBoxEdgesLeaveTheFaceContact) {
  using collision::GeomShape;
  using collision::kMaxPairContacts;
  using collision::RawContact;
  GeomShape pad, cube;
  pad.type = cube.type = GeomType::kBox;
  pad.size = Vector3d(0.010999999999999999, 0.0040000000000000001, 0.0093749999999999997);
  pad.pos = Vector3d(-0.019067902554590219, 4.2355008389449726e-18, 0.14475870574411528);
  pad.mat << -2.2204460492503131e-16, -0.99995903712193757, 0.0090511920854631795,
      1.0000000000000002, -2.2204460492503131e-16, 0, 0, 0.0090511920854631795, 0.99995903712193734;
  cube.size = Vector3d::Constant(0.014999999999999999);
  cube.pos = Vector3d(1.9434527430893933e-11, 6.8416884331758055e-08, 0.16132251658694105);
  cube.mat << 1, -8.0336908119258438e-16, 2.3069657470828126e-09, 2.1908359523080857e-16,
      0.99999999999996791, 2.5327011755618242e-07, -2.3069657470829424e-09, -2.5327011755618242e-07,
      0.99999999999996791;
  RawContact out[kMaxPairContacts];
  const int n = collision::box_box(pad, cube, 0, out);
  ASSERT_GT(n, 0);
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(out[k].dist, -0.5 * 1.6789e-5, 1e-8) << "contact " << k;
    EXPECT_NEAR(std::abs(out[k].normal[0]), 1, 1e-4) << "contact " << k;
  }
}
}  // namespace
}  // namespace pliant
