# Runs EXE and fails unless it exits 0 and its stdout equals the file
# EXPECTED byte for byte.
execute_process(COMMAND ${EXE} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with ${rc}\n${out}${err}")
endif()
file(READ ${EXPECTED} expected)
if(NOT out STREQUAL expected)
  message(FATAL_ERROR "${EXE}: output differs from ${EXPECTED}\n"
                      "--- got ---\n${out}--- expected ---\n${expected}")
endif()
message(STATUS "output matches ${EXPECTED}")
