#include "engine/constraint/assemble.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/kinematics.h"
#include "engine/spatial.h"
#include "engine/workspace.h"
#include "model/numeric_limits.h"
#include "solvers/row_length.h"

namespace pliant {

void ConstraintRows::clear() {
  type.clear();
  id.clear();
  pos.clear();
  margin.clear();
  frictionloss.clear();
  diag_approx.clear();
  R.clear();
  D.clear();
  impedance.clear();
  vel.clear();
  aref.clear();
  force.clear();
  row_nnz.clear();
  row_adr.clear();
  col.clear();
  J.clear();
}

// `auto`: rows list only the dofs their bodies' chains reach once a model has
// more than a handful of dofs. A contact on a humanoid's foot reaches 9 of
// its 27 dofs, so its Jacobian products, Hessian terms and line-search rows
// shrink threefold (measured: 12 % of the humanoid's step in instructions, 6 %
// of the walker's). Below 8 dofs the index lists cost more than the zeros
// they skip (the 3-dof finger: 2 % more). MuJoCo's own `auto` switches at 60
// dofs; the layout changes sums' order only, so answers agree to round-off.
constexpr int kSparseJacobianMinDofs = 8;

bool use_sparse_jacobian(const Model& m) {
  switch (m.options.jacobian) {
    case JacobianLayout::kDense:
      return false;
    case JacobianLayout::kSparse:
      return true;
    default:
      return m.nv >= kSparseJacobianMinDofs;
  }
}

namespace {

// Builds rows into data.efc. Each constraint first lists its columns: the
// union of the two bodies' dof chains (sparse layout) or all dofs (dense
// layout), so both layouts compute identical values. Jacobians are then
// accumulated into a compact 6 x ncolumns scratch (translation rows 0-2,
// rotation rows 3-5; column e is dof columns_[e]) that is zero outside use:
// a contact in a large scene touches a few contiguous doubles, not a few
// columns scattered over a 6 x nv block.
class Assembler {
 public:
  // Rows go to data.efc, built in `scratch`. A first assembler writes every
  // row but the contacts' from row 0 on; contact rows, on any thread, are
  // written into rows already sized for them (contacts_from). The row
  // arrays keep the last step's length while rows are written over them
  // (every field of a row is written: push_row, finish_constraint) and are
  // cut to this step's rows by size_contact_rows or finish_rows: growing a
  // cleared vector would zero every element first, about 5% of a step on a
  // pile of 100 boxes.
  Assembler(const Model& m, Data& d, AssemblyScratch& scratch, bool clear)
      : m_(m),
        d_(d),
        efc_(d.efc),
        jac_(scratch.jacobian),
        columns_(scratch.columns),
        frame_jac_(scratch.contact_jacobian) {
    if (clear) {
      efc_.vel.clear();
      efc_.aref.clear();
      efc_.force.clear();
      efc_.dense = !use_sparse_jacobian(m);
    }
    if (jac_.cols() != m.nv) jac_.setZero(6, m.nv);
  }

  // The row arrays cut to the rows written (when no contact rows follow).
  void finish_rows() { resize_rows(end_row_, end_entry_); }

  // Every row but the contacts', appended.
  void all_but_contacts() {
    const OptionFlags& f = m_.options.flags;
    if (!f.constraint) return;
    if (f.equality) equalities();
    if (f.frictionloss) friction_loss();
    if (f.limit) limits();
  }

  // The rows of contacts [begin, end) into the rows from `row` on, whose
  // Jacobian entries start at `entry` (sized by size_contact_rows).
  void contacts_from(int begin, int end, int row, int entry) {
    cursor_row_ = row;
    cursor_entry_ = entry;
    contact_rows(begin, end);
  }

  // Appends room for the rows of every contact: their first row and first
  // Jacobian entry, per contact, in rows and entries (count + 1 each).
  void size_contact_rows(std::vector<int>& rows, std::vector<int>& entries) {
    const int count = static_cast<int>(d_.contacts.size());
    rows.resize(count + 1);
    entries.resize(count + 1);
    rows[0] = end_row_;
    entries[0] = end_entry_;
    // A geom pair's contacts come one after another: their bodies' column
    // count is kept while the bodies repeat.
    int counted_b1 = -2, counted_b2 = -2, columns = 0;
    for (int c = 0; c < count; ++c) {
      const Contact& con = d_.contacts[c];
      int n = 0, nnz = 0;
      if (con.dist < con.includemargin) {
        n = con.dim == 1 ? 1 : m_.options.cone == Cone::kPyramidal ? 2 * (con.dim - 1) : con.dim;
        const int b1 = m_.geoms.body[con.geom1], b2 = m_.geoms.body[con.geom2];
        if (efc_.dense) {
          columns = m_.nv;
        } else if (b1 != counted_b1 || b2 != counted_b2) {
          columns = 0;
          for_each_column(b1, b2, [&](int) { ++columns; });
          counted_b1 = b1;
          counted_b2 = b2;
        }
        nnz = columns;
      }
      rows[c + 1] = rows[c] + n;
      entries[c + 1] = entries[c] + n * nnz;
    }
    resize_rows(rows[count], entries[count]);
  }

