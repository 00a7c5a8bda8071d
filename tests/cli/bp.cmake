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
set_tests_properties(bp_cli_argv bp_cli_generate bp_cli_validate PROPERTIES LABELS "cli;bp" TIMEOUT 300)
add_test(NAME bp_cli_import
  COMMAND ${Python3_EXECUTABLE} ${_bp_cli_dir}/import_test.py $<TARGET_FILE:bp> ${CMAKE_CURRENT_BINARY_DIR}/bp_cli_import
          ${PROJECT_SOURCE_DIR}/schemas)
set_tests_properties(bp_cli_import PROPERTIES LABELS "cli;bp" TIMEOUT 300)
