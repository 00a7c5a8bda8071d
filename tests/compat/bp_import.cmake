# bp import against the reference @mcptoolshop/backprop-trace@1.0.0 (installed by reference.cmake's
# bp_reference fixture), both with import_timestamp pinned (SOURCE_DATE_EPOCH; the reference's Date is
# pinned by a preload): every fixtures/external sidecar to the same bytes and exit code, every
# import-family bad fixture to the same verdict. Exit 77 (Skipped) when the reference is absent.
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
add_test(NAME bp_compat_import
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_import_compare.py --bp $<TARGET_FILE:bp>
          --node ${BP_NODE_EXECUTABLE} --reference ${BP_REFERENCE_PACKAGE_DIR})
set_tests_properties(bp_compat_import PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "compat;bp")
