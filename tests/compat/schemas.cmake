# Compatibility tests of schemas/, the canonical emitter and the number formatter
# against the reference @mcptoolshop/backprop-trace@1.0.0, installed at test time by
# reference.cmake (fixture bp_reference). Each exits 77 (Skipped) without the
# reference, or fails under CI=true (tests/compat/with_reference.sh).
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
set(_with_ref sh ${CMAKE_CURRENT_LIST_DIR}/with_reference.sh ${BP_REFERENCE_PACKAGE_DIR})

# Our schemas and the reference's give the same verdict on every reference fixture,
# on our own fixtures, on reference scaffolds and on mutations of them all.
add_test(NAME schemas_crosscheck
  COMMAND ${_with_ref} /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/schema_crosscheck.py
          --ours ${PROJECT_SOURCE_DIR}/schemas --reference ${BP_REFERENCE_PACKAGE_DIR}
          --our-fixtures ${PROJECT_SOURCE_DIR}/fixtures --node ${BP_NODE_EXECUTABLE}
          --verdicts-out ${CMAKE_CURRENT_BINARY_DIR}/schema_verdicts.jsonl)
set_tests_properties(schemas_crosscheck PROPERTIES
  FIXTURES_REQUIRED bp_reference FIXTURES_SETUP bp_schema_verdicts
  SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "compat;bp")

if(TARGET receipt_tests)
  # Our C++ validator gives the reference schemas' verdict on every document the
  # cross-check saw (reference fixtures, scaffolds, our fixtures, mutations).
  add_test(NAME schemas_validator_differential
    COMMAND ${_with_ref} env BP_SCHEMA_VERDICTS=${CMAKE_CURRENT_BINARY_DIR}/schema_verdicts.jsonl
            $<TARGET_FILE:receipt_tests> --no-skip "--test-case=validator: same verdicts*")
  set_tests_properties(schemas_validator_differential PROPERTIES
    FIXTURES_REQUIRED "bp_reference;bp_schema_verdicts" SKIP_RETURN_CODE 77 LABELS "compat;bp")
endif()

if(TARGET receipt_tests)
  # Every reference golden, parsed and re-emitted by receipt::emit, is byte-identical.
  add_test(NAME receipt_emit_reference_goldens
    COMMAND ${_with_ref} env BP_REFERENCE_DIR=${BP_REFERENCE_PACKAGE_DIR}
            $<TARGET_FILE:receipt_tests> --no-skip "--test-case=emit: reference goldens*")
  set_tests_properties(receipt_emit_reference_goldens PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 LABELS "compat;bp")

  # Every receipt-shaped file of the reference (goldens, sidecars, bad fixtures): our
  # emitter makes the same bytes as the reference's emitter, or refuses where it refuses.
  set(_emit_dir ${CMAKE_CURRENT_BINARY_DIR}/reference_emit)
  add_test(NAME receipt_emit_reference_differential
    COMMAND ${_with_ref} sh -c "\"$0\" \"$4\" \"$1\" \"$2\" \"$1/fixtures\" \"$1/fixtures/external\" \"$1/fixtures/bad\" && BP_REFERENCE_DIR=\"$1\" BP_REFERENCE_EMIT_DIR=\"$2\" \"$3\" --no-skip '--test-case=emit: same bytes*'"
            ${BP_NODE_EXECUTABLE} ${BP_REFERENCE_PACKAGE_DIR} ${_emit_dir} $<TARGET_FILE:receipt_tests>
            ${CMAKE_CURRENT_LIST_DIR}/reference_emit.mjs)
  set_tests_properties(receipt_emit_reference_differential PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 LABELS "compat;bp")
endif()

if(TARGET common_tests)
  # 100k doubles across magnitudes: our runtime formatter against the reference's.
  set(_numbers ${CMAKE_CURRENT_BINARY_DIR}/reference_numbers.txt)
  add_test(NAME number_format_reference_differential
    COMMAND ${_with_ref} sh -c "\"$0\" \"$4\" \"$1\" \"$2\" 100000 && BP_REFERENCE_NUMBER_FILE=\"$2\" \"$3\" --no-skip '--test-case=number_format: reference differential*'"
            ${BP_NODE_EXECUTABLE} ${BP_REFERENCE_PACKAGE_DIR} ${_numbers} $<TARGET_FILE:common_tests>
            ${CMAKE_CURRENT_LIST_DIR}/reference_number_format.mjs)
  set_tests_properties(number_format_reference_differential PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 LABELS "compat;bp")
endif()
