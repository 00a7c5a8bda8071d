# CLI tests of `bp reconcile receipt` and `bp verify mazur|general|multi` (tests/cli/bp/verify_test.py).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME bp_cli_verify
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp/verify_test.py $<TARGET_FILE:bp>
          ${PROJECT_SOURCE_DIR}/fixtures ${PROJECT_SOURCE_DIR}/README.md $<TARGET_FILE:bundle_gen>)
set_tests_properties(bp_cli_verify PROPERTIES LABELS "cli;bp" TIMEOUT 300)
# verify mazur: each declared size of the Mazur network tampered in turn (issue 22 #4).
add_test(NAME bp_cli_verify_mazur_topology
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp/verify_mazur_topology_test.py $<TARGET_FILE:bp>)
set_tests_properties(bp_cli_verify_mazur_topology PROPERTIES LABELS "cli;bp" TIMEOUT 300)
# verify multi --jobs N: the same bytes and exit status as --jobs 1 (issue 30 #3).
add_test(NAME bp_cli_verify_multi_jobs
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp/verify_multi_jobs_test.py $<TARGET_FILE:bp>
          $<TARGET_FILE:bundle_gen>)
set_tests_properties(bp_cli_verify_multi_jobs PROPERTIES LABELS "cli;bp" TIMEOUT 300)
# verify multi --jobs on a stream: 10,000 records on stdin, a slow producer, a closed stdout.
add_test(NAME bp_cli_verify_multi_stream
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp/verify_multi_stream_test.py $<TARGET_FILE:bp>
          $<TARGET_FILE:bundle_gen>)
set_tests_properties(bp_cli_verify_multi_stream PROPERTIES LABELS "cli;bp" TIMEOUT 900)
# verify general|multi judge a sum against its terms' size; reconcile keeps the reference's bound.
add_test(NAME bp_cli_verify_sums
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp/verify_sums_test.py $<TARGET_FILE:bp>)
set_tests_properties(bp_cli_verify_sums PROPERTIES LABELS "cli;bp" TIMEOUT 300)
