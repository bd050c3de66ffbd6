#pragma once

// Sensors (model/sensor_types.h): each stage's sensors write their values
// into Data::sensordata at the stage MuJoCo computes them, clipped by their
// cutoff. forward() calls them; the `sensor` disable flag leaves sensordata
// as it was. Noise is stored in the model and not applied, as in MuJoCo.

#include "pliant/data.h"

namespace pliant {

// Magnetometer, rangefinder, camera projection, positions, limits, frames,
// subtree centres, distances, clock and energies. After forward_position.
void sensors_position(const Model& model, Data& data);
// Velocimeter, gyro, velocities, frame velocities, subtree momenta. After
// forward_velocity.
void sensors_velocity(const Model& model, Data& data);
// Touch, accelerometer, force, torque, actuator and limit forces, frame
// accelerations. After the constraint solver.
void sensors_acceleration(const Model& model, Data& data);

}  // namespace pliant
