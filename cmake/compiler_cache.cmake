# Compiling through ccache, when it is installed (.ci/install-deps installs
# it): a rebuild, another preset's build of the same files, or a fresh clone
# of a commit this machine has compiled before, compiles only what changed.
# Paths are hashed relative to the source folder and the working directory
# is left out of the hash (debug builds), so two clones of the project
# share their objects. PLIANT_CCACHE=OFF, or a launcher of one's own,
# compiles directly.
option(PLIANT_CCACHE "Compile through ccache when it is installed" ON)
find_program(PLIANT_CCACHE_PROGRAM ccache)
if(PLIANT_CCACHE AND PLIANT_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
      ${PLIANT_CCACHE_PROGRAM})
  message(STATUS "Compiling through ${PLIANT_CCACHE_PROGRAM} (PLIANT_CCACHE=OFF to compile directly)")
endif()
