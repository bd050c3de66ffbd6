#pragma once

// The constraint rows of one step (MuJoCo's efc_* arrays), in the order
// equality, friction loss, limits, contacts. Vectors are cleared and refilled
// each step and keep their capacity, so a steady-state step does not allocate.
//
// The Jacobian is stored row-sparse (CSR): row i lists row_nnz[i] columns
// col[row_adr[i] ...] with values J[row_adr[i] ...], ascending. In the dense
// layout every row lists all nv columns; both layouts hold identical values.

#include <vector>

#include "pliant/impedance.h"
#include "pliant/solver_statistics.h"

namespace pliant {

// Row kinds with MuJoCo's mjtConstraint codes: the solvers' own enum, so the
// rows go to the solvers without conversion.
using ConstraintType = RowType;

struct ConstraintRows {
  std::vector<ConstraintType> type;
  std::vector<int> id;               // equality, dof, joint, tendon or contact id
  std::vector<double> pos;           // violation (distance for contacts), m or rad
  std::vector<double> margin;        // m or rad
  std::vector<double> frictionloss;  // N or N m, friction-loss rows only
  std::vector<double> diag_approx;   // approximation of the diagonal of J M^-1 J^T
  std::vector<double> R, D;          // regulariser and its inverse
  std::vector<Impedance> impedance;  // K, B, d, d'
  std::vector<double> vel;           // J qvel
  std::vector<double> aref;          // reference acceleration
  std::vector<double> force;         // solver output
  std::vector<int> row_nnz, row_adr, col;
  std::vector<double> J;
  bool dense = true;  // layout of the current rows

  int count() const { return static_cast<int>(type.size()); }
  void clear();
};

}  // namespace pliant