 private:
  // ---- Jacobian scratch ----

  // visit(k) for the dofs that move b1 or b2, descending (the sparse
  // layout's columns).
  template <class Visit>
  void for_each_column(int b1, int b2, Visit&& visit) const {
    // Both chains descend (a dof's parent has a smaller index): merge them.
    int i = last_dof_of_chain(m_, b1), j = last_dof_of_chain(m_, b2);
    while (i >= 0 || j >= 0) {
      if (i > j) {
        visit(i);
        i = m_.dofs.parent[i];
      } else if (j > i) {
        visit(j);
        j = m_.dofs.parent[j];
      } else {
        visit(i);
        i = m_.dofs.parent[i];
        j = m_.dofs.parent[j];
      }
    }
  }

  // Columns of the dofs that move b1 or b2 (ascending), or all dofs.
  void select_columns(int b1, int b2) {
    columns_.clear();
    if (efc_.dense) {
      for (int k = 0; k < m_.nv; ++k) columns_.push_back(k);
      return;
    }
    for_each_column(b1, b2, [this](int k) { columns_.push_back(k); });
    std::reverse(columns_.begin(), columns_.end());
  }

  // jac += sign * [J_translation; J_rotation] of `point` on `body`, whose
  // chain is part of columns_ (the chain descends, columns_ ascends, so one
  // cursor walks both).
  void accumulate_jacobian(int body, const Vector3d& point, double sign) {
    const Vector3d offset = point - d_.subtree_com[m_.bodies.root[body]];
    int e = static_cast<int>(columns_.size()) - 1;
    for (int k = last_dof_of_chain(m_, body); k >= 0; k = m_.dofs.parent[k]) {
      while (columns_[e] != k) --e;
      const Vector3d w = angular(d_.cdof[k]);
      const Vector3d v = linear(d_.cdof[k]) + w.cross(offset);
      for (int a = 0; a < 3; ++a) {
        jac_(a, e) += sign * v[a];
        jac_(3 + a, e) += sign * w[a];
      }
    }
  }

  void clear_jacobian() { jac_.leftCols(static_cast<Eigen::Index>(columns_.size())).setZero(); }

  // ---- rows ----

  // Every per-row array to `rows` rows (vel, aref and force are sized
  // later, by constraint_reference and the solver), col and J to
  // `entries`.
  void resize_rows(int rows, int entries) {
    for (auto* v :
         {&efc_.pos, &efc_.margin, &efc_.frictionloss, &efc_.diag_approx, &efc_.R, &efc_.D}) {
      v->resize(rows);
    }
    efc_.type.resize(rows);
    efc_.id.resize(rows);
    efc_.impedance.resize(rows);
    efc_.row_adr.resize(rows);
    efc_.row_nnz.resize(rows);
    efc_.col.resize(entries);
    efc_.J.resize(entries);
  }

  // The end of the rows built so far: the next row's index.
  int rows_end() const { return cursor_row_ >= 0 ? cursor_row_ : end_row_; }

  // A new row with room for nnz Jacobian entries: the next row after those
  // written so far (the arrays grow only past the last step's length;
  // impedance, R and D are set by finish_constraint), or the next of the
  // sized rows.
  int new_row(int nnz) {
    int i, adr;
    if (cursor_row_ >= 0) {
      i = cursor_row_++;
      adr = cursor_entry_;
      cursor_entry_ += nnz;
    } else {
      i = end_row_++;
      adr = end_entry_;
      end_entry_ += nnz;
      const int length = static_cast<int>(efc_.J.size());
      if (end_row_ > efc_.count() || end_entry_ > length) {
        resize_rows(std::max(end_row_, efc_.count()), std::max(end_entry_, length));
      }
    }
    efc_.row_adr[i] = adr;
    efc_.row_nnz[i] = nnz;
    return i;
  }

  // A new row whose Jacobian entry at column columns_[e] is value(e).
  template <class Value>
  void push_row(ConstraintType type, int id, double pos, double margin, double frictionloss,
                double diag, Value value) {
    const int nnz = static_cast<int>(columns_.size());
    const int i = new_row(nnz);
    efc_.type[i] = type;
    efc_.id[i] = id;
    efc_.pos[i] = pos;
    efc_.margin[i] = margin;
    efc_.frictionloss[i] = frictionloss;
    efc_.diag_approx[i] = diag;
    int* col = efc_.col.data() + efc_.row_adr[i];
    double* jac = efc_.J.data() + efc_.row_adr[i];
    with_row_length(nnz, [&](auto length) { write_entries<length>(nnz, col, jac, value); });
  }

