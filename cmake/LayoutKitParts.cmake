# lk_add_part(<option> <dir> [PACKAGES <package>...])
#
# Adds the subdirectory <dir> when the option <option> is on. The packages
# are the third-party packages <dir> needs (its CMakeLists.txt finds them
# again, REQUIRED):
#   - LayoutKit is the top-level project: the packages are required, so a
#     missing one stops the configuration with CMake's own message;
#   - LayoutKit is a subproject (add_subdirectory): a missing package skips
#     the part with a status message and turns <option> off for the rest of
#     the configuration, so a consumer never needs GoogleTest, Google
#     Benchmark, CLI11 or nlohmann_json to build the libraries.
#
# Example: lk_add_part(LK_BUILD_BENCH bench PACKAGES benchmark)
function(lk_add_part option dir)
  cmake_parse_arguments(ARG "" "" "PACKAGES" ${ARGN})
  if(NOT ${option})
    return()
  endif()
  if(NOT PROJECT_IS_TOP_LEVEL)
    foreach(pkg ${ARG_PACKAGES})
      find_package(${pkg} QUIET)
      if(NOT ${pkg}_FOUND)
        message(STATUS "LayoutKit: ${dir}/ skipped, ${pkg} not found (${option})")
        set(${option} OFF PARENT_SCOPE)
        return()
      endif()
    endforeach()
  endif()
  add_subdirectory(${dir})
endfunction()
