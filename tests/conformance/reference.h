#pragma once

// MuJoCo 2.2.2 as the reference: owning handles and the shared set-up that
// puts both engines in the same state.

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "pliant/data.h"
#include "pliant/load.h"

namespace pliant::conformance {

struct MjModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MjDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using MjModelPtr = std::unique_ptr<mjModel, MjModelDeleter>;
using MjDataPtr = std::unique_ptr<mjData, MjDataDeleter>;

// Write a vector, or a quaternion as MuJoCo's w, x, y, z, into a MuJoCo
// array; each returns whether that changed `out`.
inline bool put_values(mjtNum* out, const mjtNum* values, int n) {
  bool changed = false;
  for (int k = 0; k < n; ++k) {
    changed |= out[k] != values[k];
    out[k] = values[k];
  }
  return changed;
}
inline bool put_vec3(mjtNum* out, const Vector3d& v) { return put_values(out, v.data(), 3); }
inline bool put_quat(mjtNum* out, const Quaterniond& q) {
  const mjtNum wxyz[4] = {q.w(), q.x(), q.y(), q.z()};
  return put_values(out, wxyz, 4);
}

// Named difference from MuJoCo 2.2.2, where Pliant follows MuJoCo 3.3.8: a
// body that only translates (MuJoCo 3.x's body_simple == 2: slide joints
// along coordinate axes, inertial frame at the body origin, no children) has
// body_invweight0 (1 / mass, 0) and dof_invweight0 1 / mass. MuJoCo 2.2.2
// averaged the translational diagonal of J M^-1 J^T over three axes, so for
// k slides it gave k / 3 of that, and a rotational weight from the inertia
// (measured by Deviation.TranslationOnlyBodyInvweight in
// smooth_dynamics_conformance_test.cpp). The reference takes 3.3.8's weights
// so that every downstream comparison (diagApprox, R, aref) stays exact.
inline void adopt_translation_only_invweights(mjModel& ref, const Model& model) {
  for (int b = 1; b < ref.nbody; ++b) {
    if (model.bodies.simple[b] != 2 || model.bodies.weld[b] == 0) continue;
    const double inverse_mass = 1 / std::max(mjMINVAL, ref.body_mass[b]);
    ref.body_invweight0[2 * b] = inverse_mass;
    ref.body_invweight0[2 * b + 1] = 0;
    for (int k = ref.body_dofadr[b]; k < ref.body_dofadr[b] + ref.body_dofnum[b]; ++k) {
      ref.dof_invweight0[k] = inverse_mass;
    }
  }
}

// Named difference from MuJoCo 2.2.2, where Pliant follows MuJoCo 3.3.8: a
// body whose mass comes from one geom takes that geom's frame and moments as
// its inertial frame, unsorted; 2.2.2 diagonalised the body tensor again, with
// a Jacobi iteration that stops at an absolute off-diagonal of 1e-12 (for
// the Allegro hand's 1e-5 kg m^2 bodies a relative 1e-7) and sorted the
// moments. The mass distribution is the same (model_conformance_test
// compares it as a tensor against the unadjusted 2.2.2 model); the dynamics
// tests give 2.2.2 Pliant's frame for every body whose tensor agrees, and let
// it recompute its constants from it (mj_setConst).
inline void adopt_inertial_frames(mjModel& ref, const Model& model) {
  bool changed = false;
  for (int b = 1; b < ref.nbody; ++b) {
    const Bodies& bodies = model.bodies;
    const Eigen::Matrix3d r1 = bodies.iquat[b].toRotationMatrix();
    const Eigen::Matrix3d t1 = r1 * bodies.inertia[b].asDiagonal() * r1.transpose();
    const mjtNum* q = ref.body_iquat + 4 * b;
    const Eigen::Matrix3d r2 = Quaterniond(q[0], q[1], q[2], q[3]).toRotationMatrix();
    const Eigen::Matrix3d t2 =
        r2 * Vector3d(ref.body_inertia + 3 * b).asDiagonal() * r2.transpose();
    // Same distribution: within single precision, or within a few times
    // 2.2.2's absolute stop (1e-12 per off-diagonal entry) for tiny bodies.
    const bool same = (t1 - t2).norm() <= std::max(1e-6 * t1.norm(), 1e-11) &&
                      (bodies.ipos[b] - Vector3d(ref.body_ipos + 3 * b)).norm() <=
                          1e-6 * std::max(1.0, bodies.ipos[b].norm());
    if (!same) continue;
    changed |= put_quat(ref.body_iquat + 4 * b, bodies.iquat[b]);
    changed |= put_vec3(ref.body_inertia + 3 * b, bodies.inertia[b]);
    changed |= put_vec3(ref.body_ipos + 3 * b, bodies.ipos[b]);
  }
  if (changed) {
    mjData* d = mj_makeData(&ref);
    mj_setConst(&ref, d);
    mj_deleteData(d);
  }
}

// Named difference from MuJoCo 2.2.2, where Pliant follows MuJoCo 3.3.8:
// mesh compilation. 3.3.8 gives a mesh geom the mass of the mesh's volume and
// the moments of its equivalent-inertia box at that mass; 2.2.2 gave it the
// mass of the box (8 b_x b_y b_z rho), and summed the tensor in single
// precision, so the principal frame (geom pos/quat, vertices) differs in the
// last digits too. The mass difference is measured by
// Deviation.MeshMassFollowsMuJoCo3 (model_conformance_test.cpp): Robotiq
// 2F-85 about 5 %, Allegro hand about 10 %. The reference takes Pliant's mesh
// frames (its vertices are moved into them) and the inertials of bodies with
// mesh geoms, then recomputes its constants (mj_setConst).
inline void adopt_mesh_compilation(mjModel& ref, const Model& model) {
  if (ref.nmesh != model.meshes.count()) return;
  bool changed = false;
  const Geoms& g = model.geoms;
  // The vertices move from 2.2.2's mesh frame to Pliant's, keeping 2.2.2's
  // order so that its hull graph (MPR's support) stays valid. The change of
  // frame is the same for every geom of a mesh; the first one gives it.
  std::vector<bool> moved(ref.nmesh, false);
  for (int i = 0; i < ref.ngeom; ++i) {
    const int m = ref.geom_dataid[i];
    if (g.type[i] != GeomType::kMesh || ref.geom_type[i] != mjGEOM_MESH || m < 0 || moved[m]) {
      continue;
    }
    moved[m] = true;
    const mjtNum* qr = ref.geom_quat + 4 * i;
    const Eigen::Matrix3d rr = Quaterniond(qr[0], qr[1], qr[2], qr[3]).toRotationMatrix();
    const Eigen::Matrix3d rp = g.quat[i].toRotationMatrix();
    const Vector3d pr(ref.geom_pos + 3 * i);
    // Each moved vertex snaps to Pliant's vertex at the same point (within
    // single precision), so that both engines hold the same floats.
    const Meshes& me = model.meshes;
    std::vector<Vector3d> pliant(me.vertices.begin() + me.vert_adr[m],
                                 me.vertices.begin() + me.vert_adr[m] + me.vert_count[m]);
    std::sort(pliant.begin(), pliant.end(),
              [](const Vector3d& a, const Vector3d& b) { return a.x() < b.x(); });
    double extent = 0;
    for (const Vector3d& v : pliant) extent = std::max(extent, v.cwiseAbs().maxCoeff());
    const double snap = 1e-6 * extent;
    float* vert = ref.mesh_vert + 3 * ref.mesh_vertadr[m];
    for (int v = 0; v < ref.mesh_vertnum[m]; ++v) {
      const Vector3d local(vert[3 * v], vert[3 * v + 1], vert[3 * v + 2]);
      Vector3d ours = rp.transpose() * (pr + rr * local - g.pos[i]);
      auto it = std::lower_bound(pliant.begin(), pliant.end(), ours.x() - snap,
                                 [](const Vector3d& a, double x) { return a.x() < x; });
      for (; it != pliant.end() && it->x() <= ours.x() + snap; ++it) {
        if ((*it - ours).cwiseAbs().maxCoeff() <= snap) {
          ours = *it;
          break;
        }
      }
      for (int k = 0; k < 3; ++k) vert[3 * v + k] = static_cast<float>(ours[k]);
    }
    changed = true;
  }
  std::vector<bool> mesh_body(ref.nbody, false);
  for (int i = 0; i < ref.ngeom; ++i) {
    if (g.type[i] != GeomType::kMesh) continue;
    mesh_body[g.body[i]] = true;
    put_vec3(ref.geom_pos + 3 * i, g.pos[i]);
    put_vec3(ref.geom_size + 3 * i, g.size[i]);
    put_quat(ref.geom_quat + 4 * i, g.quat[i]);
    ref.geom_rbound[i] = g.rbound[i];
  }
  const Bodies& b = model.bodies;
  for (int i = 1; i < ref.nbody; ++i) {
    if (!mesh_body[i]) continue;
    ref.body_mass[i] = b.mass[i];
    put_vec3(ref.body_inertia + 3 * i, b.inertia[i]);
    put_vec3(ref.body_ipos + 3 * i, b.ipos[i]);
    put_quat(ref.body_iquat + 4 * i, b.iquat[i]);
  }
  if (!changed) return;
  for (int i = 0; i < ref.nbody; ++i) ref.body_subtreemass[i] = ref.body_mass[i];
  for (int i = ref.nbody - 1; i > 0; --i) {
    ref.body_subtreemass[ref.body_parentid[i]] += ref.body_subtreemass[i];
  }
  mjData* d = mj_makeData(&ref);
  mj_setConst(&ref, d);
  mj_deleteData(d);
}

// Named difference from MuJoCo 2.2.2, where Pliant follows MuJoCo 3.3.8: the
// size of a height-field geom. With hfield size (x, y, z_top, z_bottom),
// 3.3.8 gives geom_size z = z_top / 4 + z_bottom / 2, 2.2.2 gave
// (z_top + z_bottom) / 2 (quadruped: 1.3 against 2.55), and geom_rbound
// sqrt(x^2 + y^2 + max(z_top, z_bottom)^2) where 2.2.2 gave 0 (quadruped:
// 42.7), measured by Deviation.HfieldGeomSizeFollowsMuJoCo3
// (model_conformance_test.cpp). Collisions use the hfield's own size.
inline void adopt_hfield_geom_sizes(mjModel& ref, const Model& model) {
  for (int i = 0; i < ref.ngeom && i < model.geoms.count(); ++i) {
    if (model.geoms.type[i] != GeomType::kHfield) continue;
    ref.geom_size[3 * i + 2] = model.geoms.size[i][2];
    ref.geom_rbound[i] = model.geoms.rbound[i];
  }
}

// MuJoCo 2.2.2's compiled model as is, without the named differences.
inline MjModelPtr load_reference_unadjusted(const std::string& path) {
  char error[1000] = "";
  MjModelPtr m(mj_loadXML(path.c_str(), nullptr, error, sizeof(error)));
  EXPECT_TRUE(m) << "MuJoCo could not load " << path << ": " << error;
  return m;
}

// MuJoCo 2.2.2's compiled model with the named differences applied.
inline MjModelPtr load_reference(const std::string& path) {
  MjModelPtr m = load_reference_unadjusted(path);
  if (m) {
    const Model model = load_model(path);
    adopt_mesh_compilation(*m, model);
    adopt_hfield_geom_sizes(*m, model);
    adopt_inertial_frames(*m, model);
    adopt_translation_only_invweights(*m, model);
  }
  return m;
}

// Pliant as MuJoCo 2.2.2 computes: 2.2.2 solves the whole constraint
// problem at once, while Pliant (as MuJoCo 3.3.8) solves Newton and CG
// island by island with each island's own scale and termination. The two
// reach the same optimum and differ by where each stops: with islands on,
// the whole 2.2.2 suite passes but for 22_humanoids' CG with contacts
// (efc_force 1.46e-6 from 2.2.2 against a 1e-6 target; CG took 18
// iterations in its largest island, 2.2.2 69 on the whole problem). So
// the 2.2.2 comparisons of solver answers and trajectories turn islands
// off (named in docs/mujoco3-differences.md, "constraint islands").
// Likewise the general convex pairs (ellipsoid, cylinder, mesh): 2.2.2 has
// MPR only, 3.3.8 (and Pliant) GJK and EPA by default, so the comparisons
// turn nativeccd off (named there, "general convex collision", with the
// measured differences).
inline Model load_model_as_mujoco222(const std::string& path) {
  Model model = load_model(path);
  model.options.flags.island = false;
  model.options.flags.nativeccd = false;
  // 2.2.2's default convex iteration limit (3.3.8's, which load_model
  // gives, is 35).
  if (model.options.mpr_iterations == 35) model.options.mpr_iterations = 50;
  return model;
}

// A random but valid state: limited joints inside their range, others near
// qpos0, unit quaternions, velocities ~ N(0, 1), controls inside ctrlrange
// (or ~ N(0, 1)), activations in [0, 1]. Written to both engines.
inline void set_random_state(const Model& model, Data& data, const mjModel& ref, mjData& rd,
                             std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  const Joints& j = model.joints;
  for (int i = 0; i < j.count(); ++i) {
    const int q = j.qpos_adr[i];
    switch (j.type[i]) {
      case JointType::kFree:
        for (int k = 0; k < 3; ++k) data.qpos[q + k] = model.qpos0[q + k] + 0.1 * normal(rng);
        [[fallthrough]];
      case JointType::kBall: {
        const int r = q + (j.type[i] == JointType::kFree ? 3 : 0);
        Eigen::Vector4d quat(normal(rng), normal(rng), normal(rng), normal(rng));
        quat.normalize();
        for (int k = 0; k < 4; ++k) data.qpos[r + k] = quat[k];
        break;
      }
      default:
        if (j.limited[i]) {
          const Vector2d& range = j.range[i];
          data.qpos[q] = range[0] + (range[1] - range[0]) * uniform(rng);
        } else {
          data.qpos[q] = model.qpos0[q] + 0.5 * normal(rng);
        }
    }
  }
  for (int i = 0; i < model.nv; ++i) data.qvel[i] = normal(rng);
  for (int i = 0; i < model.nu; ++i) {
    const Actuators& a = model.actuators;
    data.ctrl[i] = a.ctrl_limited[i] ? a.ctrl_range[i][0] +
                                           (a.ctrl_range[i][1] - a.ctrl_range[i][0]) * uniform(rng)
                                     : normal(rng);
  }
  for (int i = 0; i < model.na; ++i) data.act[i] = uniform(rng);
  for (int i = 0; i < model.nq; ++i) rd.qpos[i] = data.qpos[i];
  for (int i = 0; i < model.nv; ++i) rd.qvel[i] = data.qvel[i];
  for (int i = 0; i < model.nu; ++i) rd.ctrl[i] = data.ctrl[i];
  for (int i = 0; i < model.na; ++i) rd.act[i] = data.act[i];
  (void)ref;
}

// Muscle length ranges: both MuJoCo versions and Pliant simulate them at
// compile time. Pliant follows 3.3.8, whose Euler steps leave out implicit
// joint damping while dampers are off (as in those runs); 2.2.2 keeps it,
// so arm26's ranges differ by up to 5.2e-6 (named in
// docs/mujoco3-differences.md, "muscle length range"). To compare the
// muscle model itself, Pliant takes 2.2.2's range here.
inline void use_reference_muscle_ranges(Model& model, const mjModel& ref) {
  for (int i = 0; i < model.nu; ++i) {
    if (ref.actuator_gaintype[i] == mjGAIN_MUSCLE || ref.actuator_biastype[i] == mjBIAS_MUSCLE) {
      model.actuators.length_range[i] =
          Vector2d(ref.actuator_lengthrange[2 * i], ref.actuator_lengthrange[2 * i + 1]);
    }
  }
}

}  // namespace pliant::conformance
