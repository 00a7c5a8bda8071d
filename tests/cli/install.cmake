# The install and the Debian package, checked as a user gets them (tests/cli/install/).
foreach(_t install package)
  add_test(NAME suite_${_t}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/install/${_t}_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                   ${PROJECT_VERSION} $<TARGET_FILE:bp>)
  set_tests_properties(suite_${_t} PROPERTIES LABELS "install;cli" SKIP_RETURN_CODE 77)
endforeach()
