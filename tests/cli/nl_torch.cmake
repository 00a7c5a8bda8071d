# nl_torch_crosscheck: the DeltaRule and TitansLMM MAG models against an independent PyTorch
# version written from the spec (tests/nl/torch/mag_crosscheck.py); nl_torch_dump writes the cases.
# Without torch (or /usr/bin/python3) the test is Skipped (exit 77); with CI=true it fails.
add_executable(nl_torch_dump ${PROJECT_SOURCE_DIR}/tests/nl/torch/dump_mag_cases.cpp)
target_link_libraries(nl_torch_dump PRIVATE suite::nl nlohmann_json::nlohmann_json)

set(SUITE_TORCH_PYTHON /usr/bin/python3 CACHE FILEPATH "Python interpreter with torch for the torch cross-checks")
if(EXISTS ${SUITE_TORCH_PYTHON})
  add_test(NAME nl_torch_crosscheck
           COMMAND ${SUITE_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/nl/torch/mag_crosscheck.py
                   --dump $<TARGET_FILE:nl_torch_dump> --work ${CMAKE_CURRENT_BINARY_DIR}/nl_torch)
else()
  add_test(NAME nl_torch_crosscheck
           COMMAND sh -c "if [ \"$CI\" = true ]; then echo 'CI=true but ${SUITE_TORCH_PYTHON} is missing' >&2; exit 1; fi; echo 'SKIP: ${SUITE_TORCH_PYTHON} not found; nl/torch cross-check skipped'; exit 77")
endif()
set_tests_properties(nl_torch_crosscheck PROPERTIES SKIP_RETURN_CODE 77 LABELS "nl;torch")

# nl_torch_adamw: FrequencyAwareAdamW (10 steps) against torch.optim.AdamW in float64, to 1e-6
# relative on parameters and both moments (tests/nl/torch/adamw_check.py).
add_executable(nl_adamw_dump ${PROJECT_SOURCE_DIR}/tests/nl/torch/dump_adamw.cpp)
target_link_libraries(nl_adamw_dump PRIVATE suite::nl nlohmann_json::nlohmann_json)
if(EXISTS ${SUITE_TORCH_PYTHON})
  add_test(NAME nl_torch_adamw
           COMMAND ${SUITE_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/nl/torch/adamw_check.py
                   --dump $<TARGET_FILE:nl_adamw_dump>)
else()
  add_test(NAME nl_torch_adamw
           COMMAND sh -c "if [ \"$CI\" = true ]; then echo 'CI=true but ${SUITE_TORCH_PYTHON} is missing' >&2; exit 1; fi; echo 'SKIP: ${SUITE_TORCH_PYTHON} not found; AdamW cross-check skipped'; exit 77")
endif()
set_tests_properties(nl_torch_adamw PROPERTIES SKIP_RETURN_CODE 77 LABELS "nl;torch")

# nl_torch_batch_model: the batched PyTorch MAG model that times issue 27's GPU goal
# (tests/bench/mag_torch_batch.py) is the cross-check model above: loss and every gradient of a
# batch of 3, float64, against the mean of single-sequence calls, DeltaRule and TitansLMM, K = 1, 2.
if(EXISTS ${SUITE_TORCH_PYTHON})
  add_test(NAME nl_torch_batch_model
           COMMAND sh -c "for r in delta titans; do \"$0\" \"$1\" --check $r 8 4 2 2 2 1 cpu || exit 1; done"
                   ${SUITE_TORCH_PYTHON} ${PROJECT_SOURCE_DIR}/tests/bench/mag_torch_batch.py)
  set_tests_properties(nl_torch_batch_model PROPERTIES LABELS "nl;torch")
endif()
