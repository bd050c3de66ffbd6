#pragma once

#include "pliant/data.h"
#include "solvers/constraint_problem.h"

namespace pliant {

// The constraint stage: builds the solvers' ConstraintProblem from the
// model and the rows in data.efc, picks the start (qacc_warmstart when the
// warmstart flag is on and its total cost is lower than at qacc_smooth,
// else qacc_smooth), runs options.solver (Newton, CG or PGS) and writes
// data.qacc, data.efc.force, data.qfrc_constraint and data.solver. Hitting
// the iteration limit without convergence records kSolverLimit. With no
// rows, qacc = qacc_smooth and qfrc_constraint = 0. Newton and CG solve
// island by island (engine/constraint/islands.h) unless the island flag is
// off or noslip is on; noslip follows any solver. Needs the acceleration
// stage (qacc_smooth) and constraint_reference (aref).
void solve_constraints(const Model& model, Data& data);

// The rows of data.efc as the solvers see them: pointers into the model and
// data, the elliptic cone groups built into data's workspace. The start
// (qacc_start and what goes with it) is left unset; solve_constraints
// chooses it.
ConstraintProblem constraint_problem(const Model& model, Data& data);

// Contact c's force in its contact frame (normal, tangent 1, tangent 2,
// torsion, rolling 1, rolling 2; `dim` entries, the rest zero) from
// data.efc.force: elliptic rows are the frame components; pyramid edges
// (f+, f-) of direction j give normal sum(f+ + f-) and friction
// mu_j (f+ - f-).
void contact_force(const Model& model, const Data& data, int contact, double force[6]);

// The rows' forces at data.qacc in closed form, without solving:
// efc.force = f(J qacc - aref) by each row's cost, qfrc_constraint = J^T f
// (inverse dynamics, and the derivatives' chord steps).
void constraint_forces(const Model& model, Data& data);

}  // namespace pliant
