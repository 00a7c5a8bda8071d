# bp against the reference @mcptoolshop/backprop-trace@1.0.0 (installed by reference.cmake's
# bp_reference fixture). Each test exits 77 (Skipped) when the reference is absent, unless CI=true.
include(${CMAKE_CURRENT_LIST_DIR}/reference.cmake)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

# Every golden the reference ships that `bp generate` can produce: ours must be byte-identical,
# both what the binary emits (`--check` against the reference's own fixture) and what we commit.
set(_bp_goldens
  "mazur=mazur.golden.jsonl" "xor=xor.golden.jsonl" "iris=iris.golden.jsonl"
  "xor-per-neuron-bias=xor-per-neuron-bias.golden.jsonl" "softmax-ce=softmax-ce.golden.jsonl"
  "xor-multi-step=xor.multi-step.jsonl")
foreach(pair ${_bp_goldens})
  string(REPLACE "=" ";" _parts ${pair})
  list(GET _parts 0 _name)
  list(GET _parts 1 _file)
  add_test(NAME bp_compat_golden_${_name}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bp_golden_compare.sh $<TARGET_FILE:bp> ${BP_REFERENCE_PACKAGE_DIR}
            ${_name} ${_file} ${PROJECT_SOURCE_DIR}/fixtures)
  set_tests_properties(bp_compat_golden_${_name} PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 LABELS "compat;bp")
endforeach()

# 300 random topology-input documents through ours and the reference library (one node process).
add_test(NAME bp_compat_differential
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_differential.py --bp $<TARGET_FILE:bp>
          --node ${BP_NODE_EXECUTABLE} --reference ${BP_REFERENCE_PACKAGE_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/bp_differential)
set_tests_properties(bp_compat_differential PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "compat;bp")

# The CLI grammar cases marked as reference behaviour, replayed against the reference CLI, so the
# expectations in tests/cli/bp/argv_test.py are the reference's and not only ours.
add_test(NAME bp_compat_cli_grammar
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bp_cli_grammar.sh ${Python3_EXECUTABLE} ${BP_REFERENCE_CLI}
          ${PROJECT_SOURCE_DIR}/tests/cli/bp)
set_tests_properties(bp_compat_cli_grammar PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 900 LABELS "compat;bp")

# scaffold topology: ours must equal the reference CLI's output byte for byte.
foreach(_topology mazur xor iris)
  add_test(NAME bp_compat_scaffold_${_topology}
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bp_scaffold_compare.sh $<TARGET_FILE:bp> ${BP_REFERENCE_PACKAGE_DIR} ${_topology})
  set_tests_properties(bp_compat_scaffold_${_topology} PROPERTIES
    FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "compat;bp")
endforeach()

# validate: same verdict and first error as the reference on every receipt its package ships.
add_test(NAME bp_compat_validate
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/bp_validate_compare.py --bp $<TARGET_FILE:bp>
          --node ${BP_NODE_EXECUTABLE} --reference ${BP_REFERENCE_PACKAGE_DIR})
set_tests_properties(bp_compat_validate PROPERTIES
  FIXTURES_REQUIRED bp_reference SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "compat;bp")
