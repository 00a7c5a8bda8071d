# atenia CLI tests: each script runs the built binary and checks exit codes, stdout and the
# exact stderr line of every documented error.
foreach(_t explain learn_stats simulate simulate_rates checkpoint checkpoint_rollback checkpoint_links
           checkpoint_integrity checkpoint_restore_out place_profile
           answers)
  add_test(NAME atenia_cli_${_t}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/atenia/${_t}_test.sh $<TARGET_FILE:atenia>
                   ${PROJECT_SOURCE_DIR}/fixtures/atenia)
endforeach()
# Outputs: /dev/full on stdout for every subcommand, --trace-out to a symlink / FIFO / device,
# no temporary after SIGTERM (Python 3 standard library only).
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME atenia_cli_output
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/atenia/output_test.py $<TARGET_FILE:atenia>
                 ${PROJECT_SOURCE_DIR}/fixtures/atenia)
# Real tensor files in and out of checkpoints, against Python's safetensors and NumPy.
add_test(NAME atenia_cli_tensors
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/atenia/tensors_test.sh $<TARGET_FILE:atenia>
                 ${PROJECT_SOURCE_DIR}/fixtures/atenia "${SUITE_PYTHON_VENV}")
set_tests_properties(atenia_cli_tensors PROPERTIES SKIP_RETURN_CODE 77)
# atenia's inputs and --json outputs against schemas/atenia-*.json (Debian's jsonschema).
add_test(NAME atenia_cli_schemas
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/cli/atenia/schemas_test.py $<TARGET_FILE:atenia>
                 ${PROJECT_SOURCE_DIR}/fixtures/atenia ${PROJECT_SOURCE_DIR}/schemas)
