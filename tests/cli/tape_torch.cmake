# tape_torch_crosscheck: every tape op's forward and VJP against PyTorch autograd.
# tape_torch_dump writes the cases; tests/tape/torch/crosscheck.py recomputes them with torch.
# Without torch (or without /usr/bin/python3) the test is Skipped (exit 77); with CI=true it fails.
add_executable(tape_torch_dump ${PROJECT_SOURCE_DIR}/tests/tape/torch/dump_op_cases.cpp)
target_link_libraries(tape_torch_dump PRIVATE suite::tape nlohmann_json::nlohmann_json)

# The python3 first on PATH may lack torch; the system interpreter has it where it is installed.
set(SUITE_TORCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python interpreter with torch for tape_torch_crosscheck")
if(EXISTS ${SUITE_TORCH_PYTHON})
  add_test(NAME tape_torch_crosscheck
           COMMAND ${SUITE_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/tape/torch/crosscheck.py
                   --dump $<TARGET_FILE:tape_torch_dump> --work ${CMAKE_CURRENT_BINARY_DIR}/tape_torch)
else()
  add_test(NAME tape_torch_crosscheck
           COMMAND sh -c "if [ \"$CI\" = true ]; then echo 'CI=true but ${SUITE_TORCH_PYTHON} is missing' >&2; exit 1; fi; echo 'SKIP: ${SUITE_TORCH_PYTHON} not found; tape/torch cross-check skipped'; exit 77")
endif()
set_tests_properties(tape_torch_crosscheck PROPERTIES SKIP_RETURN_CODE 77 LABELS "tape;torch")
