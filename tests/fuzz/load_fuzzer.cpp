// libFuzzer target for the Pliant model loader. Every input must either load
// or raise pliant::LoadError; a crash, a sanitizer report or any other
// exception escaping the loader is a bug. See README.md in this folder.

#include <cstddef>
#include <cstdint>
#include <string>

#include "pliant/load.h"
#include "pliant/load_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string xml(reinterpret_cast<const char*>(data), size);
  try {
    // Includes and asset files resolve against a folder that does not exist,
    // so the loader must report them as missing rather than read anything.
    pliant::load_model_from_string(xml, "/nonexistent-pliant-fuzz-dir", "<fuzz>");
  } catch (const pliant::LoadError&) {
    // Rejecting a bad model with a LoadError is the expected outcome.
  }
  return 0;
}
