// GJK and EPA (engine/collision/gjk_epa.cpp) against answers known in closed
// form: the separating-axis depth of two boxes, the analytic sphere-box
// contact, two round ellipsoids (spheres) overlapping, and geom distances
// of boxes and spheres apart.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <random>

#include "engine/collision/pair.h"

namespace pliant::collision {
namespace {

Matrix3d random_rotation(std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0, 1);
  Eigen::Quaterniond q(normal(rng), normal(rng), normal(rng), normal(rng));
  return q.normalized().toRotationMatrix();
}

GeomShape shape(GeomType type, const Vector3d& size, const Vector3d& pos, const Matrix3d& mat) {
  GeomShape g;
  g.type = type;
  g.size = size;
  g.pos = pos;
  g.mat = mat;
  g.rbound = size.norm();
  return g;
}

// A box of half-sizes in [0.1, largest], turned at random, its centre in the
// cube [-spread, spread]^3.
GeomShape random_box(std::mt19937_64& rng, double largest, double spread) {
  std::uniform_real_distribution<double> side(0.1, largest), uniform(-spread, spread);
  Vector3d size, pos;
  for (int k = 0; k < 3; ++k) size[k] = side(rng);
  for (int k = 0; k < 3; ++k) pos[k] = spread > 0 ? uniform(rng) : 0.0;
  return shape(GeomType::kBox, size, pos, random_rotation(rng));
}

// Overlap of two boxes along unit axis n: positive while they overlap.
double overlap_along(const GeomShape& a, const GeomShape& b, const Vector3d& n) {
  double ra = 0, rb = 0;
  for (int k = 0; k < 3; ++k) {
    ra += a.size[k] * std::abs(a.mat.col(k).dot(n));
    rb += b.size[k] * std::abs(b.mat.col(k).dot(n));
  }
  return ra + rb - std::abs((b.pos - a.pos).dot(n));
}

// The smallest overlap of two boxes over their 15 separating axes (negative:
// apart by at least that much), and that axis, from a to b.
double separating_axis_depth(const GeomShape& a, const GeomShape& b, Vector3d* axis) {
  std::vector<Vector3d> axes;
  for (int i = 0; i < 3; ++i) {
    axes.push_back(a.mat.col(i));
    axes.push_back(b.mat.col(i));
    for (int j = 0; j < 3; ++j) {
      const Vector3d c = a.mat.col(i).cross(b.mat.col(j));
      if (c.norm() > 1e-6) axes.push_back(c.normalized());
    }
  }
  double depth = INFINITY;
  for (const Vector3d& n : axes) {
    const double o = overlap_along(a, b, n);
    if (o < depth) {
      depth = o;
      *axis = (b.pos - a.pos).dot(n) >= 0 ? n : Vector3d(-n);
    }
  }
  return depth;
}

// Two convex polytopes: EPA runs to the exact face, so the depth is the
// smallest overlap over the 15 separating axes of two boxes, and the normal
// is that axis (from a to b).
TEST(GjkEpa, BoxesFindTheSeparatingAxisDepth) {
  std::mt19937_64 rng(3);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const GeomShape a = random_box(rng, 0.5, 0);
    const GeomShape b = random_box(rng, 0.5, 0.6);
    Vector3d axis;
    const double depth = separating_axis_depth(a, b, &axis);
    RawContact c;
    const int count = ccd_penetration(a, a.pos, 0, b, b.pos, 0, &c);
    if (depth <= 0) {
      EXPECT_EQ(count, 0) << "trial " << trial << ": separated by " << -depth;
      continue;
    }
    ASSERT_EQ(count, 1) << "trial " << trial << ": overlap " << depth;
    EXPECT_NEAR(c.dist, -depth, 1e-9) << "trial " << trial;
    EXPECT_NEAR(c.normal.dot(axis), 1, 1e-9) << "trial " << trial;
    ++checked;
  }
  EXPECT_GT(checked, 100);
}

