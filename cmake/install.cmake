# Install and export: the libraries, the public headers (include/pliant/ as
# it is), and a package config so that outside projects can
# find_package(pliant) and include <pliant/pliant.h>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Every header a user may include lives in include/pliant/ and is included
# as <pliant/NAME.h>; the headers beside the sources are internal and never
# installed. Users get C++20 through the targets (the public headers use it).
foreach(target pliant_model pliant_solvers pliant_engine)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  # Eigen aligns its heap blocks and fixed-size members to the widest vector
  # the compiler may use: 32 bytes with AVX (PLIANT_AVX), 16 without, and
  # frees a block by the same rule. The public headers hold Eigen types, so
  # code that uses them must be compiled for the same instruction set as the
  # libraries (else it frees Pliant's blocks with the wrong deallocator):
  # the targets hand -mavx on to their users.
  if(PLIANT_AVX)
    target_compile_options(${target} INTERFACE -mavx)
  endif()
endforeach()
set_target_properties(pliant_model PROPERTIES EXPORT_NAME model)
set_target_properties(pliant_solvers PROPERTIES EXPORT_NAME solvers)
set_target_properties(pliant_engine PROPERTIES EXPORT_NAME engine)

install(TARGETS pliant_model pliant_solvers pliant_engine EXPORT pliantTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pliant
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

install(EXPORT pliantTargets NAMESPACE pliant::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pliant)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pliantConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pliantConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pliant)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pliantConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pliantConfig.cmake ${PROJECT_BINARY_DIR}/pliantConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/pliant_dependencies.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pliant)