  // col[e] = columns_[e], jac[e] = value(e) for the row's entries.
  template <int N, class Value>
  void write_entries(int nnz, int* __restrict col, double* __restrict jac, Value& value) const {
    const int* __restrict columns = columns_.data();
    const int n = row_length<N>(nnz);
#pragma GCC unroll 12
    for (int e = 0; e < n; ++e) col[e] = columns[e];
#pragma GCC unroll 12
    for (int e = 0; e < n; ++e) jac[e] = value(e);
  }

  // Whether the rows from `first` on have any non-zero Jacobian entry.
  bool rows_have_effect(int first) const {
    const auto begin = efc_.J.begin() + efc_.row_adr[first];
    return std::any_of(begin, efc_.J.begin() + end_entry_, [](double v) { return v != 0; });
  }

  void drop_rows_from(int first) {
    end_row_ = first;
    end_entry_ = efc_.row_adr[first];
  }

  // Impedance, reference spring and regulariser for rows [first, end) of one
  // constraint: one d from `violation` (already reduced to a magnitude
  // argument), R = max(1e-15, (1-d)/d diagApprox) per row.
  void finish_constraint(int first, const SolRef& solref_in, const SolImp& solimp_in,
                         double violation, bool spring) {
    const SolImp solimp = sanitize(solimp_in);
    const SolRef solref = sanitize(solref_in);
    const SpringDamper kb =
        reference_spring(solref, solimp.dmax, m_.options.timestep, m_.options.flags.refsafe);
    finish_rows(first, solimp, kb, violation, spring);
  }

  // finish_constraint from the sanitised solimp and the reference spring.
  void finish_rows(int first, const SolImp& solimp, const SpringDamper& kb, double violation,
                   bool spring) {
    const ImpedanceValue imp = impedance(solimp, violation);
    for (int i = first; i < rows_end(); ++i) {
      efc_.impedance[i] = {spring ? kb.K : 0, kb.B, imp.d, imp.derivative};
      const double r = std::max(kMinValue, (1 - imp.d) * efc_.diag_approx[i] / imp.d);
      efc_.R[i] = r;
      efc_.D[i] = 1 / r;
      // diagApprox as R gives it back (MuJoCo 3.3.8 reports it so).
      efc_.diag_approx[i] = r * imp.d / (1 - imp.d);
    }
  }

  // finish_rows for a pyramid's edges, whose R all become 2 mu^2 R0, R0 the
  // first edge's as finish_rows finds it (with con.mu from R0,
  // friction_regulariser): the edges share d, so their R, D and diagApprox
  // are worked out once, the values finish_rows and then
  // adjust_contact_regulariser would write row by row.
  void finish_pyramid(Contact& con, int first, const SolImp& solimp, const SpringDamper& kb,
                      double violation, double impratio) {
    const ImpedanceValue imp = impedance(solimp, violation);
    const double r0 = std::max(kMinValue, (1 - imp.d) * efc_.diag_approx[first] / imp.d);
    friction_regulariser(con, r0, impratio);
    const double r = 2 * con.mu * con.mu * r0;
    const double d = 1 / r, diag = r * imp.d / (1 - imp.d);
    for (int i = first; i < rows_end(); ++i) {
      efc_.impedance[i] = {kb.K, kb.B, imp.d, imp.derivative};
      efc_.R[i] = r;
      efc_.D[i] = d;
      efc_.diag_approx[i] = diag;
    }
  }

  double body_weight(int body, int part) const { return m_.bodies.invweight0[body][part]; }

  // ---- equality ----

  void equalities() {
    const Equalities& e = m_.equalities;
    for (int i = 0; i < e.count(); ++i) {
      if (!e.active[i]) continue;
      const int first = rows_end();
      double violation = 0;
      switch (e.type[i]) {
        case EqualityType::kConnect:
          violation = connect(i);
          break;
        case EqualityType::kWeld:
          violation = weld(i);
          break;
        case EqualityType::kJoint:
        case EqualityType::kTendon:
          violation = coupling(i);
          break;
      }
      if (rows_end() == first) continue;
      if (!rows_have_effect(first)) {
        drop_rows_from(first);
        continue;
      }
      finish_constraint(first, e.solref[i], e.solimp[i], violation, true);
    }
  }

