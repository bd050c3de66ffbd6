#pragma once

// Pliant's version, as the library that was linked reports it.

namespace pliant {

// "MAJOR.MINOR.PATCH" of the linked library (CMake's project version).
const char* version();

}  // namespace pliant
