# Install and export: the libraries, the public headers (an explicit list,
# under include/pliant/), and a package config so that outside projects can
# find_package(pliant) and include <pliant/pliant.h>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# In the build tree the sources are included as "engine/data.h" and the
# umbrella as <pliant/pliant.h>; installed, only include/ is on the path, so
# a user's own model/model.h cannot shadow Pliant's (the public headers
# include each other by relative paths).
foreach(target pliant_model pliant_solvers pliant_engine)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()
set_target_properties(pliant_model PROPERTIES EXPORT_NAME model)
set_target_properties(pliant_solvers PROPERTIES EXPORT_NAME solvers)
set_target_properties(pliant_engine PROPERTIES EXPORT_NAME engine)

install(TARGETS pliant_model pliant_solvers pliant_engine EXPORT pliantTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The public API. Everything else (workspaces, solver internals, collision
# and assembly helpers) stays inside the libraries.
set(PLIANT_PUBLIC_HEADERS
  include/pliant/pliant.h
  include/pliant/version.h
  model/load_error.h
  model/model.h
  model/sensor_types.h
  model/solver_params.h
  solvers/statistics.h
  engine/collision/contact.h
  engine/constraint/constraint_rows.h
  engine/constraint/impedance.h
  engine/data.h
  engine/forward.h
  engine/impact.h
  engine/load.h
  engine/profile.h
  engine/ray.h
  engine/tuning.h
)
foreach(header ${PLIANT_PUBLIC_HEADERS})
  get_filename_component(folder ${header} DIRECTORY)
  string(REGEX REPLACE "^include/pliant/?" "" folder "${folder}")
  install(FILES ${PROJECT_SOURCE_DIR}/${header}
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pliant/${folder})
endforeach()

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