  // Anchors p1 (data[0:3] in body1) and p2 (data[3:6] in body2) must meet:
  // three rows r = p1 - p2, J = Jp(body1, p1) - Jp(body2, p2).
  // With site semantics (MuJoCo 3.x) the points are the two sites.
  double connect(int i) {
    const Equalities& e = m_.equalities;
    const bool sites = e.obj_type[i] == ObjectType::kSite;
    const int b1 = sites ? m_.sites.body[e.obj1[i]] : e.obj1[i];
    const int b2 = sites ? m_.sites.body[e.obj2[i]] : e.obj2[i];
    const auto& data = e.data[i];
    const Vector3d p1 =
        sites ? d_.site_xpos[e.obj1[i]]
              : Vector3d(d_.xpos[b1] + d_.xmat[b1] * Vector3d(data[0], data[1], data[2]));
    const Vector3d p2 =
        sites ? d_.site_xpos[e.obj2[i]]
              : Vector3d(d_.xpos[b2] + d_.xmat[b2] * Vector3d(data[3], data[4], data[5]));
    const Vector3d r = p1 - p2;
    select_columns(b1, b2);
    accumulate_jacobian(b1, p1, 1);
    accumulate_jacobian(b2, p2, -1);
    const double diag = body_weight(b1, 0) + body_weight(b2, 0);
    for (int a = 0; a < 3; ++a) {
      push_row(ConstraintType::kEquality, i, r[a], 0, 0, diag, [&](int e) { return jac_(a, e); });
    }
    clear_jacobian();
    return r.norm();
  }

  // Translation as connect (anchor data[3:6] in body1 meets data[0:3] in
  // body2); orientation error q_e = conj(q2) q1 relpose, residual = vec(q_e),
  // rotational Jacobian column j = 0.5 vec(conj(q2) (0, w_j) q1 relpose) with
  // w_j = (Jr1 - Jr2)[:, j]. Rotational rows and residual are scaled by
  // torquescale and weighted by the bodies' rotational inverse weights.
  // With site semantics (MuJoCo 3.x) the sites' frames must coincide: the
  // points are the sites and q1 relpose, q2 become the sites' orientations.
  double weld(int i) {
    const Equalities& e = m_.equalities;
    const bool sites = e.obj_type[i] == ObjectType::kSite;
    const int s1 = e.obj1[i], s2 = e.obj2[i];
    const int b1 = sites ? m_.sites.body[s1] : e.obj1[i];
    const int b2 = sites ? m_.sites.body[s2] : e.obj2[i];
    const auto& data = e.data[i];
    const Vector3d p1 =
        sites ? d_.site_xpos[s1]
              : Vector3d(d_.xpos[b1] + d_.xmat[b1] * Vector3d(data[3], data[4], data[5]));
    const Vector3d p2 =
        sites ? d_.site_xpos[s2]
              : Vector3d(d_.xpos[b2] + d_.xmat[b2] * Vector3d(data[0], data[1], data[2]));
    const Vector3d r = p1 - p2;
    const double torquescale = data[10];
    const Quaterniond q1r =
        sites ? Quaterniond(d_.xquat[b1] * m_.sites.quat[s1])
              : Quaterniond(d_.xquat[b1] * Quaterniond(data[6], data[7], data[8], data[9]));
    const Quaterniond q2c = sites ? Quaterniond(d_.xquat[b2] * m_.sites.quat[s2]).conjugate()
                                  : d_.xquat[b2].conjugate();
    const Vector3d rotation = torquescale * (q2c * q1r).vec();
    select_columns(b1, b2);
    accumulate_jacobian(b1, p1, 1);
    accumulate_jacobian(b2, p2, -1);
    const double diag_t = body_weight(b1, 0) + body_weight(b2, 0);
    const double diag_r = body_weight(b1, 1) + body_weight(b2, 1);
    for (int a = 0; a < 3; ++a) {
      push_row(ConstraintType::kEquality, i, r[a], 0, 0, diag_t, [&](int e) { return jac_(a, e); });
    }
    // The rotation rows of jac_ now hold Jr1 at p1 minus Jr2 (rotation does
    // not depend on the point).
    auto rotational_column = [&](int e) {
      const Quaterniond w(0, jac_(3, e), jac_(4, e), jac_(5, e));
      return Vector3d(0.5 * torquescale * (q2c * w * q1r).vec());
    };
    for (int a = 0; a < 3; ++a) {
      push_row(ConstraintType::kEquality, i, rotation[a], 0, 0, diag_r,
               [&](int e) { return rotational_column(e)[a]; });
    }
    clear_jacobian();
    Eigen::Matrix<double, 6, 1> all;
    all << r, rotation;
    return all.norm();
  }

