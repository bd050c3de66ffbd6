#include "engine/tendon.h"

namespace pliant {

void tendon_kinematics(const Model&, Data& data) {
  data.ten_length.setZero();
  data.ten_J.setZero();
}

}  // namespace pliant
