# bp reconcile / verify against the reference @mcptoolshop/backprop-trace@1.0.0 (installed by
# reference.cmake's bp_reference fixture). Each test exits 77 (Skipped) when it is absent, unless CI=true.
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# ON: every bad fixture must be rejected, by its targeted rule where the reference's is, and the
# differential allows no pending case. OFF only reports (for a build with rules under construction).
option(BP_VERIFY_BAD_FIXTURES_STRICT "bp_compat_verify_bad_fixtures and bp_compat_verify_differential demand every rejection" ON)
set(_bp_verify_strict "")
if(BP_VERIFY_BAD_FIXTURES_STRICT)
  set(_bp_verify_strict "--strict")
endif()

# Every golden of the reference verifies; file, stdin and bundle give one verdict.
add_test(NAME bp_compat_verify_goldens
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_verify_goldens.py $<TARGET_FILE:bp>
          ${BP_REFERENCE_PACKAGE_DIR})

# Every bad fixture of the reference is rejected (strict), or reported (default).
add_test(NAME bp_compat_verify_bad_fixtures
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_verify_bad_fixtures.py $<TARGET_FILE:bp>
          ${BP_REFERENCE_PACKAGE_DIR} --node ${BP_NODE_EXECUTABLE} ${_bp_verify_strict})

# Our verdict and exit code against the reference's on goldens, bad fixtures and seeded mutations
# (many cases per node process); prints the count per mutation family.
add_test(NAME bp_compat_verify_differential
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_verify_differential.py --bp $<TARGET_FILE:bp>
          --node ${BP_NODE_EXECUTABLE} --reference ${BP_REFERENCE_PACKAGE_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/bp_verify_differential ${_bp_verify_strict})

set_tests_properties(bp_compat_verify_goldens bp_compat_verify_bad_fixtures bp_compat_verify_differential PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "compat;bp")

# verify multi derives every number of every record: the attack's tampers and a one-number sweep.
add_test(NAME bp_compat_verify_multi_tamper
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_verify_multi_tamper.py $<TARGET_FILE:bp>
          ${BP_REFERENCE_PACKAGE_DIR})
set_tests_properties(bp_compat_verify_multi_tamper PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "compat;bp")

# verify multi --jobs 3 against --jobs 1, byte for byte, on every fixture of ours and of the
# reference (bad ones included) and on streams mixing them (issue 30 #3).
add_test(NAME bp_compat_verify_multi_jobs
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_verify_multi_jobs_fixtures.py $<TARGET_FILE:bp>
          ${PROJECT_SOURCE_DIR}/fixtures ${BP_REFERENCE_PACKAGE_DIR})
set_tests_properties(bp_compat_verify_multi_jobs PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "compat;bp")
