// Jacobians of points, frames and centres of mass (pliant/jacobian.h): they
// map qvel to the velocities the kinematics give, their time derivative is
// the Jacobian's change along the motion, and bad ids change nothing.
// tests/reference3/compare_jacobians.py compares them with MuJoCo 3.3.8.

#include "pliant/jacobian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pliant/forward.h"
#include "pliant/integrate_position.h"
#include "pliant/load.h"

namespace pliant {
namespace {

// The humanoid at a moved, moving state.
struct Moving {
  Model m = load_model(PLIANT_TEST_MODELS "/dm_control/humanoid.xml");
  Data d{m};
  Moving() {
    for (int i = 0; i < m.nv; ++i) d.qvel[i] = 0.3 * std::sin(1.7 * i + 0.2);
    integrate_position(m, d.qpos.data(), d.qvel.data(), 1.0);
    forward(m, d);
  }
  // Data at qpos + h qvel, forwarded.
  Data moved(double h) const {
    Data out = d;
    integrate_position(m, out.qpos.data(), d.qvel.data(), h);
    forward(m, out);
    return out;
  }
};

Vector3d times_qvel(const std::vector<double>& jac, const Data& d) {
  const int nv = static_cast<int>(d.qvel.size());
  Vector3d out = Vector3d::Zero();
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < nv; ++k) out[r] += jac[r * nv + k] * d.qvel[k];
  }
  return out;
}

TEST(Jacobian, MapsQvelToTheVelocitiesOfSitesAndBodies) {
  const Moving s;
  const Model& m = s.m;
  const double h = 1e-6;
  const Data ahead = s.moved(h), behind = s.moved(-h);
  std::vector<double> jacp(3 * m.nv), jacr(3 * m.nv);
  for (int site = 0; site < m.sites.count(); ++site) {
    jacobian_site(m, s.d, jacp.data(), jacr.data(), site);
    const Vector3d numeric = (ahead.site_xpos[site] - behind.site_xpos[site]) / (2 * h);
    EXPECT_LT((times_qvel(jacp, s.d) - numeric).norm(), 1e-7) << "site " << site;
  }
  for (int b = 1; b < m.body_count(); ++b) {
    jacobian_body_com(m, s.d, jacp.data(), jacr.data(), b);
    const Vector3d numeric = (ahead.xipos[b] - behind.xipos[b]) / (2 * h);
    EXPECT_LT((times_qvel(jacp, s.d) - numeric).norm(), 1e-7) << "body " << b;
    // The body's angular velocity is cvel's angular part.
    EXPECT_LT((times_qvel(jacr, s.d) - s.d.cvel[b].head<3>()).norm(), 1e-12) << "body " << b;
    jacobian_subtree_com(m, s.d, jacp.data(), b);
    const Vector3d subtree = (ahead.subtree_com[b] - behind.subtree_com[b]) / (2 * h);
    EXPECT_LT((times_qvel(jacp, s.d) - subtree).norm(), 1e-7) << "subtree " << b;
  }
}

TEST(Jacobian, TimeDerivativeIsTheChangeAlongTheMotion) {
  const Moving s;
  const Model& m = s.m;
  const double h = 1e-6;
  const Data ahead = s.moved(h), behind = s.moved(-h);
  std::vector<double> dp(3 * m.nv), dr(3 * m.nv), pa(3 * m.nv), ra(3 * m.nv), pb(3 * m.nv),
      rb(3 * m.nv);
  for (int b = 1; b < m.body_count(); ++b) {
    jacobian_dot(m, s.d, dp.data(), dr.data(), s.d.xpos[b], b);
    jacobian_body(m, ahead, pa.data(), ra.data(), b);
    jacobian_body(m, behind, pb.data(), rb.data(), b);
    for (int i = 0; i < 3 * m.nv; ++i) {
      EXPECT_NEAR(dp[i], (pa[i] - pb[i]) / (2 * h), 1e-6) << "body " << b << " entry " << i;
      EXPECT_NEAR(dr[i], (ra[i] - rb[i]) / (2 * h), 1e-6) << "body " << b << " entry " << i;
    }
  }
}

TEST(Jacobian, SparseFormHoldsTheChainsColumns) {
  const Moving s;
  const Model& m = s.m;
  std::vector<double> jacp(3 * m.nv), jacr(3 * m.nv);
  for (int b = 0; b < m.body_count(); ++b) {
    const std::vector<int> chain = body_chain(m, b);
    const int n = static_cast<int>(chain.size());
    std::vector<double> sp(3 * n), sr(3 * n);
    jacobian_sparse(m, s.d, sp.data(), sr.data(), s.d.xipos[b], b, chain);
    jacobian(m, s.d, jacp.data(), jacr.data(), s.d.xipos[b], b);
    int nonzero_columns = 0;
    for (int k = 0; k < m.nv; ++k) {
      bool any = false;
      for (int r = 0; r < 3; ++r) any = any || jacr[r * m.nv + k] != 0 || jacp[r * m.nv + k] != 0;
      nonzero_columns += any;
    }
    EXPECT_LE(nonzero_columns, n);
    for (int i = 0; i < n; ++i) {
      for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(sp[r * n + i], jacp[r * m.nv + chain[i]]);
        EXPECT_EQ(sr[r * n + i], jacr[r * m.nv + chain[i]]);
      }
    }
  }
  EXPECT_TRUE(body_chain(m, 0).empty());
  EXPECT_EQ(body_chain(m, m.body_count() - 1).front(), 0);  // the free root's first dof
}

TEST(Jacobian, BadIdsThrowAndWriteNothing) {
  const Moving s;
  std::vector<double> jacp(3 * s.m.nv, 7.0);
  EXPECT_THROW(jacobian_site(s.m, s.d, jacp.data(), nullptr, s.m.sites.count()), std::out_of_range);
  EXPECT_THROW(jacobian_body(s.m, s.d, jacp.data(), nullptr, -1), std::out_of_range);
  EXPECT_THROW(jacobian_geom(s.m, s.d, jacp.data(), nullptr, 1 << 20), std::out_of_range);
  for (double v : jacp) EXPECT_EQ(v, 7.0);
  std::vector<int> wrong_chain = {0, 1};
  std::vector<double> out(6);
  EXPECT_THROW(jacobian_sparse(s.m, s.d, out.data(), nullptr, Vector3d::Zero(), 2, wrong_chain),
               std::invalid_argument);
}

}  // namespace
}  // namespace pliant
