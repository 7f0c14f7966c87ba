# Hostile inputs against every front end, each case under 5 s, 500 MB and
# 10 MB of output (tests/hostile/run_hostile.py, docs/testing.md): one ctest
# per front end. A front end that is not built is skipped with the reason
# (exit 77). Under AddressSanitizer without the address-space limit (ASan
# reserves its shadow memory at start); the Python module is not built there.
set(lk_hostile_flags "")
if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=[a-z,]*address")
  set(lk_hostile_flags --sanitized)
endif()
set(lk_hostile ${CMAKE_CURRENT_LIST_DIR}/run_hostile.py)
set(lk_hostile_opt none)
if(TARGET layoutkit-opt)
  set(lk_hostile_opt $<TARGET_FILE:layoutkit-opt>)
endif()
set(lk_hostile_python none)
if(TARGET _layoutkit)
  set(lk_hostile_python $<TARGET_FILE_DIR:_layoutkit>)
endif()
add_test(NAME hostile.cli
         COMMAND /usr/bin/python3 ${lk_hostile} cli $<TARGET_FILE:layoutkit> ${lk_hostile_flags})
add_test(NAME hostile.opt
         COMMAND /usr/bin/python3 ${lk_hostile} opt ${lk_hostile_opt} ${lk_hostile_flags})
add_test(NAME hostile.python
         COMMAND /usr/bin/python3 ${lk_hostile} python ${lk_hostile_python} ${lk_hostile_flags})
add_test(NAME hostile.server
         COMMAND /usr/bin/python3 ${lk_hostile} server $<TARGET_FILE:layoutkit> ${lk_hostile_flags})
set_tests_properties(hostile.cli hostile.opt hostile.python hostile.server
                     PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
