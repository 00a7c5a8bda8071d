# The reference implementation, @mcptoolshop/backprop-trace@1.0.0, installed from npm at test time.
#
# This file has two roles:
#  - include()d by tests/CMakeLists.txt: registers the ctest `bp_reference_install`, the FIXTURES_SETUP of the
#    fixture `bp_reference`. Compat tests use FIXTURES_REQUIRED bp_reference and read the package from
#    ${BP_REFERENCE_PACKAGE_DIR} (its dist/bin/bp.js is the reference CLI).
#  - run with `cmake -P` by that test: installs the package unless it is already there.
#
# Compat files sorted before this one may include() it to get BP_REFERENCE_PREFIX, BP_REFERENCE_PACKAGE_DIR,
# BP_REFERENCE_CLI and BP_NODE_EXECUTABLE (the include is guarded).
#
# Without npm the install is skipped with a message (the test reports "Skipped", exit 77), and each compat test
# must skip too when ${BP_REFERENCE_PACKAGE_DIR}/package.json is missing. With CI=true in the environment a
# missing npm or a failed install is a failure, never a skip.
set(_bp_ref_spec "@mcptoolshop/backprop-trace@1.0.0")
set(_bp_ref_version "1.0.0")

if(CMAKE_SCRIPT_MODE_FILE)
  # Script mode: cmake -DPREFIX=<dir> -P reference.cmake
  if(NOT PREFIX)
    message(FATAL_ERROR "reference.cmake: PREFIX is not set")
  endif()
  set(_pkg "${PREFIX}/node_modules/@mcptoolshop/backprop-trace/package.json")
  if(EXISTS "${_pkg}")
    file(READ "${_pkg}" _json)
    string(JSON _have ERROR_VARIABLE _err GET "${_json}" version)
    if(_have STREQUAL _bp_ref_version AND EXISTS "${PREFIX}/node_modules/@mcptoolshop/backprop-trace/dist/bin/bp.js")
      message(STATUS "reference ${_bp_ref_spec} already installed in ${PREFIX}")
      return()
    endif()
  endif()
  set(_ci "$ENV{CI}")
  find_program(_npm npm)
  find_program(_node node)
  if(NOT _npm OR NOT _node)
    if(_ci STREQUAL "true")
      message(FATAL_ERROR "CI=true but npm/node not found: cannot install the reference ${_bp_ref_spec}")
    endif()
    # ctest maps this exact exit code to "Skipped" (SKIP_RETURN_CODE 77).
    message("SKIP: npm/node not found; compatibility tests against ${_bp_ref_spec} are skipped")
    set(_skip TRUE)
  endif()
  if(_skip)
    # cmake -P cannot choose its exit status; the registered test turns this marker into exit 77.
    file(WRITE "${PREFIX}.skipped" "npm not found\n")
    return()
  endif()
  file(REMOVE "${PREFIX}.skipped")
  file(MAKE_DIRECTORY "${PREFIX}")
  execute_process(
    COMMAND "${_npm}" install --no-audit --no-fund --prefix "${PREFIX}" "${_bp_ref_spec}"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "npm install ${_bp_ref_spec} failed (exit ${_rc})")
  endif()
  if(NOT EXISTS "${_pkg}")
    message(FATAL_ERROR "npm install finished but ${_pkg} is missing")
  endif()
  return()
endif()

# include() mode: register the fixture setup once. tests/CMakeLists.txt includes compat/*.cmake in name order, so
# a file sorted before this one that needs BP_REFERENCE_* includes this file itself first.
include_guard(GLOBAL)
set(BP_REFERENCE_PREFIX "${CMAKE_BINARY_DIR}/reference")
set(BP_REFERENCE_PACKAGE_DIR "${BP_REFERENCE_PREFIX}/node_modules/@mcptoolshop/backprop-trace")
set(BP_REFERENCE_CLI "${BP_REFERENCE_PACKAGE_DIR}/dist/bin/bp.js")
find_program(BP_NODE_EXECUTABLE node)
add_test(NAME bp_reference_install
  COMMAND sh -c "\"$0\" -DPREFIX=\"$1\" -P \"$2\" || exit 1; if [ -f \"$1.skipped\" ]; then exit 77; fi"
          ${CMAKE_COMMAND} ${BP_REFERENCE_PREFIX} ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(bp_reference_install PROPERTIES
  FIXTURES_SETUP bp_reference
  SKIP_RETURN_CODE 77
  TIMEOUT 600
  RESOURCE_LOCK bp_reference_npm)