  // Joint or tendon coupling, one row: with dif = x2 - x2_0,
  // r = (x1 - x1_0) - (c0 + c1 dif + ... + c4 dif^4) and
  // J = J1 - (c1 + 2 c2 dif + 3 c3 dif^2 + 4 c4 dif^3) J2.
  double coupling(int i) {
    const Equalities& e = m_.equalities;
    const bool joint = e.type[i] == EqualityType::kJoint;
    const auto& c = e.data[i];
    const int o1 = e.obj1[i], o2 = e.obj2[i];
    auto value = [&](int o) {
      return joint ? d_.qpos[m_.joints.qpos_adr[o]] - m_.qpos0[m_.joints.qpos_adr[o]]
                   : d_.ten_length[o] - m_.tendons.length0[o];
    };
    double r = value(o1) - c[0];
    double slope = 0;
    if (o2 >= 0) {
      const double dif = value(o2);
      r = value(o1) - (c[0] + dif * (c[1] + dif * (c[2] + dif * (c[3] + dif * c[4]))));
      slope = c[1] + dif * (2 * c[2] + dif * (3 * c[3] + dif * 4 * c[4]));
    }
    columns_.clear();
    std::vector<double>& row = workspace(d_).row;
    row.assign(m_.nv, 0);
    if (joint) {
      row[m_.joints.dof_adr[o1]] += 1;
      if (o2 >= 0) row[m_.joints.dof_adr[o2]] -= slope;
    } else {
      for (int k = 0; k < m_.nv; ++k) {
        row[k] = d_.ten_J(o1, k) - (o2 >= 0 ? slope * d_.ten_J(o2, k) : 0);
      }
    }
    for (int k = 0; k < m_.nv; ++k) {
      if (efc_.dense || row[k] != 0) columns_.push_back(k);
    }
    // Both coupled objects' inverse weights (measured on MuJoCo 2.2.2: the
    // second joint or tendon counts too).
    auto weight = [&](int o) {
      return joint ? m_.dofs.invweight0[m_.joints.dof_adr[o]] : m_.tendons.invweight0[o];
    };
    const double diag = weight(o1) + (o2 >= 0 ? weight(o2) : 0);
    push_row(ConstraintType::kEquality, i, r, 0, 0, diag, [&](int e) { return row[columns_[e]]; });
    return r;
  }

  // ---- friction loss ----

  void friction_loss() {
    for (int k = 0; k < m_.nv; ++k) {
      const double loss = m_.dofs.frictionloss[k];
      if (loss <= 0) continue;
      single_dof_columns(k, 1);
      const int first = rows_end();
      push_row(ConstraintType::kFrictionDof, k, 0, 0, loss, m_.dofs.invweight0[k],
               [&](int e) { return columns_[e] == k ? 1.0 : 0.0; });
      finish_constraint(first, m_.dofs.solref[k], m_.dofs.solimp[k], 0, false);
    }
    const Tendons& t = m_.tendons;
    for (int i = 0; i < t.count(); ++i) {
      if (t.frictionloss[i] <= 0) continue;
      tendon_columns(i);
      const int first = rows_end();
      push_row(ConstraintType::kFrictionTendon, i, 0, 0, t.frictionloss[i], t.invweight0[i],
               [&](int e) { return d_.ten_J(i, columns_[e]); });
      if (!rows_have_effect(first)) {
        drop_rows_from(first);
        continue;
      }
      finish_constraint(first, t.solref_friction[i], t.solimp_friction[i], 0, false);
    }
  }

  void tendon_columns(int tendon) {
    columns_.clear();
    for (int c = 0; c < m_.nv; ++c) {
      if (efc_.dense || d_.ten_J(tendon, c) != 0) columns_.push_back(c);
    }
  }

  // ---- limits ----

  void limits() {
    const Joints& j = m_.joints;
    for (int i = 0; i < j.count(); ++i) {
      if (!j.limited[i]) continue;
      const int q = j.qpos_adr[i], dof = j.dof_adr[i];
      const double margin = j.margin[i];
      const double diag = m_.dofs.invweight0[dof];
      if (j.type[i] == JointType::kHinge || j.type[i] == JointType::kSlide) {
        // Lower side dist = q - lo (J = +1), upper side dist = hi - q (J = -1).
        const double value = d_.qpos[q];
        for (int side = 0; side < 2; ++side) {
          const double dist = side == 0 ? value - j.range[i][0] : j.range[i][1] - value;
          if (dist >= margin) continue;
          single_dof_columns(dof, 1);
          const double sign = side == 0 ? 1 : -1;
          const int first = rows_end();
          push_row(ConstraintType::kLimitJoint, i, dist, margin, 0, diag,
                   [&](int e) { return columns_[e] == dof ? sign : 0.0; });
          finish_constraint(first, j.solref[i], j.solimp[i], dist - margin, true);
        }
      } else if (j.type[i] == JointType::kBall) {
        // The rotation angle theta of the ball's quaternion against the
        // largest range value; J = -(unit rotation axis) on the 3 dofs.
        const Quaterniond quat =
            Quaterniond(d_.qpos[q], d_.qpos[q + 1], d_.qpos[q + 2], d_.qpos[q + 3]).normalized();
        const Vector3d axis_angle = rotation_vector(quat);
        const double theta = axis_angle.norm();
        const double dist = std::max(j.range[i][0], j.range[i][1]) - theta;
        if (dist >= margin) continue;
        const Vector3d axis = theta > kMinValue ? Vector3d(axis_angle / theta) : Vector3d(0, 0, 0);
        single_dof_columns(dof, 3);
        const int first = rows_end();
        push_row(ConstraintType::kLimitJoint, i, dist, margin, 0, diag, [&](int e) {
          const int c = columns_[e];
          return c >= dof && c < dof + 3 ? -axis[c - dof] : 0.0;
        });
        finish_constraint(first, j.solref[i], j.solimp[i], dist - margin, true);
      }
    }
    const Tendons& t = m_.tendons;
    for (int i = 0; i < t.count(); ++i) {
      if (!t.limited[i]) continue;
      const double length = d_.ten_length[i];
      for (int side = 0; side < 2; ++side) {
        const double dist = side == 0 ? length - t.range[i][0] : t.range[i][1] - length;
        if (dist >= t.margin[i]) continue;
        tendon_columns(i);
        const double sign = side == 0 ? 1 : -1;
        const int first = rows_end();
        push_row(ConstraintType::kLimitTendon, i, dist, t.margin[i], 0, t.invweight0[i],
                 [&](int e) { return sign * d_.ten_J(i, columns_[e]); });
        if (!rows_have_effect(first)) {
          drop_rows_from(first);
          continue;
        }
        finish_constraint(first, t.solref_limit[i], t.solimp_limit[i], dist - t.margin[i], true);
      }
    }
  }

