# Install and export: headers under include/pliant/<folder>/, the libraries,
# and a package config so that outside projects can find_package(pliant).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

foreach(target pliant_model pliant_solvers pliant_engine)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/pliant>)
endforeach()
set_target_properties(pliant_model PROPERTIES EXPORT_NAME model)
set_target_properties(pliant_solvers PROPERTIES EXPORT_NAME solvers)
set_target_properties(pliant_engine PROPERTIES EXPORT_NAME engine)

install(TARGETS pliant_model pliant_solvers pliant_engine EXPORT pliantTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(folder model solvers engine)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${folder}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pliant/${folder}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(EXPORT pliantTargets NAMESPACE pliant::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pliant)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pliantConfig.cmake.in
  ${PROJECT_BINARY_DIR}/pliantConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pliant)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pliantConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pliantConfig.cmake ${PROJECT_BINARY_DIR}/pliantConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/pliant)
