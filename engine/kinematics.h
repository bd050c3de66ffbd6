#pragma once

#include "pliant/data.h"

namespace pliant {

// Body, joint, geom and site poses in the world from qpos (and mocap poses).
void kinematics(const Model& model, Data& data);

// Subtree centres of mass, com-based body inertias (cinert) and dof motion
// axes (cdof), all about subtree_com[root] of each body's tree.
void com_positions(const Model& model, Data& data);

// Body velocities (cvel) and the time derivatives of the dof axes (cdof_dot).
void com_velocities(const Model& model, Data& data);

// The last dof on the chain from `body` to the world (-1 if the chain has
// none): the start of a walk through dofs.parent covering every dof that
// moves the body.
int last_dof_of_chain(const Model& model, int body);

}  // namespace pliant
