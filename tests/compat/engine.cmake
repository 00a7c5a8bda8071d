# Compatibility of the receipt engine (libcore/receipt/{engine,reproduce}) with the reference
# @mcptoolshop/backprop-trace@1.0.0 installed at test time by reference.cmake (fixture bp_reference):
# builtin generators, regeneration of every engine golden and the engine fields of the imported
# goldens, byte for byte. Exits 77 (Skipped) without the reference, fails under CI=true.
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
if(TARGET receipt_tests)
  add_test(NAME receipt_engine_reference
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/with_reference.sh ${BP_REFERENCE_PACKAGE_DIR}
            env BP_REFERENCE_DIR=${BP_REFERENCE_PACKAGE_DIR}
            $<TARGET_FILE:receipt_tests> --no-skip "--test-case=compat: engine*")
  set_tests_properties(receipt_engine_reference PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 LABELS "compat;bp")
endif()
