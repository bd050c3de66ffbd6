#include "engine/fluid.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <unsupported/Eigen/AutoDiff>

#include "engine/kinematics.h"
#include "engine/spatial.h"
#include "model/fluid_shape.h"
#include "model/numeric_limits.h"

namespace pliant {
namespace {

constexpr double kPi = std::numbers::pi;

bool has_medium(const Model& m) {
  const OptionFlags& flags = m.options.flags;
  return (flags.spring || flags.damper) && (m.options.density > 0 || m.options.viscosity > 0);
}

// A body with an ellipsoid-model geom leaves the inertia-box model.
bool uses_ellipsoids(const Model& m, int body) {
  const int first = m.bodies.geom_adr[body];
  for (int g = first; g >= 0 && g < first + m.bodies.geom_count[body]; ++g) {
    if (m.geoms.fluid[g][0] > 0) return true;
  }
  return false;
}

// The motion of a point p fixed to body i per unit qvel_k, in frame R:
// G_k = [R^T axis_k; R^T (linear_k + axis_k x (p - subtree_com[root]))],
// so that the frame's (angular; linear) velocity is sum_k G_k qvel_k and a
// wrench (torque; force) in that frame maps to qfrc_k = G_k . wrench.
struct PointFrame {
  const Matrix3d* rot;
  Vector3d offset;
  Vector6d motion(const Data& d, int k) const {
    const Vector3d axis = angular(d.cdof[k]);
    Vector6d g;
    g << rot->transpose() * axis, rot->transpose() * (linear(d.cdof[k]) + axis.cross(offset));
    return g;
  }
};

PointFrame point_frame(const Model& m, const Data& d, int body, const Vector3d& point,
                       const Matrix3d& rot) {
  return {&rot, point - d.subtree_com[m.bodies.root[body]]};
}

// The frame's velocity (angular; linear) relative to the wind, in the frame.
Vector6d frame_velocity(const Model& m, const Data& d, int body, const PointFrame& f) {
  const Vector3d w = angular(d.cvel[body]);
  const Vector3d v = linear(d.cvel[body]) + w.cross(f.offset) - m.options.wind;
  Vector6d out;
  out << f.rot->transpose() * w, f.rot->transpose() * v;
  return out;
}

void apply_wrench(const Model& m, Data& d, int body, const PointFrame& f, const Vector6d& wrench) {
  for (int k = last_dof_of_chain(m, body); k >= 0; k = m.dofs.parent[k]) {
    d.qfrc_fluid[k] += f.motion(d, k).dot(wrench);
  }
}

// qderiv += G^T B G over the body's chain, B the 6 x 6 derivative of the
// frame wrench by the frame velocity.
void add_projected(const Model& m, const Data& d, int body, const PointFrame& f,
                   const Eigen::Matrix<double, 6, 6>& b, Eigen::MatrixXd& qderiv) {
  for (int k1 = last_dof_of_chain(m, body); k1 >= 0; k1 = m.dofs.parent[k1]) {
    const Eigen::Matrix<double, 1, 6> row = f.motion(d, k1).transpose() * b;
    for (int k2 = last_dof_of_chain(m, body); k2 >= 0; k2 = m.dofs.parent[k2]) {
      qderiv(k1, k2) += row.dot(f.motion(d, k2));
    }
  }
}

// ---- The inertia-box model (MuJoCo docs, "Fluid forces", inertia model).
// Each body is the box with its mass and principal inertia: side
// s_x = sqrt(6 (I_y + I_z - I_x) / m), and so on, in the body's inertial
// frame, at its centre of mass. Per inertial axis a (b, c the other two):
//   viscous (viscosity beta), d = (s_x + s_y + s_z) / 3:
//     torque = -pi d^3 beta w,  force = -3 pi d beta v;
//   quadratic drag (density rho):
//     force_a -= 0.5 rho s_b s_c |v_a| v_a,
//     torque_a -= rho s_a (s_b^4 + s_c^4) / 64 |w_a| w_a.
// Each local component depends on its own velocity component only, so the
// derivative is diagonal: -(linear + 2 quadratic |w_a|), and so on.
struct InertiaBox {
  double linear_torque = 0, linear_force = 0;
  Vector3d quadratic_torque{0, 0, 0}, quadratic_force{0, 0, 0};
};

bool inertia_box(const Model& m, int i, InertiaBox& c) {
  const double mass = m.bodies.mass[i];
  if (mass < kMinValue) return false;
  const Vector3d& I = m.bodies.inertia[i];
  const Vector3d box(std::sqrt(std::max(kMinValue, I[1] + I[2] - I[0]) / mass * 6),
                     std::sqrt(std::max(kMinValue, I[0] + I[2] - I[1]) / mass * 6),
                     std::sqrt(std::max(kMinValue, I[0] + I[1] - I[2]) / mass * 6));
  const double beta = m.options.viscosity, rho = m.options.density;
  if (beta > 0) {
    const double diameter = (box[0] + box[1] + box[2]) / 3;
    c.linear_torque = kPi * diameter * diameter * diameter * beta;
    c.linear_force = 3 * kPi * diameter * beta;
  }
  if (rho > 0) {
    for (int a = 0; a < 3; ++a) {
      const double sb = box[(a + 1) % 3], sc = box[(a + 2) % 3];
      c.quadratic_force[a] = 0.5 * rho * sb * sc;
      c.quadratic_torque[a] = rho * box[a] * (std::pow(sb, 4) + std::pow(sc, 4)) / 64;
    }
  }
  return true;
}

// ---- The ellipsoid model (MuJoCo docs, "Fluid forces", ellipsoid model).
// In the geom's frame, at its centre, with w and v its angular and linear
// velocity relative to the wind, r the equivalent ellipsoid's semi-axes,
// V its volume, r_D = (r_x + r_y + r_z) / 3, rho the density and beta the
// viscosity:
//   added mass      f += (rho m_A o v) x w,
//                   g += (rho m_A o v) x v + (rho I_A o w) x w
//                   (the acceleration terms -m_A o v' are left out);
//   Magnus lift     f += C_M rho V w x v;
//   Kutta lift      f += C_K rho A (v^.n^) (n^ x v) x v, with n the normal
//                   of the cross-section that projects to A, n_i = v_i r_x
//                   r_y r_z / r_i^2, and A = pi r_x r_y r_z sqrt(sum v_i^2 /
//                   r_i^4 / sum v_i^2 / r_i^2) the projected area;
//   linear drag     f -= (6 pi r_D beta + rho |v| (C_blunt A +
//                   C_slender (A_max - A))) v, A_max = pi r_max r_mid, the
//                   largest projected area (the docs' 4 pi r_max r_min is
//                   not what 3.3.8 computes: measured);
//   angular drag    g -= (8 pi r_D^3 beta + rho |I_w o w|) w, with
//                   I_w,i = C_angular I_D,i + C_slender (I_max - I_D,i),
//                   I_D,i = 8 pi / 15 r_i max(r_j, r_k)^4, I_max its largest;
// all scaled by the interaction coefficient geom_fluid[0].
struct Ellipsoid {
  Vector3d r;
  double interaction, blunt, slender, angular, kutta, magnus;
  Vector3d virtual_mass, virtual_inertia;
};

Ellipsoid ellipsoid(const Model& m, int g) {
  const GeomFluid& f = m.geoms.fluid[g];
  return {fluid_semi_axes(m.geoms.type[g], m.geoms.size[g]),
          f[0],
          f[1],
          f[2],
          f[3],
          f[4],
          f[5],
          f.segment<3>(6),
          f.segment<3>(9)};
}

inline double value_of(double x) { return x; }
template <class D>
double value_of(const Eigen::AutoDiffScalar<D>& x) {
  return x.value();
}

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
using Derivative = Eigen::AutoDiffScalar<Vector6d>;

// The area the ellipsoid projects on the plane normal to v:
// A = pi sqrt(N / D), N = sum (r_j r_k)^4 v_i^2, D = sum (r_j r_k)^2 v_i^2.
template <class S>
S projected_area(const Vector3d& r, const Vec3<S>& v) {
  using std::sqrt;
  S n = S(0), d = S(0);
  for (int a = 0; a < 3; ++a) {
    const double rr = r[(a + 1) % 3] * r[(a + 2) % 3];
    n += (rr * rr * rr * rr) * v[a] * v[a];
    d += (rr * rr) * v[a] * v[a];
  }
  return kPi * sqrt(n / d);
}

// The same area as the drag terms differentiate it. Its derivative,
// dA/dv_i = pi/2 (N_i D - N D_i) / (D^2 sqrt(N / D)), has that denominator
// floored at 1e-15 as MuJoCo 3.3.8 floors it in the implicit integrators'
// derivative of the drag (measured: below the floor, which small geoms
// reach, its drag derivative's area part scales with D^2 sqrt(N / D)). The
// force itself, and the Kutta lift's derivative, use the exact area.
double drag_area(const Vector3d& r, const Vec3<double>& v) { return projected_area(r, v); }

Derivative drag_area(const Vector3d& r, const Vec3<Derivative>& v) {
  double n = 0, d = 0;
  Vector3d n_weight, d_weight;
  for (int a = 0; a < 3; ++a) {
    const double rr = r[(a + 1) % 3] * r[(a + 2) % 3], va = v[a].value();
    d_weight[a] = rr * rr;
    n_weight[a] = d_weight[a] * d_weight[a];
    n += n_weight[a] * va * va;
    d += d_weight[a] * va * va;
  }
  const double ratio = std::sqrt(n / d);
  const double denominator = std::max(1e-15, d * d * ratio);
  Derivative area(kPi * ratio, Vector6d::Zero());
  for (int a = 0; a < 3; ++a) {
    const double va = v[a].value();
    const double slope = kPi * (n_weight[a] * d - n * d_weight[a]) * va / denominator;
    area.derivatives() += slope * v[a].derivatives();
  }
  return area;
}

// The frame wrench (torque; force) of velocity (w; v); S is double or a
// forward-mode derivative.
template <class S>
void ellipsoid_wrench(const Ellipsoid& e, double rho, double beta, const Vec3<S>& w,
                      const Vec3<S>& v, Vec3<S>& torque, Vec3<S>& force) {
  using std::sqrt;
  const Vector3d& r = e.r;
  const double product = r[0] * r[1] * r[2];
  const double volume = 4.0 / 3.0 * kPi * product;
  const double r_d = (r[0] + r[1] + r[2]) / 3;
  torque.setZero();
  force.setZero();
  if (!(product > 0)) return;  // a flat or empty ellipsoid: no cross-section to act on

  if (rho > 0) {
    Vec3<S> momentum, spin;
    for (int a = 0; a < 3; ++a) {
      momentum[a] = rho * e.virtual_mass[a] * v[a];
      spin[a] = rho * e.virtual_inertia[a] * w[a];
    }
    force += momentum.cross(w);
    torque += momentum.cross(v) + spin.cross(w);
    force += (e.magnus * rho * volume) * w.cross(v);
  }

  S drag = S(6 * kPi * r_d * beta);
  if (value_of(v.squaredNorm()) > 0 && rho > 0) {
    const S speed = sqrt(v.squaredNorm());
    const S area = projected_area(r, v), area_drag = drag_area(r, v);
    // The largest projected area: the ellipse of the two largest semi-axes.
    Vector3d sorted = r;
    std::sort(sorted.data(), sorted.data() + 3);
    const double area_max = kPi * sorted[2] * sorted[1];
    drag += rho * speed * (e.blunt * area_drag + e.slender * (area_max - area_drag));
    Vec3<S> normal;
    for (int a = 0; a < 3; ++a) normal[a] = v[a] * (product / (r[a] * r[a]));
    normal /= sqrt(normal.squaredNorm());
    const S cosine = v.dot(normal) / speed;
    force += (e.kutta * rho) * area * cosine * normal.cross(v).cross(v);
  }
  force -= drag * v;

  Vector3d inertia;
  for (int a = 0; a < 3; ++a) {
    const double reach = std::max(r[(a + 1) % 3], r[(a + 2) % 3]);
    inertia[a] = 8.0 / 15.0 * kPi * r[a] * std::pow(reach, 4);
  }
  const double inertia_max = inertia.maxCoeff();
  Vec3<S> resisted;
  for (int a = 0; a < 3; ++a) {
    resisted[a] = (e.angular * inertia[a] + e.slender * (inertia_max - inertia[a])) * w[a];
  }
  S spin_drag = S(8 * kPi * r_d * r_d * r_d * beta);
  if (value_of(resisted.squaredNorm()) > 0 && rho > 0) {
    spin_drag += rho * sqrt(resisted.squaredNorm());
  }
  torque -= spin_drag * w;

  torque *= e.interaction;
  force *= e.interaction;
}

// The 6 x 6 derivative of the frame wrench by the frame velocity, exact
// (forward-mode: each operation carries its six partial derivatives).
Eigen::Matrix<double, 6, 6> ellipsoid_derivative(const Ellipsoid& e, double rho, double beta,
                                                 const Vector6d& velocity) {
  Vec3<Derivative> w, v, torque, force;
  for (int a = 0; a < 3; ++a) {
    w[a] = Derivative(velocity[a], 6, a);
    v[a] = Derivative(velocity[3 + a], 6, 3 + a);
  }
  ellipsoid_wrench(e, rho, beta, w, v, torque, force);
  Eigen::Matrix<double, 6, 6> b;
  for (int a = 0; a < 3; ++a) {
    b.row(a) = torque[a].derivatives().transpose();
    b.row(3 + a) = force[a].derivatives().transpose();
  }
  return b;
}

// Walks the frames fluid forces act in: each ellipsoid-model geom of a body
// that has one, on_ellipsoid(body, geom, frame, velocity), and every other
// body with mass, on_box(body, box, frame, velocity), with the frame's
// velocity relative to the wind. The forces and their derivative share it.
template <class OnEllipsoid, class OnBox>
void for_each_fluid_frame(const Model& m, const Data& d, OnEllipsoid on_ellipsoid, OnBox on_box) {
  for (int i = 1; i < m.body_count(); ++i) {
    if (uses_ellipsoids(m, i)) {
      const int first = m.bodies.geom_adr[i];
      for (int g = first; g < first + m.bodies.geom_count[i]; ++g) {
        if (!(m.geoms.fluid[g][0] > 0)) continue;
        const PointFrame frame = point_frame(m, d, i, d.geom_xpos[g], d.geom_xmat[g]);
        on_ellipsoid(i, g, frame, frame_velocity(m, d, i, frame));
      }
      continue;
    }
    InertiaBox box;
    if (!inertia_box(m, i, box)) continue;
    const PointFrame frame = point_frame(m, d, i, d.xipos[i], d.ximat[i]);
    on_box(i, box, frame, frame_velocity(m, d, i, frame));
  }
}

}  // namespace

void fluid_forces(const Model& m, Data& d) {
  d.qfrc_fluid.setZero();
  if (!has_medium(m)) return;
  const double rho = m.options.density, beta = m.options.viscosity;
  for_each_fluid_frame(
      m, d,
      [&](int body, int geom, const PointFrame& frame, const Vector6d& velocity) {
        Vector3d torque, force;
        ellipsoid_wrench<double>(ellipsoid(m, geom), rho, beta, velocity.head<3>(),
                                 velocity.tail<3>(), torque, force);
        Vector6d wrench;
        wrench << torque, force;
        apply_wrench(m, d, body, frame, wrench);
      },
      [&](int body, const InertiaBox& c, const PointFrame& frame, const Vector6d& velocity) {
        Vector6d wrench;
        for (int a = 0; a < 3; ++a) {
          const double w = velocity[a], v = velocity[3 + a];
          wrench[a] = -(c.linear_torque + c.quadratic_torque[a] * std::abs(w)) * w;
          wrench[3 + a] = -(c.linear_force + c.quadratic_force[a] * std::abs(v)) * v;
        }
        apply_wrench(m, d, body, frame, wrench);
      });
}

void add_fluid_velocity_derivative(const Model& m, const Data& d, bool symmetric,
                                   Eigen::MatrixXd& qderiv) {
  if (!has_medium(m)) return;
  const double rho = m.options.density, beta = m.options.viscosity;
  for_each_fluid_frame(
      m, d,
      [&](int body, int geom, const PointFrame& frame, const Vector6d& velocity) {
        Eigen::Matrix<double, 6, 6> b =
            ellipsoid_derivative(ellipsoid(m, geom), rho, beta, velocity);
        if (symmetric) b = 0.5 * (b + b.transpose()).eval();
        add_projected(m, d, body, frame, b, qderiv);
      },
      [&](int body, const InertiaBox& c, const PointFrame& frame, const Vector6d& velocity) {
        Eigen::Matrix<double, 6, 6> b = Eigen::Matrix<double, 6, 6>::Zero();
        for (int a = 0; a < 3; ++a) {
          b(a, a) = -(c.linear_torque + 2 * c.quadratic_torque[a] * std::abs(velocity[a]));
          b(3 + a, 3 + a) =
              -(c.linear_force + 2 * c.quadratic_force[a] * std::abs(velocity[3 + a]));
        }
        add_projected(m, d, body, frame, b, qderiv);
      });
}

}  // namespace pliant
