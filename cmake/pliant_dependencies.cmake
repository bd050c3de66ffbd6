# The libraries Pliant's static libraries need, as targets. Used by the build
# and, installed beside pliantConfig.cmake, by find_package(pliant), so that
# an outside project links the same libraries.
include(CMakeFindDependencyMacro)
find_dependency(Eigen3 3.4 NO_MODULE)
find_dependency(tinyxml2)
# The engine's threads (transition derivatives' position columns).
find_dependency(Threads)
if(NOT TARGET pliant_deps::tinyobjloader)
  find_library(PLIANT_TINYOBJLOADER_LIBRARY tinyobjloader)
  find_library(PLIANT_QHULL_LIBRARY qhull_r)
  find_library(PLIANT_STB_LIBRARY stb)
  find_path(PLIANT_STB_INCLUDE_DIR stb_image.h PATH_SUFFIXES stb)
  foreach(dep TINYOBJLOADER QHULL STB)
    if(NOT PLIANT_${dep}_LIBRARY)
      set(message
          "Pliant needs ${dep} (Debian: libtinyobjloader-dev, libqhull-dev, libstb-dev)")
      if(CMAKE_FIND_PACKAGE_NAME STREQUAL "pliant")
        set(pliant_FOUND FALSE)
        set(pliant_NOT_FOUND_MESSAGE "${message}")
        return()
      endif()
      message(FATAL_ERROR "${message}")
    endif()
  endforeach()
  add_library(pliant_deps::tinyobjloader UNKNOWN IMPORTED)
  set_target_properties(pliant_deps::tinyobjloader PROPERTIES
    IMPORTED_LOCATION "${PLIANT_TINYOBJLOADER_LIBRARY}")
  add_library(pliant_deps::qhull_r UNKNOWN IMPORTED)
  set_target_properties(pliant_deps::qhull_r PROPERTIES IMPORTED_LOCATION "${PLIANT_QHULL_LIBRARY}")
  # stb_image decodes PNG height fields; the library carries the implementation.
  add_library(pliant_deps::stb UNKNOWN IMPORTED)
  set_target_properties(pliant_deps::stb PROPERTIES
    IMPORTED_LOCATION "${PLIANT_STB_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PLIANT_STB_INCLUDE_DIR}")
endif()
