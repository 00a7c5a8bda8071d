# Fuzzing. Always: fuzz_smoke, a deterministic mutation driver over the same targets, run by ctest
# (under ASan+UBSan in the README's test command). With SUITE_BUILD_FUZZ=ON and Clang: one
# libFuzzer binary per target (fuzz_json, fuzz_json_document, fuzz_topology, fuzz_receipts, fuzz_reconcile, fuzz_import,
# fuzz_capture) for open-ended runs:
#   build/tests/fuzz_topology -max_total_time=600 fixtures/configs
# Debian 12's clang 14 builds common but not tape (parenthesized aggregate initialization), so
# with it build only the JSON readers' binaries: `ninja fuzz_json fuzz_json_document`.
# The JSON readers' targets need only common: their libFuzzer binaries build without the rest.
add_library(fuzz_json_targets STATIC ${CMAKE_CURRENT_LIST_DIR}/fuzz_checks.cpp ${CMAKE_CURRENT_LIST_DIR}/fuzz_json_targets.cpp)
target_link_libraries(fuzz_json_targets PUBLIC suite::common)
target_include_directories(fuzz_json_targets PRIVATE ${PROJECT_SOURCE_DIR}/tests)  # support/json_reads.hpp
add_library(fuzz_targets STATIC ${CMAKE_CURRENT_LIST_DIR}/fuzz_targets.cpp ${CMAKE_CURRENT_LIST_DIR}/fuzz_import_target.cpp
                                ${CMAKE_CURRENT_LIST_DIR}/fuzz_tensor_step_target.cpp)
target_include_directories(fuzz_targets PRIVATE ${PROJECT_SOURCE_DIR}/tests)  # support/foreign_blas.hpp
target_link_libraries(fuzz_targets PUBLIC fuzz_json_targets suite::importer suite::reconcile suite::receipt suite::schema_registry
                                          suite::nl_audit)

add_executable(fuzz_smoke ${CMAKE_CURRENT_LIST_DIR}/fuzz_smoke.cpp ${CMAKE_CURRENT_LIST_DIR}/fuzz_mutator.cpp)
target_link_libraries(fuzz_smoke PRIVATE fuzz_targets)

file(GLOB _fuzz_configs ${PROJECT_SOURCE_DIR}/fixtures/configs/*.json)
file(GLOB _fuzz_receipts ${PROJECT_SOURCE_DIR}/fixtures/*.jsonl)
set(_fuzz_iterations 3000)
add_test(NAME fuzz_smoke_json COMMAND fuzz_smoke json ${_fuzz_iterations} ${_fuzz_configs} ${_fuzz_receipts})
add_test(NAME fuzz_smoke_json_document COMMAND fuzz_smoke json_document ${_fuzz_iterations} ${_fuzz_configs} ${_fuzz_receipts})
add_test(NAME fuzz_smoke_topology COMMAND fuzz_smoke topology ${_fuzz_iterations} ${_fuzz_configs})
add_test(NAME fuzz_smoke_receipts COMMAND fuzz_smoke receipts ${_fuzz_iterations} ${_fuzz_receipts})
add_test(NAME fuzz_smoke_reconcile COMMAND fuzz_smoke reconcile ${_fuzz_iterations} ${_fuzz_receipts})
add_test(NAME fuzz_smoke_import COMMAND fuzz_smoke import ${_fuzz_iterations} ${_fuzz_receipts})
add_test(NAME fuzz_smoke_capture COMMAND fuzz_smoke capture ${_fuzz_iterations} ${_fuzz_receipts})
# Seeds: three receipts of a d = 8 nltrain run (full), and the same run's compact receipts.
file(GLOB _fuzz_tensor_steps ${PROJECT_SOURCE_DIR}/fixtures/nltrain/receipts-*.jsonl)
add_test(NAME fuzz_smoke_tensor_step COMMAND fuzz_smoke tensor_step 300 ${_fuzz_tensor_steps})
set_tests_properties(fuzz_smoke_json fuzz_smoke_json_document fuzz_smoke_topology fuzz_smoke_receipts fuzz_smoke_reconcile fuzz_smoke_import
                     fuzz_smoke_capture fuzz_smoke_tensor_step PROPERTIES LABELS "fuzz"
                     TIMEOUT 600)

# The libFuzzer entry compiles in every build (it is plain C++), so it cannot rot unseen.
add_library(fuzz_entry_compiles OBJECT ${CMAKE_CURRENT_LIST_DIR}/libfuzzer_entry.cpp)
target_compile_definitions(fuzz_entry_compiles PRIVATE FUZZ_TARGET_NAME="topology")
target_link_libraries(fuzz_entry_compiles PRIVATE fuzz_targets)

if(SUITE_BUILD_FUZZ)  # top-level option; instruments the libraries with -fsanitize=fuzzer-no-link
  foreach(_t json json_document topology receipts reconcile import capture tensor_step)
    add_executable(fuzz_${_t} ${CMAKE_CURRENT_LIST_DIR}/libfuzzer_entry.cpp)
    target_compile_definitions(fuzz_${_t} PRIVATE FUZZ_TARGET_NAME="${_t}")
    target_compile_options(fuzz_${_t} PRIVATE -fsanitize=fuzzer)
    target_link_options(fuzz_${_t} PRIVATE -fsanitize=fuzzer)
    if(_t MATCHES "^json")
      target_compile_definitions(fuzz_${_t} PRIVATE FUZZ_JSON_ONLY)
      target_link_libraries(fuzz_${_t} PRIVATE fuzz_json_targets)
    else()
      target_link_libraries(fuzz_${_t} PRIVATE fuzz_targets)
    endif()
  endforeach()
endif()
