#pragma once

#include <cstddef>
#include <vector>

namespace pliant {

// Grows v to n entries at least. Solver arrays never shrink: a step solves
// its islands one after another, and a resize after a smaller island would
// clear the tail again each time (a pile's big island refilled 3 MB a step).
template <class T>
void grow(std::vector<T>& v, size_t n) {
  if (v.size() < n) v.resize(n);
}

}  // namespace pliant
