# AVX, as MuJoCo builds by default (-mavx): Eigen and the solver's loops use
# four doubles a vector instead of two. No FMA: contraction stays off
# (-ffp-contract=off), so the results do not depend on the instruction set
# beyond the order of Eigen's vectorised sums. On by default when the
# compiler takes the flag and this machine's processor runs AVX code; a
# binary built with it needs such a processor (every x86-64 one since 2011).
include(CheckCXXSourceRuns)
set(CMAKE_REQUIRED_FLAGS -mavx)
check_cxx_source_runs([[
#include <immintrin.h>
int main() {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx")) return 1;
  volatile double in[4] = {1, 2, 3, 4};
  double out[4];
  _mm256_storeu_pd(out, _mm256_add_pd(_mm256_set_pd(in[3], in[2], in[1], in[0]),
                                      _mm256_set1_pd(1.0)));
  return out[3] == 5 ? 0 : 1;
}]] PLIANT_HOST_RUNS_AVX)
unset(CMAKE_REQUIRED_FLAGS)
option(PLIANT_AVX "Compile with AVX (-mavx); needs a processor with AVX to run"
       ${PLIANT_HOST_RUNS_AVX})
if(PLIANT_AVX)
  add_compile_options(-mavx)
endif()
