# Crash test: SIGKILL a writer of checkpoints, trainer tables and cache entries at random
# instants, 200 times, and require every file to read back as a whole old or new version.
add_executable(crash_writer ${CMAKE_CURRENT_SOURCE_DIR}/hybrid/crash/crash_writer.cpp)
target_link_libraries(crash_writer PRIVATE suite::hybrid)
add_executable(crash_check ${CMAKE_CURRENT_SOURCE_DIR}/hybrid/crash/crash_check.cpp)
target_link_libraries(crash_check PRIVATE suite::hybrid)
add_test(NAME atenia_crash_consistency COMMAND crash_check $<TARGET_FILE:crash_writer> 200)
