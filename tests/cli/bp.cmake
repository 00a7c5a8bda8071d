# CLI tests of bp: the built binary is run and its exact stdout, stderr and exit status checked
# (tests/cli/bp/*_test.py, Python 3 standard library only).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(_bp_cli_dir ${CMAKE_CURRENT_LIST_DIR}/bp)

add_test(NAME bp_cli_argv
  COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/argv_test.py $<TARGET_FILE:bp> ${_bp_cli_dir}/data)
add_test(NAME bp_cli_generate
  COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/generate_test.py $<TARGET_FILE:bp> ${PROJECT_SOURCE_DIR}/fixtures
          ${_bp_cli_dir}/data)
add_test(NAME bp_cli_validate
  COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/validate_test.py $<TARGET_FILE:bp> ${PROJECT_SOURCE_DIR}/fixtures
          ${_bp_cli_dir}/data)
add_test(NAME bp_cli_output
  COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/output_test.py $<TARGET_FILE:bp> ${PROJECT_SOURCE_DIR}/fixtures
          ${_bp_cli_dir}/data)
# Reading bounds of both tools: a million keys / elements, peak memory, out of memory.
add_test(NAME json_input_bounds COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/memory_test.py $<TARGET_FILE:bp>
                                        $<TARGET_FILE:atenia> $<IF:$<BOOL:${SUITE_SANITIZE}>,--sanitized,--plain>)
set_tests_properties(json_input_bounds PROPERTIES LABELS "cli;bp;atenia" TIMEOUT 600)
set_tests_properties(bp_cli_argv bp_cli_generate bp_cli_validate bp_cli_output PROPERTIES LABELS "cli;bp" TIMEOUT 300)
# bp's BLAS is opened on first use (apps/bp/lazy_blas).
add_test(NAME bp_cli_blas_on_first_use
  COMMAND bash ${_bp_cli_dir}/blas_on_first_use_test.sh $<TARGET_FILE:bp> $<TARGET_FILE:nltrain>)
set_tests_properties(bp_cli_blas_on_first_use PROPERTIES LABELS "cli;bp" TIMEOUT 300 SKIP_RETURN_CODE 77)
add_test(NAME bp_cli_import
  COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/import_test.py $<TARGET_FILE:bp> ${CMAKE_CURRENT_BINARY_DIR}/bp_cli_import
          ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(bp_cli_import PROPERTIES LABELS "cli;bp" TIMEOUT 300)
# Every --json output of bp (verify, reconcile, validate, validate-input, import, generate, scaffold,
# the error envelope) against schemas/bp-*.v0.1.0.json (Debian's jsonschema), and hand-broken
# outputs refused.
add_test(NAME bp_cli_schemas
  COMMAND /usr/bin/python3 ${_bp_cli_dir}/schemas_test.py $<TARGET_FILE:bp> ${PROJECT_SOURCE_DIR}/fixtures
          ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(bp_cli_schemas PROPERTIES LABELS "cli;bp" TIMEOUT 300)
