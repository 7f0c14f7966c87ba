# Checks the library's layering (docs/design.md §1); run with cmake -P:
#
#   cmake -DROOT=<source root> -DORDER=<order> -DDEPS=<deps> \
#         -P cmake/CheckLayering.cmake
#
# ORDER lists the layers bottom to top, separated by '|'; layers that may not
# include each other share a group, separated by ',':
#   "core|cute,linear|tile|bridge|hw|plan|api"
# DEPS gives each layer's CMake dependencies as "layer=dep,dep" entries
# separated by '|' ("tile=core|bridge=core,cute,linear,tile"); a layer left
# out has no CMake target (headers only), and only the order is checked.
#
# A layer is a directory include/layoutkit/<layer>/ or src/<layer>/. For every
# header and source of a layer, each `#include "layoutkit/<other>/..."` must
# name the layer itself or a layer of a lower group, and no file may reach
# into another directory with "../". A layer's CMake dependencies must be
# exactly the layers its files include. Fails (non-zero exit) listing every
# violation.
cmake_minimum_required(VERSION 3.25)

if(NOT ROOT OR NOT ORDER)
  message(FATAL_ERROR "CheckLayering: ROOT and ORDER are required")
endif()

# rank_<layer>: the index of its group.
string(REPLACE "|" ";" groups "${ORDER}")
set(rank 0)
set(known "")
foreach(group ${groups})
  string(REPLACE "," ";" members "${group}")
  foreach(layer ${members})
    set(rank_${layer} ${rank})
    list(APPEND known ${layer})
  endforeach()
  math(EXPR rank "${rank} + 1")
endforeach()

# has_target_<layer> / deps_<layer> from DEPS.
string(REPLACE "|" ";" entries "${DEPS}")
foreach(entry ${entries})
  if(NOT entry MATCHES "^([a-z_]+)=(.*)$")
    message(FATAL_ERROR "CheckLayering: bad DEPS entry '${entry}'")
  endif()
  set(layer ${CMAKE_MATCH_1})
  string(REPLACE "," ";" d "${CMAKE_MATCH_2}")
  list(REMOVE_DUPLICATES d)
  list(SORT d)
  set(has_target_${layer} TRUE)
  set(deps_${layer} "${d}")
endforeach()

file(GLOB inc_dirs LIST_DIRECTORIES true RELATIVE ${ROOT}/include/layoutkit
     ${ROOT}/include/layoutkit/*)
file(GLOB src_dirs LIST_DIRECTORIES true RELATIVE ${ROOT}/src ${ROOT}/src/*)
set(layers "")
foreach(d ${inc_dirs} ${src_dirs})
  if(IS_DIRECTORY ${ROOT}/include/layoutkit/${d} OR IS_DIRECTORY ${ROOT}/src/${d})
    list(APPEND layers ${d})
  endif()
endforeach()
list(REMOVE_DUPLICATES layers)

set(errors "")
set(graph "")
foreach(layer ${layers})
  if(NOT DEFINED rank_${layer})
    list(APPEND errors "layer '${layer}' is not in the layer order (${ORDER})")
    continue()
  endif()
  file(GLOB_RECURSE files ${ROOT}/include/layoutkit/${layer}/*.h
       ${ROOT}/src/${layer}/*.h ${ROOT}/src/${layer}/*.cpp)
  set(included "")
  foreach(f ${files})
    file(RELATIVE_PATH rel ${ROOT} ${f})
    file(STRINGS ${f} lines REGEX "^[ \t]*#[ \t]*include")
    foreach(line ${lines})
      if(line MATCHES "#[ \t]*include[ \t]*[\"<]\\.\\./")
        list(APPEND errors "${rel}: '${line}' reaches outside its directory")
      elseif(line MATCHES "#[ \t]*include[ \t]*[\"<]layoutkit/([a-z_]+)/")
        set(other ${CMAKE_MATCH_1})
        if(other STREQUAL layer)
          continue()
        endif()
        if(NOT DEFINED rank_${other})
          list(APPEND errors "${rel}: includes unknown layer '${other}'")
        elseif(NOT rank_${other} LESS rank_${layer})
          list(APPEND errors
               "${rel}: layer '${layer}' includes '${other}', which is not below it")
        endif()
        list(APPEND included ${other})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES included)
  list(SORT included)
  string(REPLACE ";" "," shown "${included}")
  list(APPEND graph "${layer} -> {${shown}}")
  if(has_target_${layer} AND NOT "${included}" STREQUAL "${deps_${layer}}")
    string(REPLACE ";" "," cm "${deps_${layer}}")
    list(APPEND errors
         "layer '${layer}': CMake dependencies {${cm}} differ from its include graph {${shown}}")
  endif()
endforeach()

foreach(g ${graph})
  message(STATUS "${g}")
endforeach()
if(errors)
  list(LENGTH errors n)
  string(REPLACE ";" "\n  " text "${errors}")
  message(FATAL_ERROR "layering: ${n} violation(s):\n  ${text}")
endif()
message(STATUS "layering: ${ORDER} holds")
