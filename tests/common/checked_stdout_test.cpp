#include "common/checked_stdout.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <string>

namespace {

// Runs `body` in a child whose fd 1 is `target` (opened for writing); returns the child's exit
// status, which `body` sets to the errno it saw (0: none).
template <class Body>
int in_child_with_stdout(const char* target, Body body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = ::open(target, O_WRONLY);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) ::_exit(200);
    ::_exit(body());
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  return WEXITSTATUS(status);
}

}  // namespace

TEST_CASE("checked_stdout: a failed write is remembered, through std::cout and direct writes") {
  // /dev/full refuses every write with ENOSPC.
  CHECK(in_child_with_stdout("/dev/full", [] {
          common::install_checked_stdout();
          std::cout << std::string(100'000, 'x');  // past the buffer: written, and fails
          std::cout << "more";                     // dropped after the failure
          return common::flush_stdout();
        }) == ENOSPC);
  CHECK(in_child_with_stdout("/dev/full", [] {
          const bool ok = common::write_stdout("x");
          return ok ? 0 : common::stdout_write_error();
        }) == ENOSPC);
  CHECK(in_child_with_stdout("/dev/null", [] {
          common::install_checked_stdout();
          std::cout << std::string(100'000, 'x');
          return common::write_stdout("direct") ? common::flush_stdout() : 99;
        }) == 0);
}
