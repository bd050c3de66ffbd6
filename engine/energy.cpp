#include "pliant/energy.h"

#include <cmath>

#include "engine/dynamics.h"
#include "engine/passive.h"
#include "engine/workspace.h"

namespace pliant {

void compute_energy(const Model& m, Data& d) {
  double potential = 0;
  const Vector3d& g = m.options.gravity;
  if (m.options.flags.gravity) {
    for (int i = 1; i < m.body_count(); ++i) potential -= m.bodies.mass[i] * g.dot(d.xipos[i]);
  }
  if (m.options.flags.spring) {
    const Joints& j = m.joints;
    for (int i = 0; i < j.count(); ++i) {
      const double k = j.stiffness[i];
      if (k == 0) continue;
      const int q = j.qpos_adr[i];
      switch (j.type[i]) {
        case JointType::kFree:
          for (int a = 0; a < 3; ++a) {
            const double dx = d.qpos[q + a] - m.qpos_spring[q + a];
            potential += 0.5 * k * dx * dx;
          }
          [[fallthrough]];  // the rotation stores energy too, as in a ball joint
        case JointType::kBall: {
          const int r = j.type[i] == JointType::kFree ? q + 3 : q;
          const Quaterniond now(d.qpos[r], d.qpos[r + 1], d.qpos[r + 2], d.qpos[r + 3]);
          const Quaterniond rest(m.qpos_spring[r], m.qpos_spring[r + 1], m.qpos_spring[r + 2],
                                 m.qpos_spring[r + 3]);
          const Eigen::AngleAxisd diff(rest.conjugate() * now.normalized());
          const double angle = diff.angle() > M_PI ? 2 * M_PI - diff.angle() : diff.angle();
          potential += 0.5 * k * angle * angle;
          break;
        }
        default: {
          const double dx = d.qpos[q] - m.qpos_spring[q];
          potential += 0.5 * k * dx * dx;
        }
      }
    }
    for (int t = 0; t < m.tendons.count(); ++t) {
      const double dx = tendon_spring_stretch(m, d, t);
      potential += 0.5 * m.tendons.stiffness[t] * dx * dx;
    }
  }
  VectorXd& momentum = workspace(d).scratch_nv;
  multiply_mass(m, d, d.qvel.data(), momentum.data());
  d.energy_potential = potential;
  d.energy_kinetic = 0.5 * d.qvel.dot(momentum);
}

}  // namespace pliant