// A sphere meets a box as its centre point, the radius added after: the
// analytic sphere-box contact to round-off, and none beyond the radius.
TEST(GjkEpa, SphereCoreGivesTheAnalyticContact) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(-1, 1);
  int checked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const GeomShape box =
        shape(GeomType::kBox, Vector3d(0.3, 0.2, 0.1), Vector3d::Zero(), random_rotation(rng));
    const GeomShape ball =
        shape(GeomType::kSphere, Vector3d(0.15, 0, 0),
              0.5 * Vector3d(uniform(rng), uniform(rng), uniform(rng)), Matrix3d::Identity());
    // The centre outside the box (the shallow case, where the cores apart
    // decide); sphere_box is the reference.
    const Vector3d local = box.mat.transpose() * ball.pos;
    if ((local.cwiseAbs() - box.size).maxCoeff() <= 1e-3) continue;
    RawContact expected, got;
    const int want = sphere_box(ball, box, 0, &expected);
    const int have = ccd_penetration(ball, ball.pos, 0, box, box.pos, 0, &got);
    ASSERT_EQ(have, want) << "trial " << trial;
    if (want == 0) continue;
    EXPECT_NEAR(got.dist, expected.dist, 1e-12) << "trial " << trial;
    EXPECT_LT((got.pos - expected.pos).norm(), 1e-12) << "trial " << trial;
    EXPECT_LT((got.normal - expected.normal).norm(), 1e-9) << "trial " << trial;
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

// Two ellipsoids with equal semi-axes are spheres: the depth r1 + r2 - d
// along the centre line, found by EPA on curved shapes within ccd_tolerance
// (1e-6) when it may take enough steps (170; at the default 50 a deep
// overlap of two spheres stops up to 7.7e-6 short, a lower bound).
TEST(GjkEpa, RoundEllipsoidsOverlapByTheirRadii) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-1, 1), gap(0.02, 0.12);
  for (int trial = 0; trial < 50; ++trial) {
    GeomShape a = shape(GeomType::kEllipsoid, Vector3d(0.1, 0.1, 0.1), Vector3d::Zero(),
                        random_rotation(rng));
    a.mpr_iterations = 170;
    Vector3d direction(uniform(rng), uniform(rng), uniform(rng));
    direction.normalize();
    const double depth = gap(rng);
    const GeomShape b = shape(GeomType::kEllipsoid, Vector3d(0.12, 0.12, 0.12),
                              (0.22 - depth) * direction, random_rotation(rng));
    RawContact c;
    ASSERT_EQ(ccd_penetration(a, a.pos, 0, b, b.pos, 0, &c), 1) << "trial " << trial;
    EXPECT_LE(c.dist, -depth + 1e-6) << "trial " << trial;
    EXPECT_GE(c.dist, -depth - 1e-12) << "trial " << trial;  // a lower bound of the depth
    EXPECT_GT(c.normal.dot(direction), 0.99) << "trial " << trial;
  }
}

// Inflation (half the margin on each shape): boxes 0.02 apart meet within a
// margin of 0.05, at dist = gap - margin from the inflated shapes.
TEST(GjkEpa, InflationReachesAcrossAGap) {
  const GeomShape a =
      shape(GeomType::kBox, Vector3d(0.2, 0.2, 0.2), Vector3d::Zero(), Matrix3d::Identity());
  const Matrix3d turned = Eigen::AngleAxisd(0.3, Vector3d::UnitZ()).toRotationMatrix();
  const GeomShape b = shape(GeomType::kMesh, Vector3d::Zero(), Vector3d(0, 0, 0.42), turned);
  // A mesh hull: a unit cube of half-size 0.2.
  std::vector<Vector3d> corners;
  for (int k = 0; k < 8; ++k) {
    corners.emplace_back(k & 1 ? 0.2 : -0.2, k & 2 ? 0.2 : -0.2, k & 4 ? 0.2 : -0.2);
  }
  GeomShape mesh = b;
  mesh.hull.vertices = corners.data();
  mesh.hull.vertex_count = 8;
  RawContact c;
  ASSERT_EQ(ccd_penetration(a, a.pos, 0.025, mesh, mesh.pos, 0.025, &c), 1);
  EXPECT_NEAR(c.dist, -(0.05 - 0.02), 1e-6);
  EXPECT_NEAR(c.normal.z(), 1, 1e-6);
  EXPECT_EQ(ccd_penetration(a, a.pos, 0.005, mesh, mesh.pos, 0.005, &c), 0);
}

