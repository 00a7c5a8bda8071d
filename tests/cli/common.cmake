# Behaviour the three tools share through common::run_tool (tests/cli/common/).
add_test(NAME tools_closed_descriptors
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/common/closed_descriptors_test.sh
                 $<TARGET_FILE:bp> $<TARGET_FILE:atenia> $<TARGET_FILE:nltrain>)
set_tests_properties(tools_closed_descriptors PROPERTIES LABELS "cli")
add_test(NAME tools_nul_after_document
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/common/trailing_bytes_test.sh
                 $<TARGET_FILE:bp> $<TARGET_FILE:atenia> $<TARGET_FILE:nltrain> ${PROJECT_SOURCE_DIR}/fixtures/atenia)
set_tests_properties(tools_nul_after_document PROPERTIES LABELS "cli")
