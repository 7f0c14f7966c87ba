# cmake -DMODE=install|subproject -DLK_SOURCE_DIR=... -DLK_BINARY_DIR=...
#       -DWORK_DIR=... -DGENERATOR=... -DCXX_COMPILER=... [-DLAUNCHER=...]
#       -P RunConsumer.cmake
#
# install:    cmake --install LK_BINARY_DIR --prefix WORK_DIR/prefix, checks
#             the installed layout and that the exported targets carry no
#             compile option, then configures consumer/ against the prefix
#             (find_package) and builds it, with every installed header
#             compiled on its own.
# subproject: configures subproject/ (add_subdirectory of LK_SOURCE_DIR) and
#             builds its consumer (and the layers it links).
# Both check that neither -O3 nor a warning flag of LayoutKit's own build
# reached the consumer's compile command, run the consumer and compare its
# output with consumer.expected.
cmake_minimum_required(VERSION 3.25)
set(here ${CMAKE_CURRENT_LIST_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

function(require_file path)
  if(NOT EXISTS ${path})
    message(FATAL_ERROR "not installed: ${path}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(build ${WORK_DIR}/build)
# RelWithDebInfo (CMake: -O2 -g) is a configuration in which the layers
# build with -O3; the subproject builds the layers itself, in Debug to keep
# the test short (the installed libraries are already built).
if(MODE STREQUAL "install")
  set(config RelWithDebInfo)
else()
  set(config Debug)
endif()
set(common -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
           -DCMAKE_BUILD_TYPE=${config} -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
if(LAUNCHER)
  list(APPEND common -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

if(MODE STREQUAL "install")
  set(prefix ${WORK_DIR}/prefix)
  run("cmake --install" ${CMAKE_COMMAND} --install ${LK_BINARY_DIR} --prefix ${prefix})
  file(GLOB cfg ${prefix}/lib*/cmake/LayoutKit/LayoutKitConfig.cmake)
  if(NOT cfg)
    message(FATAL_ERROR "not installed: lib/cmake/LayoutKit/LayoutKitConfig.cmake")
  endif()
  get_filename_component(cfgdir ${cfg} DIRECTORY)
  get_filename_component(libdir ${cfgdir}/../.. ABSOLUTE)
  foreach(layer core cute linear tile bridge hw plan)
    require_file(${libdir}/liblk_${layer}.a)
    require_file(${prefix}/include/layoutkit/${layer})
  endforeach()
  require_file(${cfgdir}/LayoutKitConfigVersion.cmake)
  # No flag may reach a consumer: the exported targets set no options.
  file(GLOB target_files ${cfgdir}/LayoutKitTargets*.cmake)
  foreach(f ${target_files})
    file(READ ${f} text)
    if(text MATCHES "INTERFACE_COMPILE_OPTIONS|INTERFACE_LINK_OPTIONS")
      message(FATAL_ERROR "${f} exports compile or link options")
    endif()
  endforeach()
  run("configuring consumer/" ${CMAKE_COMMAND} -S ${here}/consumer -B ${build}
      ${common} -DCMAKE_PREFIX_PATH=${prefix})
elseif(MODE STREQUAL "subproject")
  run("configuring subproject/" ${CMAKE_COMMAND} -S ${here}/subproject -B ${build}
      ${common} -DLAYOUTKIT_SOURCE_DIR=${LK_SOURCE_DIR})
else()
  message(FATAL_ERROR "MODE must be install or subproject, not '${MODE}'")
endif()

if(MODE STREQUAL "install")
  run("building the consumer" ${CMAKE_COMMAND} --build ${build} -j 2)
else()
  run("building the consumer" ${CMAKE_COMMAND} --build ${build} -j 2 --target consumer)
endif()

# The consumer's own compile command: the layers build with -O3 (in
# RelWithDebInfo) and -Wall -Wextra, which must not have reached it.
file(READ ${build}/compile_commands.json commands)
string(REGEX MATCH "\"command\": \"[^\"]*consumer[^\"]*main\\.cpp[^\"]*\"" main_cmd "${commands}")
if(NOT main_cmd)
  message(FATAL_ERROR "no compile command for consumer/main.cpp in ${build}")
endif()
foreach(flag -O3 -Wall -Wextra)
  string(FIND "${main_cmd}" " ${flag}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "LayoutKit forced ${flag} on its consumer: ${main_cmd}")
  endif()
endforeach()

run("running the consumer" ${build}/consumer)
file(READ ${here}/consumer/consumer.expected expected)
if(NOT run_output STREQUAL expected)
  message(FATAL_ERROR "consumer printed\n${run_output}\nexpected\n${expected}")
endif()
message(STATUS "consumer (${MODE}) OK:\n${run_output}")