// Geom distances (ccd_distance): two boxes apart are at least their largest
// separating-axis gap apart, with witness points on each box exactly that
// distance apart; overlapping boxes report minus the separating-axis depth.
TEST(GjkEpa, DistanceOfBoxesIsTheGapOrMinusTheDepth) {
  std::mt19937_64 rng(11);
  int apart = 0, overlapping = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const GeomShape a = random_box(rng, 0.4, 0);
    const GeomShape b = random_box(rng, 0.4, 0.9);
    Vector3d axis;
    const double depth = separating_axis_depth(a, b, &axis);
    double dist;
    Vector3d pa, pb;
    const bool found = ccd_distance(a, b, 10, &dist, &pa, &pb);
    ASSERT_TRUE(found) << "trial " << trial;
    if (depth > 0) {
      EXPECT_NEAR(dist, -depth, 1e-9) << "trial " << trial;
      ++overlapping;
      continue;
    }
    EXPECT_GE(dist, -depth - 1e-9) << "trial " << trial;
    EXPECT_NEAR((pb - pa).norm(), dist, 1e-9) << "trial " << trial;
    for (const auto& [g, p] : {std::pair{&a, pa}, std::pair{&b, pb}}) {
      const Vector3d local = g->mat.transpose() * (p - g->pos);
      EXPECT_LE((local.cwiseAbs() - g->size).maxCoeff(), 1e-9) << "trial " << trial;
    }
    ++apart;
  }
  EXPECT_GT(apart, 100);
  EXPECT_GT(overlapping, 50);
  double dist;
  Vector3d pa, pb;
  const GeomShape a =
      shape(GeomType::kBox, Vector3d(0.1, 0.1, 0.1), Vector3d::Zero(), Matrix3d::Identity());
  const GeomShape far =
      shape(GeomType::kBox, Vector3d(0.1, 0.1, 0.1), Vector3d(0.5, 0, 0), Matrix3d::Identity());
  EXPECT_FALSE(ccd_distance(a, far, 0.25, &dist, &pa, &pb));  // 0.3 apart, beyond the cutoff
  ASSERT_TRUE(ccd_distance(a, far, 0.35, &dist, &pa, &pb));
  EXPECT_NEAR(dist, 0.3, 1e-12);
}

// Boxes face to face, touching or within ccd_tolerance of it: GJK's own
// distance (EPA has no polytope to grow from a simplex on the origin).
TEST(GjkEpa, DistanceOfTouchingBoxesIsTheirGap) {
  const GeomShape a =
      shape(GeomType::kBox, Vector3d(0.1, 0.1, 0.1), Vector3d::Zero(), Matrix3d::Identity());
  for (const double gap : {0.0, 1e-9, 5e-7, 2e-6}) {
    const GeomShape b = shape(GeomType::kBox, Vector3d(0.1, 0.1, 0.1), Vector3d(0, 0, 0.2 + gap),
                              Matrix3d::Identity());
    double dist;
    Vector3d pa, pb;
    ASSERT_TRUE(ccd_distance(a, b, 0.1, &dist, &pa, &pb)) << "gap " << gap;
    EXPECT_NEAR(dist, gap, 1e-12) << "gap " << gap;
    EXPECT_NEAR(pa.z(), 0.1, 1e-12) << "gap " << gap;
    EXPECT_NEAR(pb.z(), 0.1 + gap, 1e-12) << "gap " << gap;
  }
}

// Round ellipsoids (spheres) apart: the distance between the surfaces along
// the centre line, the witness points on each surface.
TEST(GjkEpa, DistanceOfRoundEllipsoidsIsAlongTheCentreLine) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> uniform(-1, 1), gap(0.001, 0.3);
  for (int trial = 0; trial < 50; ++trial) {
    const GeomShape a = shape(GeomType::kEllipsoid, Vector3d(0.1, 0.1, 0.1), Vector3d::Zero(),
                              random_rotation(rng));
    Vector3d direction(uniform(rng), uniform(rng), uniform(rng));
    direction.normalize();
    const double g = gap(rng);
    const GeomShape b = shape(GeomType::kEllipsoid, Vector3d(0.12, 0.12, 0.12),
                              (0.22 + g) * direction, random_rotation(rng));
    double dist;
    Vector3d pa, pb;
    ASSERT_TRUE(ccd_distance(a, b, 1, &dist, &pa, &pb)) << "trial " << trial;
    EXPECT_NEAR(dist, g, 1e-9) << "trial " << trial;
    EXPECT_LT((pa - 0.1 * direction).norm(), 1e-4) << "trial " << trial;
    EXPECT_LT((pb - b.pos + 0.12 * direction).norm(), 1e-4) << "trial " << trial;
  }
}

}  // namespace
}  // namespace pliant::collision
