// Multi-contact collision (<flag multiccd>): mesh polygons as compiled, the
// contacts clipped from touching faces and edges, and the turned-geom rule
// for the other pairs. Agreement with MuJoCo 3.3.8 to the bit is checked by
// MuJoCo3.PairContacts.multiccd_* (tests/reference3).

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/collision/collision.h"
#include "engine/kinematics.h"
#include "pliant/load.h"

namespace pliant {
namespace {

const char* kCube =
    "<mesh name='cube' vertex='-.1 -.1 -.1  .1 -.1 -.1  .1 .1 -.1  -.1 .1 -.1  "
    "-.1 -.1 .1  .1 -.1 .1  .1 .1 .1  -.1 .1 .1'/>";

// A hexagonal prism of 12 vertices: two hexagons and six rectangles.
std::string hexagonal_prism() {
  std::string v;
  for (const double z : {-0.04, 0.04}) {
    for (int k = 0; k < 6; ++k) {
      const double a = M_PI / 3 * k;
      v += std::to_string(0.09 * std::cos(a)) + " " + std::to_string(0.09 * std::sin(a)) + " " +
           std::to_string(z) + "  ";
    }
  }
  return "<mesh name='prism' vertex='" + v + "'/>";
}

// Contacts of a free body holding `geom`, at `pos` turned by `quat`, on a
// box floor whose top is z = 0.
std::vector<Contact> on_floor(const std::string& asset, const std::string& geom,
                              const Vector3d& pos, const Quaterniond& quat, bool multiccd) {
  const std::string xml = std::string("<mujoco><option><flag multiccd='") +
                          (multiccd ? "enable" : "disable") + "'/></option><asset>" + asset +
                          "</asset><worldbody><geom type='box' size='1 1 .1' pos='0 0 -.1'/>"
                          "<body><freejoint/>" +
                          geom + "</body></worldbody></mujoco>";
  const Model model = load_model_from_string(xml);
  Data data(model);
  data.qpos.head<3>() = pos;
  data.qpos[3] = quat.w(), data.qpos[4] = quat.x(), data.qpos[5] = quat.y(),
  data.qpos[6] = quat.z();
  kinematics(model, data);
  collide(model, data);
  return data.contacts;
}

TEST(MeshPolygons, CubeHasSixSquares) {
  const Model m = load_model_from_string(std::string("<mujoco><asset>") + kCube +
                                         "</asset><worldbody><geom type='mesh' mesh='cube'/>"
                                         "</worldbody></mujoco>");
  const Meshes& me = m.meshes;
  ASSERT_EQ(me.poly_num.size(), 1u);
  EXPECT_EQ(me.poly_num[0], 6);
  for (int p = 0; p < 6; ++p) {
    EXPECT_EQ(me.poly_vert_num[p], 4);
    // Each corner lies on the polygon's plane, on the outward side's face.
    const Vector3d& n = me.poly_normal[p];
    EXPECT_NEAR(n.norm(), 1, 1e-15);
    for (int k = 0; k < 4; ++k) {
      const Vector3d& v = me.vertices[me.poly_vert[me.poly_vert_adr[p] + k]];
      EXPECT_NEAR(v.dot(n), 0.1, 1e-7);
    }
  }
  // Every corner of a cube is on three sides.
  for (int v = 0; v < 8; ++v) EXPECT_EQ(me.polymap_num[v], 3);
}

TEST(MeshPolygons, PrismMergesItsHexagons) {
  const Model m = load_model_from_string("<mujoco><asset>" + hexagonal_prism() +
                                         "</asset><worldbody><geom type='mesh' mesh='prism'/>"
                                         "</worldbody></mujoco>");
  const Meshes& me = m.meshes;
  ASSERT_EQ(me.poly_num[0], 8);
  int hexagons = 0, rectangles = 0;
  for (int p = 0; p < 8; ++p) {
    hexagons += me.poly_vert_num[p] == 6;
    rectangles += me.poly_vert_num[p] == 4;
  }
  EXPECT_EQ(hexagons, 2);
  EXPECT_EQ(rectangles, 6);
}

TEST(MultiContact, CubeFaceDownGivesItsFourCorners) {
  const Quaterniond yaw(Eigen::AngleAxisd(0.17, Vector3d::UnitZ()));
  const Vector3d pos(0.01, 0.02, 0.098);
  const std::string geom = "<geom type='mesh' mesh='cube'/>";
  EXPECT_EQ(on_floor(kCube, geom, pos, yaw, false).size(), 1u);
  const std::vector<Contact> contacts = on_floor(kCube, geom, pos, yaw, true);
  ASSERT_EQ(contacts.size(), 4u);
  for (const Contact& c : contacts) {
    EXPECT_NEAR(c.dist, -0.002, 1e-8);
    EXPECT_NEAR(c.frame(0, 2), 1, 1e-12);
    // Midway between the corner and the floor; at one of the bottom corners.
    EXPECT_NEAR(c.pos[2], -0.001, 1e-8);
    const Vector3d local = yaw.conjugate() * (c.pos - pos);
    EXPECT_NEAR(std::abs(local[0]), 0.1, 1e-7);
    EXPECT_NEAR(std::abs(local[1]), 0.1, 1e-7);
  }
}

TEST(MultiContact, HexagonIsPrunedToFourCorners) {
  const std::vector<Contact> contacts =
      on_floor(hexagonal_prism(), "<geom type='mesh' mesh='prism'/>", Vector3d(0, 0, 0.039),
               Quaterniond::Identity(), true);
  ASSERT_EQ(contacts.size(), 4u);
  for (const Contact& c : contacts) {
    EXPECT_NEAR(c.dist, -0.001, 1e-7);
    EXPECT_NEAR(c.pos.head<2>().norm(), 0.09, 1e-6);  // a corner of the hexagon
  }
}

TEST(MultiContact, BoxOnItsEdgeGivesTheEdgesEnds) {
  const Quaterniond tilt(Eigen::AngleAxisd(M_PI / 4, Vector3d::UnitX()));
  const double reach = 0.05 * std::sqrt(2.0);
  const std::vector<Contact> contacts =
      on_floor("", "<geom type='box' size='.2 .05 .05' margin='0'/>", Vector3d(0, 0, reach - 0.001),
               tilt, true);
  // A box on a box goes through the box-box function, not GJK: one edge,
  // two contacts, with or without multiccd.
  EXPECT_EQ(contacts.size(), 2u);
  const std::vector<Contact> mesh =
      on_floor(kCube, "<geom type='mesh' mesh='cube'/>",
               Vector3d(0, 0, 0.1 * std::sqrt(2.0) - 0.001), tilt, true);
  ASSERT_EQ(mesh.size(), 2u);
  EXPECT_NEAR(std::abs(mesh[0].pos[0] - mesh[1].pos[0]), 0.2, 1e-6);
}

TEST(MultiContact, CylinderTakesTheTurnedGeomRule) {
  const std::string geom = "<geom type='cylinder' size='.1 .05'/>";
  const Vector3d pos(0, 0, 0.049);
  EXPECT_EQ(on_floor("", geom, pos, Quaterniond::Identity(), false).size(), 1u);
  const std::vector<Contact> contacts = on_floor("", geom, pos, Quaterniond::Identity(), true);
  ASSERT_GT(contacts.size(), 1u);
  ASSERT_LE(contacts.size(), 5u);
  for (size_t i = 0; i < contacts.size(); ++i) {
    EXPECT_EQ(contacts[i].dist, contacts[0].dist);
    for (size_t j = 0; j < i; ++j) {
      EXPECT_GT((contacts[i].pos - contacts[j].pos).norm(), 1e-3 * 0.1);
    }
  }
}

}  // namespace
}  // namespace pliant
