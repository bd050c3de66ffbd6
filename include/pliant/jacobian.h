#pragma once

// Jacobians of points and frames, as MuJoCo's mj_jac* functions. Each maps
// qvel to a velocity in the world frame: jacp (3 x nv, row-major, as MuJoCo
// lays it out) to the linear velocity of a point attached to a body (m/s
// per unit qvel), jacr (3 x nv) to the body's angular velocity (rad/s per
// unit qvel). Either output may be null. They read the position stage
// (forward_position, or forward), and jacobian_dot the velocity stage too.
// A body, geom or site id out of range throws std::out_of_range and writes
// nothing.
//
//   std::vector<double> jacp(3 * model.nv);
//   pliant::forward(model, data);
//   pliant::jacobian_site(model, data, jacp.data(), nullptr, site);
//   // the site's velocity: jacp * qvel

#include <vector>

#include "pliant/data.h"

namespace pliant {

// A world point (m) attached to `body` (mj_jac).
void jacobian(const Model& model, const Data& data, double* jacp, double* jacr,
              const Vector3d& point, int body);
// The body frame's origin (mj_jacBody).
void jacobian_body(const Model& model, const Data& data, double* jacp, double* jacr, int body);
// The body's centre of mass (mj_jacBodyCom).
void jacobian_body_com(const Model& model, const Data& data, double* jacp, double* jacr, int body);
// The centre of mass of the body's subtree (mj_jacSubtreeCom): the mass
// average of its bodies' centre-of-mass Jacobians. Translation only.
void jacobian_subtree_com(const Model& model, const Data& data, double* jacp, int body);
// A geom's or a site's centre (mj_jacGeom, mj_jacSite).
void jacobian_geom(const Model& model, const Data& data, double* jacp, double* jacr, int geom);
void jacobian_site(const Model& model, const Data& data, double* jacp, double* jacr, int site);

// Time derivative of jacobian()'s jacp and jacr at the current qvel
// (mj_jacDot): d/dt of (a_k + w_k x (p - c)) for each dof axis (w_k; a_k)
// that moves the body, with the point moving with the body.
void jacobian_dot(const Model& model, const Data& data, double* jacp, double* jacr,
                  const Vector3d& point, int body);

// The dofs that move `body`, ascending (mj_bodyChain): the columns a
// sparse Jacobian of the body stores. Empty for a body welded to the world.
std::vector<int> body_chain(const Model& model, int body);
// jacobian() with only the columns of `chain` (body_chain's): jacp and jacr
// are 3 x chain.size(), row-major (mj_jacSparse).
void jacobian_sparse(const Model& model, const Data& data, double* jacp, double* jacr,
                     const Vector3d& point, int body, const std::vector<int>& chain);

}  // namespace pliant
