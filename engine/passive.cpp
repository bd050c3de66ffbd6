#include "engine/passive.h"

namespace pliant {

void passive_forces(const Model&, Data& data) { data.qfrc_passive.setZero(); }

}  // namespace pliant
