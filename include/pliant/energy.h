#pragma once

// The model's energy, as MuJoCo's mj_energyPos and mj_energyVel.

#include "pliant/data.h"

namespace pliant {

// Potential energy (gravity and springs of joints and tendons, J) and
// kinetic energy (1/2 qvel^T M qvel, J) into data.energy_potential and
// data.energy_kinetic. Needs the position and velocity stages; forward()
// calls it when the energy flag is on.
void compute_energy(const Model& model, Data& data);

}  // namespace pliant
