#include "pliant/version.h"

namespace pliant {

const char* version() { return PLIANT_VERSION; }

}  // namespace pliant
