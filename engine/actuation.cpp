#include "engine/actuation.h"

#include <algorithm>
#include <cmath>

#include "engine/dynamics.h"
#include "engine/kinematics.h"
#include "engine/spatial.h"
#include "model/numeric_limits.h"

namespace pliant {
namespace {

Quaterniond quaternion_at(const VectorXd& qpos, int adr) {
  return Quaterniond(qpos[adr], qpos[adr + 1], qpos[adr + 2], qpos[adr + 3]);
}

// Marks dofs [begin, end) of actuator_moment's row as possibly non-zero.
void widen_moment(Data& d, int row, int begin, int end) {
  d.actuator_moment_begin[row] = std::min(d.actuator_moment_begin[row], begin);
  d.actuator_moment_end[row] = std::max(d.actuator_moment_end[row], end);
}

// actuator_moment(row, :) += Jp^T force + Jr^T torque for a world point on
// `body`: column k of Jp is linear(cdof_k) + angular(cdof_k) x (point -
// subtree_com[root]), column k of Jr is angular(cdof_k).
void add_wrench_moment(const Model& m, Data& d, int row, int body, const Vector3d& point,
                       const Vector3d& force, const Vector3d& torque) {
  const Vector3d offset = point - d.subtree_com[m.bodies.root[body]];
  const int last = last_dof_of_chain(m, body);
  for (int k = last; k >= 0; k = m.dofs.parent[k]) {
    const Vector3d w = angular(d.cdof[k]);
    d.actuator_moment(row, k) += force.dot(linear(d.cdof[k]) + w.cross(offset)) + torque.dot(w);
    if (m.dofs.parent[k] < 0) widen_moment(d, row, k, last + 1);
  }
}

// Joint transmissions. Hinge and slide: length = gear[0] q, moment =
// gear[0] at the dof. Ball: length = gear[0:3] . r(q) with r the rotation
// vector of the joint quaternion, moment = gear[0:3] on the three dofs
// (body-frame axes). Free: moment = gear[0:3] on the translational dofs and
// gear[3:6] on the rotational ones; its length is defined as 0 (as MuJoCo
// 2.2.2 does). Joint-in-parent gives the rotational gear in the parent
// frame, so the moment takes it into the child frame first: R(q)^T gear.
void joint_transmission(const Model& m, Data& d, int i, bool in_parent) {
  const Actuators& a = m.actuators;
  const int joint = a.trn_id[i][0];
  const auto& gear = a.gear[i];
  const int qadr = m.joints.qpos_adr[joint], dof = m.joints.dof_adr[joint];
  switch (m.joints.type[joint]) {
    case JointType::kHinge:
    case JointType::kSlide:
      d.actuator_length[i] = gear[0] * d.qpos[qadr];
      d.actuator_moment(i, dof) = gear[0];
      widen_moment(d, i, dof, dof + 1);
      break;
    case JointType::kBall:
    case JointType::kFree: {
      const bool free = m.joints.type[joint] == JointType::kFree;
      const int rot = free ? 3 : 0;  // offset of the rotational part in qpos and dofs
      if (free) {
        for (int k = 0; k < 3; ++k) d.actuator_moment(i, dof + k) = gear[k];
      }
      const Quaterniond q = quaternion_at(d.qpos, qadr + rot);
      const Vector3d g(gear[rot], gear[rot + 1], gear[rot + 2]);
      d.actuator_length[i] = free ? 0.0 : g.dot(rotation_vector(q));
      const Vector3d moment = in_parent ? Vector3d(q.normalized().conjugate() * g) : g;
      for (int k = 0; k < 3; ++k) d.actuator_moment(i, dof + rot + k) = moment[k];
      widen_moment(d, i, dof, dof + rot + 3);
      break;
    }
  }
}

// Slider-crank (MuJoCo docs, "slidersite"): with a the slider site's z axis,
// v = crank site - slider site and r the crank length,
//   length = a.v - sqrt((a.v)^2 - v.v + r^2)
// (just a.v when the square root's argument is not positive: the rod is too
// short to reach). Its gradient: dl/dv = a - ((a.v) a - v)/sqrt(.),
// dl/da = v - (a.v) v / sqrt(.); v moves with Jp(crank) - Jp(slider), a
// turns with the slider body: da = w x a, so dl/da . da = w . (a x dl/da).
// Length and moment scale by gear[0].
void slider_crank_transmission(const Model& m, Data& d, int i) {
  const Actuators& a = m.actuators;
  const int crank = a.trn_id[i][0], slider = a.trn_id[i][1];
  const double gear = a.gear[i][0], r = a.crank_length[i];
  const Vector3d axis = d.site_xmat[slider].col(2);
  const Vector3d v = d.site_xpos[crank] - d.site_xpos[slider];
  const double av = axis.dot(v);
  const double det = av * av + r * r - v.dot(v);
  double length;
  Vector3d dl_dv, dl_da;
  if (det <= 0) {
    length = av;
    dl_dv = axis;
    dl_da = v;
  } else {
    const double root = std::sqrt(det);
    length = av - root;
    dl_dv = axis - (av * axis - v) / root;
    dl_da = v - (av / root) * v;
  }
  d.actuator_length[i] = gear * length;
  const int crank_body = m.sites.body[crank], slider_body = m.sites.body[slider];
  add_wrench_moment(m, d, i, crank_body, d.site_xpos[crank], gear * dl_dv, Vector3d::Zero());
  add_wrench_moment(m, d, i, slider_body, d.site_xpos[slider], -gear * dl_dv,
                    gear * axis.cross(dl_da));
}

// The last dof shared by the chains above two bodies' dofs, or -1.
int common_ancestor_dof(const Model& m, int body_a, int body_b) {
  int a = last_dof_of_chain(m, body_a), b = last_dof_of_chain(m, body_b);
  while (a >= 0 && b >= 0 && a != b) {
    if (a < b) {
      b = m.dofs.parent[b];
    } else {
      a = m.dofs.parent[a];
    }
  }
  return a >= 0 && a == b ? a : -1;
}

// Site transmission. Without a reference site: a wrench gear[0:3] (force),
// gear[3:6] (torque) in the site frame, applied at the site, moment =
// Jp^T R f + Jr^T R t, and no length.
//
// With a reference site r (MuJoCo 3.x's refsite), as MuJoCo 3.3.8 defines
// it:
// - length = gear[0:3] . R_r^T (x_s - x_r) + gear[3:6] . rotvec(q_r^-1 q_s),
//   where each site's quaternion is composed as MuJoCo composes it, site
//   quaternion first and body quaternion second (q_site_local * q_body,
//   not the site's world orientation q_body * q_site_local; the two agree
//   when the site's frame is aligned with its body's);
// - moment = (J_s(x_s) - J_r(x_r))^T R_r gear, translational and rotational
//   rows alike, with the columns of the dofs above both sites cleared (they
//   move both alike). The turning of r's own frame is not differentiated.
void site_transmission(const Model& m, Data& d, int i) {
  const Actuators& a = m.actuators;
  const int site = a.trn_id[i][0], ref = a.trn_id[i][1];
  const auto& g = a.gear[i];
  const Vector3d force_gear(g[0], g[1], g[2]), torque_gear(g[3], g[4], g[5]);
  const int body = m.sites.body[site];
  if (ref < 0) {
    const Matrix3d& rot = d.site_xmat[site];
    add_wrench_moment(m, d, i, body, d.site_xpos[site], rot * force_gear, rot * torque_gear);
    return;
  }
  const int ref_body = m.sites.body[ref];
  const Matrix3d& ref_rot = d.site_xmat[ref];
  double length = 0;
  Vector3d force = Vector3d::Zero(), torque = Vector3d::Zero();
  if (!force_gear.isZero(0)) {
    length += force_gear.dot(ref_rot.transpose() * (d.site_xpos[site] - d.site_xpos[ref]));
    force = ref_rot * force_gear;
  }
  if (!torque_gear.isZero(0)) {
    const Quaterniond q_site = m.sites.quat[site] * d.xquat[body];
    const Quaterniond q_ref = m.sites.quat[ref] * d.xquat[ref_body];
    length += torque_gear.dot(rotation_vector(q_ref.conjugate() * q_site));
    torque = ref_rot * torque_gear;
  }
  d.actuator_length[i] = length;
  add_wrench_moment(m, d, i, body, d.site_xpos[site], force, torque);
  add_wrench_moment(m, d, i, ref_body, d.site_xpos[ref], -force, -torque);
  for (int k = common_ancestor_dof(m, body, ref_body); k >= 0; k = m.dofs.parent[k]) {
    d.actuator_moment(i, k) = 0;
  }
}

// Body transmission (adhesion), as MuJoCo 3.x: no length; the moment is
// minus the average, over the contacts that involve the body, of the
// Jacobian of the contact's separation along its normal,
// n . (J(body2, pos) - J(body1, pos)), so that a positive force pulls the
// body onto what it touches. A contact beyond its include margin (one that
// makes no constraint rows) counts in the average and adds nothing. Gear is
// not used.
void body_transmission(const Model& m, Data& d, int i) {
  const int body = m.actuators.trn_id[i][0];
  int count = 0;
  for (const Contact& c : d.contacts) {
    const int b1 = m.geoms.body[c.geom1], b2 = m.geoms.body[c.geom2];
    if (b1 != body && b2 != body) continue;
    ++count;
    if (c.efc_address < 0) continue;
    const Vector3d normal = c.frame.row(0).transpose();
    add_wrench_moment(m, d, i, b2, c.pos, normal, Vector3d::Zero());
    add_wrench_moment(m, d, i, b1, c.pos, -normal, Vector3d::Zero());
  }
  if (count == 0) return;
  for (int k = d.actuator_moment_begin[i]; k < d.actuator_moment_end[i]; ++k) {
    d.actuator_moment(i, k) *= -1.0 / count;
  }
}

// Muscle curves (MuJoCo docs, "Muscles"), on normalised length L and
// velocity V. Active force-length: a bump that is 0 outside [lmin, lmax] and
// 1 at L = 1, made of four quadratic pieces meeting at a = (lmin + 1)/2 and
// b = (1 + lmax)/2.
double muscle_active_length(double L, double lmin, double lmax) {
  if (L < lmin || L > lmax) return 0;
  const double a = 0.5 * (lmin + 1), b = 0.5 * (1 + lmax);
  if (L <= a) {
    const double x = (L - lmin) / std::max(kMinValue, a - lmin);
    return 0.5 * x * x;
  }
  if (L <= 1) {
    const double x = (1 - L) / std::max(kMinValue, 1 - a);
    return 1 - 0.5 * x * x;
  }
  if (L <= b) {
    const double x = (L - 1) / std::max(kMinValue, b - 1);
    return 1 - 0.5 * x * x;
  }
  const double x = (lmax - L) / std::max(kMinValue, lmax - b);
  return 0.5 * x * x;
}

// Force-velocity: 0 at V <= -1 (shortening at vmax), (V + 1)^2 up to V = 0,
// then rising to fvmax at V = fvmax - 1 as fvmax - (y - V)^2 / y, y = fvmax - 1.
double muscle_velocity(double V, double fvmax) {
  const double y = fvmax - 1;
  if (V <= -1) return 0;
  if (V <= 0) return (V + 1) * (V + 1);
  if (V <= y) return fvmax - (y - V) * (y - V) / std::max(kMinValue, y);
  return fvmax;
}

// dFV/dV, the slope of muscle_velocity.
double muscle_velocity_slope(double V, double fvmax) {
  const double y = fvmax - 1;
  if (V <= -1) return 0;
  if (V <= 0) return 2 * (V + 1);
  if (V <= y) return 2 * (y - V) / std::max(kMinValue, y);
  return 0;
}

// Passive force-length: 0 up to L = 1, then fpmax * 0.5 x^2 with
// x = (L - 1)/(b - 1) up to b = (1 + lmax)/2, then continuing linearly with
// the same slope, fpmax (0.5 + x) with x = (L - b)/(b - 1). (Later MuJoCo
// documents a cubic-then-linear curve; this is the 2.2.2 curve.)
double muscle_passive(double L, double lmax, double fpmax) {
  const double b = 0.5 * (1 + lmax);
  if (L <= 1) return 0;
  if (L <= b) {
    const double x = (L - 1) / std::max(kMinValue, b - 1);
    return fpmax * 0.5 * x * x;
  }
  const double x = (L - b) / std::max(kMinValue, b - 1);
  return fpmax * (0.5 + x);
}

// The muscle parameter block shared by gainprm and biasprm.
struct MuscleParams {
  double range0, range1, force, scale, lmin, lmax, vmax, fpmax, fvmax;
  explicit MuscleParams(const std::array<double, 10>& p)
      : range0(p[0]),
        range1(p[1]),
        force(p[2]),
        scale(p[3]),
        lmin(p[4]),
        lmax(p[5]),
        vmax(p[6]),
        fpmax(p[7]),
        fvmax(p[8]) {}
};

// Normalisation: L0 = (lengthrange[1] - lengthrange[0]) / (range[1] -
// range[0]) is the optimal length; L = range[0] + (length - lengthrange[0])
// / L0; V = velocity / (L0 vmax). Peak force F0 = force, or scale / acc0
// when force < 0.
struct MuscleState {
  double L, V, F0;
};

MuscleState muscle_state(const Model& m, int i, const MuscleParams& p, double length,
                         double velocity) {
  const Vector2d& lr = m.actuators.length_range[i];
  const double L0 = (lr[1] - lr[0]) / std::max(kMinValue, p.range1 - p.range0);
  MuscleState s;
  s.L = p.range0 + (length - lr[0]) / std::max(kMinValue, L0);
  s.V = velocity / std::max(kMinValue, L0 * p.vmax);
  s.F0 = p.force < 0 ? p.scale / std::max(kMinValue, m.actuators.acc0[i]) : p.force;
  return s;
}

// Muscle activation dynamics: with c = clamp(ctrl, 0, 1) and
// a' = clamp(act, 0, 1), act_dot = (c - act) / tau, where tau =
// tau_act (0.5 + 1.5 a') when c > act and tau_deact / (0.5 + 1.5 a')
// otherwise (dynprm[0:2] = tau_act, tau_deact). With tausmooth =
// dynprm[2] > 0 the switch is a quintic smoothstep of (c - act) / tausmooth
// + 0.5 between the two, as in MuJoCo 3.3.8.
double muscle_activation_rate(double ctrl, double act, const std::array<double, 10>& prm) {
  const double c = std::clamp(ctrl, 0.0, 1.0);
  const double a = std::clamp(act, 0.0, 1.0);
  const double tau_act = prm[0] * (0.5 + 1.5 * a);
  const double tau_deact = prm[1] / (0.5 + 1.5 * a);
  const double excess = c - act;
  double tau;
  if (prm[2] < kMinValue) {
    tau = excess > 0 ? tau_act : tau_deact;
  } else {
    const double x = excess / prm[2] + 0.5;
    const double step = x <= 0 ? 0 : x >= 1 ? 1 : x * x * x * (3 * x * (2 * x - 5) + 10);
    tau = tau_deact + (tau_act - tau_deact) * step;
  }
  return excess / std::max(kMinValue, tau);
}

// Whether <option actuatorgroupdisable> lists the actuator's group.
bool actuator_disabled(const Model& m, int i) {
  const int group = m.actuators.group[i];
  return group >= 0 && group <= 30 && ((m.options.disableactuator >> group) & 1) != 0;
}

// Tendons with an actuator force range: the summed force of the actuators
// on each (their actuator_force, gear not applied) is brought into the range
// by scaling every one of them by bound / sum, as MuJoCo 3.3.8 does.
void clamp_tendon_actuator_forces(const Model& m, Data& d) {
  const Tendons& t = m.tendons;
  const Actuators& a = m.actuators;
  bool any = false;
  for (int i = 0; i < m.nu && !any; ++i) {
    any = a.trn_type[i] == TransmissionType::kTendon && t.actfrc_limited[a.trn_id[i][0]];
  }
  if (!any) return;
  // The sums first (a few actuators per tendon: no allocation per step).
  auto total_on = [&](int tendon) {
    double total = 0;
    for (int k = 0; k < m.nu; ++k) {
      if (a.trn_type[k] == TransmissionType::kTendon && a.trn_id[k][0] == tendon) {
        total += d.actuator_force[k];
      }
    }
    return total;
  };
  for (int tendon = 0; tendon < t.count(); ++tendon) {
    if (!t.actfrc_limited[tendon]) continue;
    const double total = total_on(tendon);
    const Vector2d& range = t.actfrc_range[tendon];
    const double scale = total < range[0]   ? range[0] / total
                         : total > range[1] ? range[1] / total
                                            : 1.0;
    if (scale == 1.0) continue;
    for (int i = 0; i < m.nu; ++i) {
      if (a.trn_type[i] == TransmissionType::kTendon && a.trn_id[i][0] == tendon) {
        d.actuator_force[i] *= scale;
      }
    }
  }
}

}  // namespace

// With the clampctrl flag, a ctrl-limited actuator sees its control clamped
// to ctrlrange; data.ctrl itself is left as the user set it.
double effective_ctrl(const Model& m, const Data& d, int i) {
  const Actuators& a = m.actuators;
  const double ctrl = d.ctrl[i];
  if (!m.options.flags.clampctrl || !a.ctrl_limited[i]) return ctrl;
  return std::clamp(ctrl, a.ctrl_range[i][0], a.ctrl_range[i][1]);
}

void transmission(const Model& m, Data& d) {
  d.actuator_length.setZero();
  // Clear the moment arms where the last call may have written them: a
  // joint actuator's row is one to six dofs, not nv.
  for (int i = 0; i < m.nu; ++i) {
    for (int k = d.actuator_moment_begin[i]; k < d.actuator_moment_end[i]; ++k) {
      d.actuator_moment(i, k) = 0;
    }
    d.actuator_moment_begin[i] = m.nv;
    d.actuator_moment_end[i] = 0;
  }
  const Actuators& a = m.actuators;
  for (int i = 0; i < m.nu; ++i) {
    switch (a.trn_type[i]) {
      case TransmissionType::kJoint:
      case TransmissionType::kJointInParent:
        joint_transmission(m, d, i, a.trn_type[i] == TransmissionType::kJointInParent);
        break;
      case TransmissionType::kTendon: {
        // length = gear[0] L_tendon, moment = gear[0] J_tendon.
        const int tendon = a.trn_id[i][0];
        d.actuator_length[i] = a.gear[i][0] * d.ten_length[tendon];
        for (int k = 0; k < m.nv; ++k) {
          const double moment = a.gear[i][0] * d.ten_J(tendon, k);
          if (moment == 0) continue;
          d.actuator_moment(i, k) = moment;
          widen_moment(d, i, k, k + 1);
        }
        break;
      }
      case TransmissionType::kSite:
        site_transmission(m, d, i);
        break;
      case TransmissionType::kSliderCrank:
        slider_crank_transmission(m, d, i);
        break;
      case TransmissionType::kBody:
        body_transmission(m, d, i);
        break;
    }
  }
}

void actuator_velocities(const Model& m, Data& d) {
  for (int i = 0; i < m.nu; ++i) {
    double velocity = 0;
    for (int k = d.actuator_moment_begin[i]; k < d.actuator_moment_end[i]; ++k) {
      velocity += d.actuator_moment(i, k) * d.qvel[k];
    }
    d.actuator_velocity[i] = velocity;
  }
}

void actuation(const Model& m, Data& d) {
  const Actuators& a = m.actuators;
  d.actuator_force.setZero();
  d.qfrc_actuator.setZero();
  d.act_dot.setZero();
  if (!m.options.flags.actuation) return;

  for (int i = 0; i < m.nu; ++i) {
    if (actuator_disabled(m, i)) continue;  // no force, no activation change
    const double length = d.actuator_length[i], velocity = d.actuator_velocity[i];
    const double ctrl = effective_ctrl(m, d, i);
    // Activation dynamics: integrator act_dot = ctrl; filter
    // act_dot = (ctrl - act) / tau; muscle as above. The force is driven by
    // act when the actuator has dynamics, by ctrl otherwise.
    double input = ctrl;
    const int act_adr = a.act_adr[i];
    if (act_adr >= 0) {
      const double act = d.act[act_adr];
      switch (a.dyn_type[i]) {
        case DynamicsType::kIntegrator:
          d.act_dot[act_adr] = ctrl;
          break;
        case DynamicsType::kFilter:
        case DynamicsType::kFilterExact:
          d.act_dot[act_adr] = (ctrl - act) / std::max(kMinValue, a.dynprm[i][0]);
          break;
        case DynamicsType::kMuscle:
          d.act_dot[act_adr] = muscle_activation_rate(ctrl, act, a.dynprm[i]);
          break;
        case DynamicsType::kNone:
          break;
      }
      // actearly: the force follows the activation the step will reach.
      input = a.actearly[i] ? next_activation(m, i, act, d.act_dot[act_adr]) : act;
    }

    // Gain: fixed gainprm[0]; affine gainprm[0] + gainprm[1] length +
    // gainprm[2] velocity; muscle -F0 FL(L) FV(V).
    const auto& gp = a.gainprm[i];
    double gain = 0;
    switch (a.gain_type[i]) {
      case GainType::kFixed:
        gain = gp[0];
        break;
      case GainType::kAffine:
        gain = gp[0] + gp[1] * length + gp[2] * velocity;
        break;
      case GainType::kMuscle: {
        const MuscleParams p(gp);
        const MuscleState s = muscle_state(m, i, p, length, velocity);
        gain = -s.F0 * muscle_active_length(s.L, p.lmin, p.lmax) * muscle_velocity(s.V, p.fvmax);
        break;
      }
    }
    // Bias: none; affine biasprm[0] + biasprm[1] length + biasprm[2]
    // velocity; muscle -F0 FP(L).
    const auto& bp = a.biasprm[i];
    double bias = 0;
    switch (a.bias_type[i]) {
      case BiasType::kNone:
        break;
      case BiasType::kAffine:
        bias = bp[0] + bp[1] * length + bp[2] * velocity;
        break;
      case BiasType::kMuscle: {
        const MuscleParams p(bp);
        const MuscleState s = muscle_state(m, i, p, length, velocity);
        bias = -s.F0 * muscle_passive(s.L, p.lmax, p.fpmax);
        break;
      }
    }

    double force = gain * input + bias;
    if (a.force_limited[i]) force = std::clamp(force, a.force_range[i][0], a.force_range[i][1]);
    d.actuator_force[i] = force;
  }
  clamp_tendon_actuator_forces(m, d);
  // Generalized force: qfrc_actuator = moment^T force, plus gravity
  // compensation on joints that take it as actuator force, then each
  // joint's actuatorfrcrange.
  for (int i = 0; i < m.nu; ++i) {
    const double force = d.actuator_force[i];
    for (int k = d.actuator_moment_begin[i]; k < d.actuator_moment_end[i]; ++k) {
      d.qfrc_actuator[k] += d.actuator_moment(i, k) * force;
    }
  }
  const Joints& j = m.joints;
  for (int k = 0; k < m.nv && m.has_gravcomp; ++k) {
    if (j.actgravcomp[m.dofs.joint[k]]) d.qfrc_actuator[k] += d.qfrc_gravcomp[k];
  }
  for (int k = 0; k < m.nv; ++k) {
    const int joint = m.dofs.joint[k];
    if (!j.actfrc_limited[joint]) continue;
    const Vector2d& range = j.actfrc_range[joint];
    d.qfrc_actuator[k] = std::clamp(d.qfrc_actuator[k], range[0], range[1]);
  }
}

double next_activation(const Model& m, int i, double act, double act_dot) {
  const Actuators& a = m.actuators;
  const double h = m.options.timestep;
  double next = act + h * act_dot;
  // filterexact integrates act' = (ctrl - act) / tau exactly over the step:
  // act + (ctrl - act)(1 - exp(-h / tau)).
  if (a.dyn_type[i] == DynamicsType::kFilterExact) {
    const double tau = std::max(kMinValue, a.dynprm[i][0]);
    next = act + act_dot * tau * (1 - std::exp(-h / tau));
  }
  if (a.act_limited[i]) next = std::clamp(next, a.act_range[i][0], a.act_range[i][1]);
  return next;
}

// Velocity enters the force through affine gains and biases
// (gainprm[2] input + biasprm[2]) and through the muscle force-velocity
// curve: d(-F0 FL FV input)/dv = -F0 FL dFV/dV input / (L0 vmax).
double actuator_velocity_slope(const Model& m, const Data& d, int i) {
  const Actuators& a = m.actuators;
  double input = effective_ctrl(m, d, i);
  if (a.act_adr[i] >= 0) input = d.act[a.act_adr[i]];
  double slope = 0;
  if (a.gain_type[i] == GainType::kAffine) {
    slope += a.gainprm[i][2] * input;
  } else if (a.gain_type[i] == GainType::kMuscle) {
    const MuscleParams p(a.gainprm[i]);
    const MuscleState s = muscle_state(m, i, p, d.actuator_length[i], d.actuator_velocity[i]);
    const Vector2d& lr = a.length_range[i];
    const double L0 = (lr[1] - lr[0]) / std::max(kMinValue, p.range1 - p.range0);
    slope -= s.F0 * muscle_active_length(s.L, p.lmin, p.lmax) *
             muscle_velocity_slope(s.V, p.fvmax) / std::max(kMinValue, L0 * p.vmax) * input;
  }
  if (a.bias_type[i] == BiasType::kAffine) slope += a.biasprm[i][2];
  return slope;
}

}  // namespace pliant
