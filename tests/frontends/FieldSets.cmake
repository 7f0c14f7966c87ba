# One description per result type (api/Describe.h): the CLI's --json, the
# Python module's to_dict() and the wasm module's replies have the same key
# paths (tests/frontends/field_sets.py). The wasm side is the build of
# build-wasm/ (scripts/build-wasm.sh) run in node; a front end that is not
# built is left out, and with fewer than two the test is skipped (exit 77).
set(lk_fields_python none)
if(TARGET _layoutkit)
  set(lk_fields_python $<TARGET_FILE_DIR:_layoutkit>/..)
endif()
find_program(LK_FIELDS_NODE node)
set(lk_fields_node none)
if(LK_FIELDS_NODE)
  set(lk_fields_node ${LK_FIELDS_NODE})
endif()
add_test(NAME frontends.field_sets
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/field_sets.py
                 $<TARGET_FILE:layoutkit> ${lk_fields_python}
                 ${PROJECT_SOURCE_DIR}/build-wasm/web ${lk_fields_node})
set_tests_properties(frontends.field_sets PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS no_sanitizer)
