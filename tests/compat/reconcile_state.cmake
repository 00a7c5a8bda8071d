# Differential test of reconciler rules 9, 10 and 14-26 (optimizer state, attestation, batches,
# engine differential, cross-record rules) against the reference @mcptoolshop/backprop-trace@1.0.0
# installed at test time by reference.cmake (fixture bp_reference): the reference's goldens, bundles,
# external and bad fixtures and ~30k seeded mutations aimed at these rules, compared record by record
# through build/tests/reconcile_probe and tests/compat/reconcile_reference.mjs. Prints the count per
# mutation family; fails on any disagreement outside the documented deliberate differences. Exits 77
# (Skipped) without the reference, fails under CI=true (tests/compat/with_reference.sh).
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
if(TARGET reconcile_probe)
  add_test(NAME reconcile_state_differential
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/with_reference.sh ${BP_REFERENCE_PACKAGE_DIR}
            /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/reconcile_state_differential.py
            --probe $<TARGET_FILE:reconcile_probe> --reference ${BP_REFERENCE_PACKAGE_DIR}
            --node ${BP_NODE_EXECUTABLE} --workdir ${CMAKE_CURRENT_BINARY_DIR}/reconcile_state_work)
  set_tests_properties(reconcile_state_differential PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 1800 LABELS "compat;bp;reconcile")
endif()
