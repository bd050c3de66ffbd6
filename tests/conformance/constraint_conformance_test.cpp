// Constraint rows against MuJoCo 2.2.2 at 20 random states of every
// conformance model: nefc, efc_type, efc_id (exact), efc_pos, efc_margin,
// efc_diagApprox, efc_R, efc_D, efc_aref and the dense Jacobian within 1e-9
// of each field's magnitude (the same formulas in another operation order).
//
// Named deviations from 2.2.2 (later MuJoCo fixed them; Pliant follows the
// fix): weld rotational rows use the rotational inverse weights in
// diagApprox (2.2.2: translational), and torquescale scales the weld's
// rotational residual (2.2.2: only its Jacobian). Rows of welds are compared
// with those quantities recomputed the fixed way from MuJoCo's own numbers.
//
// Contact rows are compared in the states where both engines found the same
// contacts (tests/conformance/contact_match.h).

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include "engine/constraint/assemble.h"
#include "pliant/forward.h"
#include "pliant/load.h"
#include "tests/conformance/contact_match.h"
#include "tests/conformance/field_report.h"
#include "tests/conformance/flatten.h"
#include "tests/conformance/model_list.h"
#include "tests/conformance/reference.h"

namespace pliant::conformance {
namespace {

constexpr double kTolerance = 1e-9;
constexpr int kStates = 20;

// MuJoCo's efc_J as a dense nefc x nv matrix, whatever its layout.
std::vector<double> reference_dense_jacobian(const mjModel& m, const mjData& d) {
  std::vector<double> dense(static_cast<size_t>(d.nefc) * m.nv, 0.0);
  if (!mj_isSparse(&m)) {
    std::copy(d.efc_J, d.efc_J + dense.size(), dense.begin());
    return dense;
  }
  for (int i = 0; i < d.nefc; ++i) {
    for (int k = 0; k < d.efc_J_rownnz[i]; ++k) {
      const int adr = d.efc_J_rowadr[i] + k;
      dense[static_cast<size_t>(i) * m.nv + d.efc_J_colind[adr]] = d.efc_J[adr];
    }
  }
  return dense;
}

std::vector<double> our_dense_jacobian(const Model& m, const Data& d) {
  std::vector<double> dense(static_cast<size_t>(d.efc.count()) * m.nv, 0.0);
  for (int i = 0; i < d.efc.count(); ++i) {
    for (int k = 0; k < d.efc.row_nnz[i]; ++k) {
      const int adr = d.efc.row_adr[i] + k;
      dense[static_cast<size_t>(i) * m.nv + d.efc.col[adr]] = d.efc.J[adr];
    }
  }
  return dense;
}

// Rewrites MuJoCo's weld rows the way later MuJoCo (and Pliant) compute
// them: R and D from the rotational weight, pos scaled by torquescale.
void apply_weld_fixes(const mjModel& m, mjData& d, std::vector<double>& pos,
                      std::vector<double>& diag, std::vector<double>& r, std::vector<double>& dd,
                      std::vector<double>& aref) {
  for (int i = 0; i + 5 < d.nefc; ++i) {
    if (d.efc_type[i] != mjCNSTR_EQUALITY || m.eq_type[d.efc_id[i]] != mjEQ_WELD) continue;
    const int eq = d.efc_id[i];
    const int b1 = m.eq_obj1id[eq], b2 = m.eq_obj2id[eq];
    const double rot = m.body_invweight0[2 * b1 + 1] + m.body_invweight0[2 * b2 + 1];
    const double torquescale = m.eq_data[mjNEQDATA * eq + 10];
    for (int k = 3; k < 6; ++k) {
      const int row = i + k;
      const double imp = d.efc_KBIP[4 * row + 2];
      pos[row] = torquescale * d.efc_pos[row];
      diag[row] = rot;
      r[row] = std::max(mjMINVAL, (1 - imp) / imp * rot);
      dd[row] = 1 / r[row];
      aref[row] = -d.efc_KBIP[4 * row + 1] * d.efc_vel[row] -
                  d.efc_KBIP[4 * row] * imp * (pos[row] - d.efc_margin[row]);
    }
    i += 5;
  }
}

class ConstraintRowsTest : public ::testing::TestWithParam<std::string> {};

void compare_rows(const std::string& path, bool contacts) {
  MjModelPtr ref = load_reference(path);
  ASSERT_TRUE(ref);
  Model model = load_model_as_mujoco222(path);
  if (!contacts) {
    model.options.flags.contact = false;
    ref->opt.disableflags |= mjDSBL_CONTACT;
  }
  MjDataPtr rd(mj_makeData(ref.get()));
  Data data(model);
  FieldReport report(model_test_name(path) + (contacts ? " contacts" : ""));
  std::mt19937_64 rng(3);
  int total_rows = 0, skipped = 0;
  for (int s = 0; s < kStates; ++s) {
    set_random_state(model, data, *ref, *rd, rng);
    forward(model, data);
    mj_forward(ref.get(), rd.get());
    // With contacts, compare only states whose contact sets agree (the
    // collision conformance tests the rest).
    if (contacts && !contact_mismatch(data, *rd).empty()) {
      ++skipped;
      continue;
    }
    const int nefc = rd->nefc;
    report.ints("nefc", {data.efc.count()}, {nefc});
    if (data.efc.count() != nefc) break;
    total_rows += nefc;
    report.ints("efc_type", codes(data.efc.type), ints_of(rd->efc_type, nefc));
    report.ints("efc_id", data.efc.id, ints_of(rd->efc_id, nefc));
    std::vector<double> pos = reals_of(rd->efc_pos, nefc),
                        diag = reals_of(rd->efc_diagApprox, nefc), r = reals_of(rd->efc_R, nefc),
                        dd = reals_of(rd->efc_D, nefc), aref = reals_of(rd->efc_aref, nefc);
    apply_weld_fixes(*ref, *rd, pos, diag, r, dd, aref);
    report.reals("efc_pos", data.efc.pos, pos, kTolerance);
    report.reals("efc_margin", data.efc.margin, reals_of(rd->efc_margin, nefc), kTolerance);
    report.reals("efc_frictionloss", data.efc.frictionloss, reals_of(rd->efc_frictionloss, nefc),
                 kTolerance);
    report.reals("efc_diagApprox", data.efc.diag_approx, diag, kTolerance);
    report.reals("efc_R", data.efc.R, r, kTolerance);
    report.reals("efc_D", data.efc.D, dd, kTolerance);
    report.reals("efc_aref", data.efc.aref, aref, kTolerance);
    report.reals("efc_J (dense)", our_dense_jacobian(model, data),
                 reference_dense_jacobian(*ref, *rd), kTolerance);
    if (::testing::Test::HasFailure()) break;
  }
  std::cout << "rows compared over " << kStates - skipped << " states: " << total_rows
            << (contacts
                    ? " (states with differing contacts skipped: " + std::to_string(skipped) + ")"
                    : std::string())
            << "\n";
  report.print();
}

TEST_P(ConstraintRowsTest, RowsMatchMuJoCoWithoutContacts) { compare_rows(GetParam(), false); }

// Contact rows (frictionless, pyramidal, elliptic per the model's cone) where
// both engines found the same contacts.
TEST_P(ConstraintRowsTest, RowsMatchMuJoCoWithContactsWhereContactsAgree) {
  compare_rows(GetParam(), true);
}

// The sparse and dense layouts give bit-identical rows.
TEST(ConstraintLayouts, SparseAndDenseRowsAreIdenticalOnHumanoid100) {
  const std::string path = std::string(PLIANT_MUJOCO_MODELS) + "/humanoid100/humanoid100.xml";
  Model sparse_model = load_model_as_mujoco222(path);
  sparse_model.options.jacobian = JacobianLayout::kSparse;
  Model dense_model = sparse_model;
  dense_model.options.jacobian = JacobianLayout::kDense;
  Data sparse(sparse_model), dense(dense_model);
  std::mt19937_64 rng(5);
  MjModelPtr ref = load_reference(path);
  MjDataPtr rd(mj_makeData(ref.get()));
  int compared = 0;
  for (int s = 0; s < 5; ++s) {
    set_random_state(sparse_model, sparse, *ref, *rd, rng);
    dense.qpos = sparse.qpos;
    dense.qvel = sparse.qvel;
    forward(sparse_model, sparse);
    forward(dense_model, dense);
    ASSERT_EQ(sparse.efc.count(), dense.efc.count());
    EXPECT_EQ(our_dense_jacobian(sparse_model, sparse), our_dense_jacobian(dense_model, dense));
    EXPECT_EQ(sparse.efc.R, dense.efc.R);
    EXPECT_EQ(sparse.efc.aref, dense.efc.aref);
    EXPECT_FALSE(sparse.efc.dense);
    EXPECT_TRUE(dense.efc.dense);
    compared += sparse.efc.count();
  }
  std::cout << "rows compared bit for bit: " << compared << "\n";
  EXPECT_GT(compared, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, ConstraintRowsTest, ::testing::ValuesIn(conformance_models()),
                         [](const auto& info) { return model_test_name(info.param); });

}  // namespace
}  // namespace pliant::conformance
