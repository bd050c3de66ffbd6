#pragma once

// Scratch memory that stays with its owner: copying or assigning the owner
// (a Data's copy, reset_data) leaves the target with its own, so buffers it
// has grown are not freed and grown again. Only for memory whose contents
// are rewritten before every use. Internal to the engine.

namespace pliant {

template <class T>
struct Kept {
  T value;

  Kept() = default;
  Kept(const Kept&) {}
  Kept& operator=(const Kept&) { return *this; }
};

}  // namespace pliant
