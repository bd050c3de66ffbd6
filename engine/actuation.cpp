#include "engine/actuation.h"

namespace pliant {

void transmission(const Model&, Data& data) {
  data.actuator_length.setZero();
  data.actuator_moment.setZero();
}

void actuation(const Model&, Data& data) {
  data.actuator_force.setZero();
  data.qfrc_actuator.setZero();
  data.act_dot.setZero();
}

}  // namespace pliant
