# Compiler warnings for Pliant's own targets (not for a project that adds
# Pliant as a subdirectory): pliant_target_warnings(TARGET) turns them on,
# and makes them errors when PLIANT_WERROR is on (CI builds with it).
function(pliant_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(PLIANT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # GCC 12 reports std::string concatenation inlined at -O3 as overlapping
  # memcpy (-Wrestrict, GCC bug 105329): a false positive in libstdc++.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  # With AVX, GCC reports Eigen's four-double loads on fixed-size 3-vectors
  # as out of bounds (-Warray-bounds) in branches Eigen takes only for sizes
  # of four and more; the AddressSanitizer stage, built with AVX too, checks
  # that no such read happens.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND PLIANT_AVX)
    target_compile_options(${target} PRIVATE -Wno-array-bounds)
  endif()
endfunction()
