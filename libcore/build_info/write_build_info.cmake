# Writes build_info.cpp from its template: VERSION, plus "+g<commit>" (and ".dirty" when tracked
# files differ from it) where SOURCE_DIR is a git checkout. Run at every build; the file is
# replaced only when its text changes. GIT_OPTIONAL_LOCKS=0: a build never writes into .git.
set(SUITE_VERSION "${VERSION}")
find_program(_git git)
if(_git AND EXISTS "${SOURCE_DIR}/.git")
  set(ENV{GIT_OPTIONAL_LOCKS} 0)
  execute_process(COMMAND ${_git} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE _commit RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_rc EQUAL 0 AND _commit MATCHES "^[0-9a-f]+$")
    string(APPEND SUITE_VERSION "+g${_commit}")
    execute_process(COMMAND ${_git} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE _changes RESULT_VARIABLE _rc ERROR_QUIET)
    if(NOT _rc EQUAL 0 OR NOT _changes STREQUAL "")
      string(APPEND SUITE_VERSION ".dirty")
    endif()
  endif()
endif()
# The source path goes into a C++ raw string; a path holding its delimiter is refused.
if(SOURCE_DIR MATCHES "\\)path\"")
  message(FATAL_ERROR "build_info: the source path contains ')path\"': ${SOURCE_DIR}")
endif()
configure_file(${TEMPLATE} ${OUT} @ONLY)
