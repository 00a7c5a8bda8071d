# schemas/*.json are exactly what our own definitions generate
# (libcore/schema_authoring/, run by schema_gen); regenerate with
# `cmake --build <build> --target regenerate-schemas`.
if(TARGET schema_gen)
  add_test(NAME schemas_generated COMMAND $<TARGET_FILE:schema_gen> --check ${PROJECT_SOURCE_DIR}/schemas)
  set_tests_properties(schemas_generated PROPERTIES LABELS "bp")
endif()