  // Columns of dofs [dof, dof + count), or all dofs in the dense layout.
  void single_dof_columns(int dof, int count) {
    columns_.clear();
    const int begin = efc_.dense ? 0 : dof, end = efc_.dense ? m_.nv : dof + count;
    for (int c = begin; c < end; ++c) columns_.push_back(c);
  }

  static Vector3d rotation_vector(const Quaterniond& q) {
    // Axis times angle, with the angle in [0, pi] (q and -q are one rotation).
    Quaterniond quat = q.w() < 0 ? Quaterniond(-q.w(), -q.x(), -q.y(), -q.z()) : q;
    const double sine = quat.vec().norm();
    if (sine < kMinValue) return Vector3d::Zero();
    const double angle = 2 * std::atan2(sine, quat.w());
    return quat.vec() / sine * angle;
  }

  // ---- contacts ----

  void contact_rows(int begin, int end) {
    const Cone cone = m_.options.cone;
    const double impratio = m_.options.impratio;
    // A geom pair's contacts come one after another and share their bodies
    // (so their columns) and their solref and solimp: those are kept from
    // the previous contact while they repeat.
    int columns_b1 = -2, columns_b2 = -2;
    ContactConstants constants;
    for (int c = begin; c < end; ++c) {
      Contact& con = d_.contacts[c];
      con.efc_address = -1;
      if (con.dist >= con.includemargin) continue;
      const int g1 = con.geom1, g2 = con.geom2;
      const int b1 = m_.geoms.body[g1], b2 = m_.geoms.body[g2];
      if (b1 != columns_b1 || b2 != columns_b2) {
        select_columns(b1, b2);
        columns_b1 = b1;
        columns_b2 = b2;
      }
      const int dim = con.dim;
      const int ncolumns = static_cast<int>(columns_.size());
      contact_frame_jacobian(b1, b2, con);
      const double tran = body_weight(b1, 0) + body_weight(b2, 0);
      const double rot = body_weight(b1, 1) + body_weight(b2, 1);
      const int first = rows_end();
      con.efc_address = first;
      const double* frame_jac = frame_jac_.data();
      auto frame_row = [frame_jac, ncolumns](int r, int e) {
        return frame_jac[static_cast<size_t>(r) * ncolumns + e];
      };
      const double violation = con.dist - con.includemargin;
      constants.update(con.solref, con.solimp, m_.options);
      const SolImp& solimp = constants.solimp;
      // The regularised cone's mu, con.mu = f_0 sqrt(R1 / R0) with R1 = R0 /
      // impratio, is set below from the rows' R where dim > 1.
      if (dim == 1) {
        con.mu = con.friction[0] / std::sqrt(impratio);
        push_row(ConstraintType::kContactFrictionless, c, con.dist, con.includemargin, 0, tran,
                 [&](int e) { return frame_row(0, e); });
        finish_rows(first, solimp, constants.spring, violation, true);
      } else if (cone == Cone::kPyramidal) {
        // Edges J_n +- f_j J_j for each friction direction j; every edge
        // gets R = 2 mu^2 R0, R0 from the first edge's diagApprox
        // tran (1 + f_0^2).
        for (int j = 0; j < dim - 1; ++j) {
          const double f = con.friction[j];
          const double diag = tran + f * f * (j < 2 ? tran : rot);
          // The two edges written out (a loop over the signs mispredicted
          // its end at every contact).
          const double* normal = frame_jac;
          const double* tangent = frame_jac + static_cast<size_t>(j + 1) * ncolumns;
          const auto edge = [&](double sign) {
            const double scale = sign * f;
            push_row(ConstraintType::kContactPyramidal, c, con.dist, con.includemargin, 0, diag,
                     [normal, tangent, scale](int e) { return normal[e] + scale * tangent[e]; });
          };
          edge(1.0);
          edge(-1.0);
        }
        finish_pyramid(con, first, solimp, constants.spring, violation, impratio);
      } else {
        for (int j = 0; j < dim; ++j) {
          const double diag = j < 3 ? tran : rot;
          push_row(ConstraintType::kContactElliptic, c, j == 0 ? con.dist : 0,
                   j == 0 ? con.includemargin : 0, 0, diag, [&](int e) { return frame_row(j, e); });
        }
        finish_rows(first, solimp, constants.spring, violation, true);
        // Friction rows have no spring, and a damping from solreffriction
        // when the contact has one (an explicit pair's), as MuJoCo 3.3.8;
        // R1 = R0 / impratio, and each further direction scales by
        // (f_0 / f_j)^2 so the cone is isotropic in force.
        for (int j = 1; j < dim; ++j) efc_.impedance[first + j].K = 0;
        if (!(con.solreffriction == SolRef{0, 0})) {
          const SpringDamper friction_kb =
              reference_spring(sanitize(con.solreffriction), solimp.dmax, m_.options.timestep,
                               m_.options.flags.refsafe);
          for (int j = 1; j < dim; ++j) efc_.impedance[first + j].B = friction_kb.B;
        }
        const double r1 = friction_regulariser(con, efc_.R[first], impratio);
        const double f0 = con.friction[0];
        adjust_contact_regulariser(first + 1, [&](int j) {
          return j == 0 ? r1 : r1 * f0 * f0 / (con.friction[j] * con.friction[j]);
        });
      }
    }
  }

