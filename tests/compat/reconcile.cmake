# The reconciler (libcore/reconcile) against the reference's reconcileReceipt, record by record:
# every golden and bad fixture the reference ships plus seeded mutations of every golden, compared
# with tests/compat/reconcile_differential.py (which prints the count per mutation family). Uses
# the reference installed by reference.cmake's bp_reference fixture; exits 77 (Skipped) without
# it, fails under CI=true.
#
# RECONCILE_DIFFERENTIAL_RULES chooses the rules compared (default: those implemented so far,
# 0-8 and 11-13); set it to "all" to compare every rule and the overall verdict.
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(RECONCILE_DIFFERENTIAL_RULES "0-8,11-13" CACHE STRING
    "Rules compared by the reconcile_differential test (a list like 0-8,11-13, or all)")
if(RECONCILE_DIFFERENTIAL_RULES STREQUAL "all")
  set(_reconcile_rules_arg --all-rules)
else()
  set(_reconcile_rules_arg --rules ${RECONCILE_DIFFERENTIAL_RULES})
endif()
if(TARGET reconcile_probe)
  add_test(NAME reconcile_differential
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/with_reference.sh ${BP_REFERENCE_PACKAGE_DIR}
            ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/reconcile_differential.py
            --probe $<TARGET_FILE:reconcile_probe> --reference ${BP_REFERENCE_PACKAGE_DIR}
            --node ${BP_NODE_EXECUTABLE} ${_reconcile_rules_arg} --per-family 14
            --work ${CMAKE_CURRENT_BINARY_DIR}/reconcile_differential)
  set_tests_properties(reconcile_differential PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "compat;reconcile")
endif()
