# Installation and the CMake package (cmake --install <build> --prefix P):
#
#   P/include/layoutkit/...                  every public header
#   P/lib/liblk_<layer>.a                    one static library per layer
#   P/lib/cmake/LayoutKit/LayoutKitConfig.cmake (+ Version, Targets)
#   P/bin/layoutkit                          the CLI, when it is built
#
# find_package(LayoutKit CONFIG) then defines LayoutKit::<layer> for every
# layer of docs/design.md §1 (core, cute, linear, tile, bridge, hw, plan,
# and any layer added with lk_add_layer) and LayoutKit::layoutkit, all of
# them. The same names exist as aliases in a build that adds LayoutKit with
# add_subdirectory. Exported targets carry include directories, the C++20
# requirement and their dependencies on lower layers; no compile option.
include(CMakePackageConfigHelpers)

set(LK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/LayoutKit
    CACHE STRING "Where LayoutKitConfig.cmake is installed, under the prefix")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/layoutkit
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(TARGETS ${LK_LAYER_TARGETS} layoutkit_lib
        EXPORT LayoutKitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT LayoutKitTargets
        NAMESPACE LayoutKit::
        FILE LayoutKitTargets.cmake
        DESTINATION ${LK_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/LayoutKitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/LayoutKitConfig.cmake
  INSTALL_DESTINATION ${LK_INSTALL_CMAKEDIR})
# 0.x: a minor version may break the API, so only the same minor matches.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/LayoutKitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/LayoutKitConfig.cmake
              ${PROJECT_BINARY_DIR}/LayoutKitConfigVersion.cmake
        DESTINATION ${LK_INSTALL_CMAKEDIR})

if(TARGET layoutkit)
  install(TARGETS layoutkit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
