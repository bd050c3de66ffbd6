// Smooth dynamics against MuJoCo 2.2.2, with contacts and constraints
// disabled, over every conformance model:
//  - at 20 random states: body poses, the full mass matrix, qfrc_bias,
//    qfrc_passive, qfrc_actuator, qacc_smooth; and the model constants that
//    need dynamics (inverse weights, mean inertia). Tolerance 1e-9 of each
//    field's magnitude: the same formulas in a different operation order
//    differ by round-off (~1e-15) amplified by at most the conditioning of M.
//  - 200 steps with Euler, RK4 and implicit from one random state: qpos and
//    qvel within 1e-8 of the field's magnitude (round-off accumulated over
//    the steps).
// Each test prints the worst error per quantity.

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include "engine/dynamics.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "pliant/step.h"
#include "tests/conformance/field_report.h"
#include "tests/conformance/flatten.h"
#include "tests/conformance/model_list.h"
#include "tests/conformance/reference.h"

namespace pliant::conformance {
namespace {

constexpr double kStateTolerance = 1e-9;
constexpr double kTrajectoryTolerance = 1e-8;
constexpr int kStates = 20;
constexpr int kSteps = 200;

std::vector<double> to_vector(const VectorXd& v) { return std::vector<double>(v.begin(), v.end()); }

// Both engines without contacts and constraints, and with the same muscle
// length ranges.
void disable_constraints(Model& model, mjModel& ref) {
  model.options.flags.contact = false;
  model.options.flags.constraint = false;
  ref.opt.disableflags |= mjDSBL_CONTACT | mjDSBL_CONSTRAINT;
  use_reference_muscle_ranges(model, ref);
}

// Largest difference between two states, relative to the field's magnitude.
double spread(const double* x, const double* y, int n) {
  double scale = 1e-300, worst = 0;
  for (int i = 0; i < n; ++i) {
    scale = std::max(scale, std::abs(x[i]));
    worst = std::max(worst, std::abs(x[i] - y[i]));
  }
  return worst / scale;
}

// Tendon wrapping with a side site flips the wrap side where the side site
// is perpendicular to the path, a discontinuity that round-off decides.
// arm26 reaches one once its shoulder passes its range, which only the
// (disabled) limits would prevent; so for models with side-site wrapping,
// trajectories are compared while every limited joint is inside its range.
bool has_side_site_wrapping(const Model& model) {
  const Tendons& t = model.tendons;
  for (size_t w = 0; w < t.wrap_type.size(); ++w) {
    const bool geom = t.wrap_type[w] == WrapType::kSphere || t.wrap_type[w] == WrapType::kCylinder;
    if (geom && t.wrap_prm[w] >= 0) return true;
  }
  return false;
}

// Whether every limited hinge and slide joint is inside its range.
bool inside_joint_ranges(const Model& model, const Data& data) {
  const Joints& j = model.joints;
  for (int i = 0; i < j.count(); ++i) {
    if (!j.limited[i] || (j.type[i] != JointType::kHinge && j.type[i] != JointType::kSlide)) {
      continue;
    }
    const double q = data.qpos[j.qpos_adr[i]];
    if (q < j.range[i][0] || q > j.range[i][1]) return false;
  }
  return true;
}

// The named difference in the inverse weights of translation-only bodies
// (reference.h): MuJoCo 2.2.2 gives k / 3 of 3.3.8's (and Pliant's)
// translational weight for a body on k slides. Measured here on the three
// corpus models that have such bodies.
TEST(Deviation, TranslationOnlyBodyInvweight) {
  struct Case {
    std::string path;
    int body;
    double slides;
  };
  const std::string models = PLIANT_TEST_MODELS;
  for (const Case& c : {Case{models + "/dm_control/ball_in_cup.xml", 2, 2},
                        Case{models + "/dm_control/point_mass.xml", 1, 2},
                        Case{std::string(PLIANT_SCENES) + "/slider_crank.xml", 3, 1}}) {
    const Model model = load_model(c.path);
    MjModelPtr ref = load_reference_unadjusted(c.path);
    ASSERT_TRUE(ref);
    ASSERT_EQ(model.bodies.simple[c.body], 2) << c.path;
    const double ours = model.bodies.invweight0[c.body][0];
    EXPECT_NEAR(ours, 1 / model.bodies.mass[c.body], 1e-12 * ours) << c.path;
    EXPECT_NEAR(ref->body_invweight0[2 * c.body], c.slides / 3 * ours, 1e-9 * ours) << c.path;
  }
}

class SmoothDynamics : public ::testing::TestWithParam<std::string> {};

TEST_P(SmoothDynamics, ForwardMatchesMuJoCoAtRandomStates) {
  const std::string path = GetParam();
  MjModelPtr ref = load_reference(path);
  ASSERT_TRUE(ref);
  Model model = load_model(path);
  disable_constraints(model, *ref);
  MjDataPtr rd(mj_makeData(ref.get()));
  Data data(model);
  FieldReport report(model_test_name(path));

  const int nbody = ref->nbody, nv = ref->nv;
  report.reals("body_invweight0", flat(model.bodies.invweight0),
               reals_of(ref->body_invweight0, 2 * nbody), kStateTolerance);
  report.reals("dof_invweight0", model.dofs.invweight0, reals_of(ref->dof_invweight0, nv),
               kStateTolerance);
  report.reals("tendon_invweight0", model.tendons.invweight0,
               reals_of(ref->tendon_invweight0, ref->ntendon), kStateTolerance);
  report.reals("meaninertia", {model.stat.meaninertia}, {ref->stat.meaninertia}, kStateTolerance);

  std::mt19937_64 rng(7);
  std::vector<double> dense(nv * nv);
  for (int s = 0; s < kStates; ++s) {
    set_random_state(model, data, *ref, *rd, rng);
    forward(model, data);
    mj_forward(ref.get(), rd.get());
    report.reals("xpos", flat(data.xpos), reals_of(rd->xpos, 3 * nbody), kStateTolerance);
    report.quats("xquat", flat(data.xquat), reals_of(rd->xquat, 4 * nbody), kStateTolerance);
    report.reals("xipos", flat(data.xipos), reals_of(rd->xipos, 3 * nbody), kStateTolerance);
    report.reals("geom_xpos", flat(data.geom_xpos), reals_of(rd->geom_xpos, 3 * ref->ngeom),
                 kStateTolerance);
    report.reals("geom_xmat", flat(data.geom_xmat), reals_of(rd->geom_xmat, 9 * ref->ngeom),
                 kStateTolerance);
    report.reals("site_xpos", flat(data.site_xpos), reals_of(rd->site_xpos, 3 * ref->nsite),
                 kStateTolerance);
    report.reals("subtree_com", flat(data.subtree_com), reals_of(rd->subtree_com, 3 * nbody),
                 kStateTolerance);
    mj_fullM(ref.get(), dense.data(), rd->qM);
    const Eigen::MatrixXd ours = dense_mass_matrix(model, data);
    report.reals("M (dense)", std::vector<double>(ours.data(), ours.data() + nv * nv), dense,
                 kStateTolerance);
    report.reals("qfrc_bias", to_vector(data.qfrc_bias), reals_of(rd->qfrc_bias, nv),
                 kStateTolerance);
    report.reals("qfrc_passive", to_vector(data.qfrc_passive), reals_of(rd->qfrc_passive, nv),
                 kStateTolerance);
    report.reals("qfrc_actuator", to_vector(data.qfrc_actuator), reals_of(rd->qfrc_actuator, nv),
                 kStateTolerance);
    report.reals("ten_length", to_vector(data.ten_length), reals_of(rd->ten_length, ref->ntendon),
                 kStateTolerance);
    report.reals("actuator_force", to_vector(data.actuator_force),
                 reals_of(rd->actuator_force, ref->nu), kStateTolerance);
    report.reals("qacc_smooth", to_vector(data.qacc_smooth), reals_of(rd->qacc_smooth, nv),
                 kStateTolerance);
    if (HasFailure()) break;
  }
  report.print();
}

// Trajectories are compared over their predictability horizon: the steps
// during which MuJoCo's own trajectory stays within 1e-10 of itself when its
// initial velocities change by 1e-12 relative (and, with side-site
// wrapping, while limited joints stay in range; see has_side_site_wrapping). Beyond it the motion
// is decided by round-off (chaotic free limbs without joint limits, knife-edge tendon wrapping,
// integrator blow-ups that reset the state), and no engine can agree with another there. Most
// models stay predictable for all 200 steps; the test prints the horizon of each.
TEST_P(SmoothDynamics, TrajectoriesMatchMuJoCoForEachIntegrator) {
  const std::string path = GetParam();
  for (Integrator integrator : {Integrator::kEuler, Integrator::kRk4, Integrator::kImplicit}) {
    MjModelPtr ref = load_reference(path);
    ASSERT_TRUE(ref);
    Model model = load_model(path);
    disable_constraints(model, *ref);
    model.options.integrator = integrator;
    ref->opt.integrator = static_cast<int>(integrator);
    MjDataPtr rd(mj_makeData(ref.get()));
    Data data(model);
    std::mt19937_64 rng(11);
    set_random_state(model, data, *ref, *rd, rng);
    // Gentle starting velocities (N(0, 0.1^2)): the motion then stays in the
    // model's intended range for longer.
    for (int i = 0; i < ref->nv; ++i) {
      data.qvel[i] *= 0.1;
      rd->qvel[i] = data.qvel[i];
    }
    MjDataPtr perturbed(mj_copyData(nullptr, ref.get(), rd.get()));
    const bool side_sites = has_side_site_wrapping(model);
    for (int i = 0; i < ref->nv; ++i) perturbed->qvel[i] *= 1 + 1e-12;
    const char* names[] = {"Euler", "RK4", "implicit"};
    FieldReport report(model_test_name(path) + " " + names[static_cast<int>(integrator)]);
    int horizon = 0;
    for (int k = 1; k <= kSteps; ++k) {
      step(model, data);
      mj_step(ref.get(), rd.get());
      mj_step(ref.get(), perturbed.get());
      const bool predictable = spread(rd->qpos, perturbed->qpos, ref->nq) <= 1e-10 &&
                               spread(rd->qvel, perturbed->qvel, ref->nv) <= 1e-10;
      if (!predictable || (side_sites && !inside_joint_ranges(model, data))) break;
      horizon = k;
      if (k == kSteps || k % 10 == 0) {
        report.reals("qpos", to_vector(data.qpos), reals_of(rd->qpos, ref->nq),
                     kTrajectoryTolerance);
        report.reals("qvel", to_vector(data.qvel), reals_of(rd->qvel, ref->nv),
                     kTrajectoryTolerance);
      }
      if (HasFailure()) break;
    }
    std::cout << names[static_cast<int>(integrator)] << ": predictable for " << horizon << " of "
              << kSteps << " steps\n";
    report.print();
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, SmoothDynamics, ::testing::ValuesIn(conformance_models()),
                         [](const auto& info) { return model_test_name(info.param); });

}  // namespace
}  // namespace pliant::conformance
