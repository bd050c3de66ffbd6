#pragma once

#include <type_traits>

namespace pliant {

// A Jacobian row's length as the compiler sees it. Most rows list the
// columns of one free body (6) or of two (12): a contact between boxes, or
// between a box and the ground. Loops over such rows end at a different
// count on every row and mispredict that end, and their set-up costs as
// much as a few entries. with_row_length(n, body) calls
// body(std::integral_constant<int, N>) with N = n for these two lengths and
// N = 0 (known only at run time) otherwise. Inside, row_length<N>(n) is the
// length: a constant where N > 0, so the loop unrolls completely.
template <class Body>
[[gnu::always_inline]] inline void with_row_length(int n, Body&& body) {
  if (n == 6) {
    body(std::integral_constant<int, 6>());
  } else if (n == 12) {
    body(std::integral_constant<int, 12>());
  } else {
    body(std::integral_constant<int, 0>());
  }
}

template <int N>
constexpr int row_length(int n) {
  return N > 0 ? N : n;
}

}  // namespace pliant