  // A contact's solref and solimp as the rows use them (sanitised) and its
  // reference spring, recomputed only when the raw values change (compared
  // bit for bit, so -0 and NaN entries are never taken for others).
  struct ContactConstants {
    SolRef solref_in;
    SolImp solimp_in;
    bool valid = false;
    SolImp solimp;
    SpringDamper spring{0, 0};

    void update(const SolRef& solref_new, const SolImp& solimp_new, const Options& options) {
      if (valid && std::memcmp(&solref_new, &solref_in, sizeof(SolRef)) == 0 &&
          std::memcmp(&solimp_new, &solimp_in, sizeof(SolImp)) == 0) {
        return;
      }
      solref_in = solref_new;
      solimp_in = solimp_new;
      valid = true;
      solimp = sanitize(solimp_new);
      spring = reference_spring(sanitize(solref_new), solimp.dmax, options.timestep,
                                options.flags.refsafe);
    }
  };

  // frame_jac_ (row r, column e at r * ncolumns + e; rows [0, dim)) of a
  // contact between b1 and b2 over columns_ (the dofs that move either):
  // row r of the contact frame applied to Jdif = J(b2) - J(b1) at the
  // contact point, 0 normal, 1-2 tangents (translation), 3 spin about the
  // normal, 4-5 rolling about the tangents (rotation). Each column of Jdif
  // sums J(b2) into zero, then -J(b1), as the scratch path does for the
  // other constraints.
  void contact_frame_jacobian(int b1, int b2, const Contact& con) {
    const int ncolumns = static_cast<int>(columns_.size());
    const int dim = con.dim;
    frame_jac_.resize(static_cast<size_t>(6) * ncolumns);
    const Vector3d offset1 = con.pos - d_.subtree_com[m_.bodies.root[b1]];
    const Vector3d offset2 = con.pos - d_.subtree_com[m_.bodies.root[b2]];
    // Both chains descend, columns_ ascends: one walk down the columns.
    int i = last_dof_of_chain(m_, b1), j = last_dof_of_chain(m_, b2);
    double* out = frame_jac_.data();
    const Eigen::Matrix3d& frame = con.frame;
    const bool rotation_rows = dim > 3;
    for (int e = ncolumns - 1; e >= 0; --e) {
      const int k = columns_[e];
      // Column e of Jdif, translation and rotation, kept in registers.
      Vector3d translation = Vector3d::Zero(), rotation = Vector3d::Zero();
      const auto add = [&](const Vector3d& offset, double sign) {
        const Vector3d w = angular(d_.cdof[k]);
        const Vector3d v = linear(d_.cdof[k]) + w.cross(offset);
        translation += sign * v;
        rotation += sign * w;
      };
      if (k == j) {
        add(offset2, 1);
        j = m_.dofs.parent[j];
      }
      if (k == i) {
        add(offset1, -1);
        i = m_.dofs.parent[i];
      }
      // The translation rows always (rows past dim are room, unread), the
      // rotation rows when the contact has any.
      for (int axis = 0; axis < 3; ++axis) {
        out[static_cast<size_t>(axis) * ncolumns + e] = frame(axis, 0) * translation[0] +
                                                        frame(axis, 1) * translation[1] +
                                                        frame(axis, 2) * translation[2];
      }
      if (rotation_rows) {
        for (int axis = 0; axis < 3; ++axis) {
          out[static_cast<size_t>(3 + axis) * ncolumns + e] = frame(axis, 0) * rotation[0] +
                                                              frame(axis, 1) * rotation[1] +
                                                              frame(axis, 2) * rotation[2];
        }
      }
    }
  }

