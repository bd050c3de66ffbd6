#include "pliant/jacobian.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/kinematics.h"
#include "engine/point_motion.h"
#include "engine/spatial.h"

namespace pliant {
namespace {

void check_id(int id, int count, const char* kind) {
  if (id < 0 || id >= count) {
    throw std::out_of_range(std::string("pliant: ") + kind + " " + std::to_string(id) +
                            " does not exist; the model has " + std::to_string(count));
  }
}

// Writes column `k` of a row-major 3 x n matrix.
void put_column(double* out, int n, int k, const Vector3d& v) {
  if (out == nullptr) return;
  for (int r = 0; r < 3; ++r) out[r * n + k] = v[r];
}

void clear(double* out, int n) {
  if (out != nullptr) std::fill(out, out + 3 * n, 0.0);
}

// The time derivative of dof k's axis cdof[k]. cdof_dot is that for hinges
// and slides, which turn with what is above their joint; the rotation axes of
// a ball or free joint are fixed in its own body, so they turn with the
// body's whole velocity, its own rotation included.
Vector6d axis_derivative(const Model& m, const Data& d, int k) {
  const int joint = m.dofs.joint[k];
  const JointType type = m.joints.type[joint];
  const bool turns_with_body =
      type == JointType::kBall || (type == JointType::kFree && k - m.joints.dof_adr[joint] >= 3);
  return turns_with_body ? cross_motion(d.cvel[m.dofs.body[k]], d.cdof[k]) : d.cdof_dot[k];
}

// Column k of the point Jacobians: the rotation axis of dof k, and the
// velocity it gives the point at `offset` from the tree's centre of mass.
void put_axis(const Data& d, int k, const Vector3d& offset, double* jacp, double* jacr, int n,
              int column) {
  const Vector3d w = angular(d.cdof[k]);
  put_column(jacr, n, column, w);
  put_column(jacp, n, column, linear(d.cdof[k]) + w.cross(offset));
}

// Checks the body, clears the outputs and gives the point's offset from the
// centre of mass of the body's tree (the origin of its cdof).
Vector3d begin(const Model& m, const Data& d, double* jacp, double* jacr, const Vector3d& point,
               int body) {
  check_id(body, m.body_count(), "body");
  clear(jacp, m.nv);
  clear(jacr, m.nv);
  return point - d.subtree_com[m.bodies.root[body]];
}

}  // namespace

void jacobian(const Model& m, const Data& d, double* jacp, double* jacr, const Vector3d& point,
              int body) {
  const Vector3d offset = begin(m, d, jacp, jacr, point, body);
  for (int k = last_dof_of_chain(m, body); k >= 0; k = m.dofs.parent[k]) {
    put_axis(d, k, offset, jacp, jacr, m.nv, k);
  }
}

void jacobian_body(const Model& m, const Data& d, double* jacp, double* jacr, int body) {
  check_id(body, m.body_count(), "body");
  jacobian(m, d, jacp, jacr, d.xpos[body], body);
}

void jacobian_body_com(const Model& m, const Data& d, double* jacp, double* jacr, int body) {
  check_id(body, m.body_count(), "body");
  jacobian(m, d, jacp, jacr, d.xipos[body], body);
}

void jacobian_subtree_com(const Model& m, const Data& d, double* jacp, int body) {
  check_id(body, m.body_count(), "body");
  clear(jacp, m.nv);
  if (jacp == nullptr) return;
  std::vector<double> part(3 * m.nv);
  // Bodies are numbered depth first: the subtree of `body` is the run of
  // bodies after it whose chain of parents reaches it.
  for (int b = body; b < m.body_count(); ++b) {
    int up = b;
    while (up > body) up = m.bodies.parent[up];
    if (up != body) {
      if (b > body) break;
      continue;
    }
    jacobian(m, d, part.data(), nullptr, d.xipos[b], b);
    const double mass = m.bodies.mass[b];
    for (int i = 0; i < 3 * m.nv; ++i) jacp[i] += mass * part[i];
  }
  const double total = m.bodies.subtree_mass[body];
  if (total > 0) {
    for (int i = 0; i < 3 * m.nv; ++i) jacp[i] /= total;
  }
}

void jacobian_geom(const Model& m, const Data& d, double* jacp, double* jacr, int geom) {
  check_id(geom, m.geoms.count(), "geom");
  jacobian(m, d, jacp, jacr, d.geom_xpos[geom], m.geoms.body[geom]);
}

void jacobian_site(const Model& m, const Data& d, double* jacp, double* jacr, int site) {
  check_id(site, m.sites.count(), "site");
  jacobian(m, d, jacp, jacr, d.site_xpos[site], m.sites.body[site]);
}

void jacobian_dot(const Model& m, const Data& d, double* jacp, double* jacr, const Vector3d& point,
                  int body) {
  const Vector3d offset = begin(m, d, jacp, jacr, point, body);
  // The point's own velocity, as it moves with the body.
  const Vector3d velocity = point_velocity(m, d, point, body);
  for (int k = last_dof_of_chain(m, body); k >= 0; k = m.dofs.parent[k]) {
    const Vector6d axis_dot = axis_derivative(m, d, k);
    const Vector3d w_dot = angular(axis_dot);
    put_column(jacr, m.nv, k, w_dot);
    put_column(jacp, m.nv, k,
               linear(axis_dot) + w_dot.cross(offset) + angular(d.cdof[k]).cross(velocity));
  }
}

Vector3d point_velocity(const Model& m, const Data& d, const Vector3d& point, int body) {
  const Vector3d offset = point - d.subtree_com[m.bodies.root[body]];
  return linear(d.cvel[body]) + angular(d.cvel[body]).cross(offset);
}

// The sum over jacobian_dot's columns, each times its qvel.
Vector3d point_velocity_product(const Model& m, const Data& d, const Vector3d& point, int body) {
  const Vector3d offset = point - d.subtree_com[m.bodies.root[body]];
  const Vector3d velocity = point_velocity(m, d, point, body);
  Vector3d sum = Vector3d::Zero();
  for (int k = last_dof_of_chain(m, body); k >= 0; k = m.dofs.parent[k]) {
    const Vector6d axis_dot = axis_derivative(m, d, k);
    const Vector3d w_dot = angular(axis_dot);
    sum +=
        d.qvel[k] * (linear(axis_dot) + w_dot.cross(offset) + angular(d.cdof[k]).cross(velocity));
  }
  return sum;
}

std::vector<int> body_chain(const Model& m, int body) {
  check_id(body, m.body_count(), "body");
  std::vector<int> chain;
  for (int k = last_dof_of_chain(m, body); k >= 0; k = m.dofs.parent[k]) chain.push_back(k);
  return {chain.rbegin(), chain.rend()};
}

void jacobian_sparse(const Model& m, const Data& d, double* jacp, double* jacr,
                     const Vector3d& point, int body, const std::vector<int>& chain) {
  check_id(body, m.body_count(), "body");
  if (chain != body_chain(m, body)) {
    throw std::invalid_argument("pliant: jacobian_sparse needs body_chain(model, " +
                                std::to_string(body) + ") as its chain");
  }
  const int n = static_cast<int>(chain.size());
  const Vector3d offset = point - d.subtree_com[m.bodies.root[body]];
  for (int i = 0; i < n; ++i) put_axis(d, chain[i], offset, jacp, jacr, n, i);
}

}  // namespace pliant