  // R1 = R0 / impratio, a contact's first friction regulariser, returned;
  // con.mu becomes the regularised cone's f_0 sqrt(R1 / R0). Each operation
  // in MuJoCo 3.3.8's order.
  static double friction_regulariser(Contact& con, double r0, double impratio) {
    const double r1 = r0 / std::max(kMinValue, impratio);
    con.mu = con.friction[0] * std::sqrt(r1 / r0);
    return r1;
  }

  // R of rows [first, end) from rule(j) (j counts from 0 within the rows
  // being adjusted); diagApprox then reads back as R d / (1 - d).
  template <class Rule>
  void adjust_contact_regulariser(int first, Rule rule) {
    for (int i = first, j = 0; i < rows_end(); ++i, ++j) {
      efc_.R[i] = rule(j);
      efc_.D[i] = 1 / efc_.R[i];
      const double d = efc_.impedance[i].d;
      efc_.diag_approx[i] = efc_.R[i] * d / (1 - d);
    }
  }

  const Model& m_;
  Data& d_;
  ConstraintRows& efc_;
  Eigen::MatrixXd& jac_;
  std::vector<int>& columns_;
  std::vector<double>& frame_jac_;  // one contact's Jacobian in its frame, dim x ncolumns
  int cursor_row_ = -1;             // >= 0: rows are written from here (contacts_from)
  int cursor_entry_ = 0;            // ... and their Jacobian entries from here
  int end_row_ = 0;                 // the first assembler: the rows written so far
  int end_entry_ = 0;               // ... and the end of their Jacobian entries
};

// Below this many contacts a step's contact rows are built on one thread;
// above it, each task builds this many.
constexpr int kContactsPerTask = 128;

}  // namespace

void assemble_constraints(const Model& m, Data& d) {
  Workspace& w = workspace(d);
  Assembler rows(m, d, w.assembly.value, true);
  rows.all_but_contacts();
  const OptionFlags& f = m.options.flags;
  const int count = f.constraint && f.contact ? static_cast<int>(d.contacts.size()) : 0;
  if (count == 0) {
    rows.finish_rows();
    return;
  }
  // Every contact's rows are sized first (one resize of each row array,
  // not one per row), then slices of the contacts fill their own rows,
  // each as one thread would.
  rows.size_contact_rows(w.contact_row_start, w.contact_entry_start);
  if (d.threads <= 1 || count <= kContactsPerTask) {
    rows.contacts_from(0, count, w.contact_row_start[0], w.contact_entry_start[0]);
    return;
  }
  if (static_cast<int>(w.assembly_workers.value.size()) < d.threads - 1) {
    w.assembly_workers.value.resize(d.threads - 1);
  }
  const int tasks = (count + kContactsPerTask - 1) / kContactsPerTask;
  w.pool.run(d.threads, tasks, [&](int task, int worker) {
    AssemblyScratch& scratch =
        worker == 0 ? w.assembly.value : w.assembly_workers.value[worker - 1];
    const int begin = task * kContactsPerTask, end = std::min(count, begin + kContactsPerTask);
    Assembler(m, d, scratch, false)
        .contacts_from(begin, end, w.contact_row_start[begin], w.contact_entry_start[begin]);
  });
}

void constraint_reference(const Model&, Data& d) {
  ConstraintRows& efc = d.efc;
  const int n = efc.count();
  efc.vel.resize(n);
  efc.aref.resize(n);
  // Each row on its own: slices of rows side by side on several threads.
  const auto rows = [&](int begin, int end) {
    const double* qvel = d.qvel.data();
    for (int i = begin; i < end; ++i) {
      double v = 0;
      const double* jac = efc.J.data() + efc.row_adr[i];
      const int* cols = efc.col.data() + efc.row_adr[i];
      with_row_length(efc.row_nnz[i], [&](auto length) {
        const int count = row_length<length>(efc.row_nnz[i]);
#pragma GCC unroll 12
        for (int k = 0; k < count; ++k) v += jac[k] * qvel[cols[k]];
      });
      efc.vel[i] = v;
      const Impedance& imp = efc.impedance[i];
      efc.aref[i] = -imp.B * v - imp.K * imp.d * (efc.pos[i] - efc.margin[i]);
    }
  };
  if (d.threads <= 1 || n < 2 * kRowsPerChunk) {
    rows(0, n);
    return;
  }
  const int slices = row_chunks(n);
  workspace(d).pool.run(d.threads, slices, [&](int k, int) {
    rows(slice_begin(n, k, slices), slice_begin(n, k + 1, slices));
  });
}

}  // namespace pliant
