// The stop-signal handler and DeferredStopSignals across threads: a process-directed SIGTERM
// may run the handler on any thread that does not block it (a BLAS worker started before
// main, say), so a file another thread has created but not yet registered must still go.
#include "common/temp_file_cleanup.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "support/temp_dir.hpp"

namespace {

std::atomic<bool> g_created{false};
std::atomic<bool> g_signalled{false};

void wait_for(const std::atomic<bool>& flag) {
  while (!flag.load()) std::this_thread::yield();
}

// The child process ended by `sig` (its default action, re-raised by the handler).
void expect_ended_by(pid_t child, int sig) {
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);
}

}  // namespace

TEST_CASE("temp_file_cleanup: a stop signal handled on another thread waits for a DeferredStopSignals scope") {
  testsupport::TempDir dir;
  const std::string path = dir.file("unfinished.tmp");
  for (int sig : {SIGTERM, SIGINT}) {
    CAPTURE(sig);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      common::install_temp_file_cleanup();
      std::thread writer([&path] {
        // As write_file_atomic does: create and register inside one scope.
        std::optional<common::PendingTempFile> pending;
        {
          const common::DeferredStopSignals hold;
          const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
          if (fd < 0) ::_exit(10);
          ::close(fd);
          g_created.store(true);
          wait_for(g_signalled);  // the handler has run on the main thread meanwhile
          pending.emplace(path);
        }  // leaving the scope delivers the deferred signal: the process ends here
        ::_exit(13);
      });
      wait_for(g_created);
      ::raise(sig);  // handled on this thread, which does not block it
      g_signalled.store(true);
      writer.join();
      ::_exit(12);  // not reached
    }
    expect_ended_by(child, sig);
    CHECK_FALSE(std::filesystem::exists(path));
    std::filesystem::remove(path);
  }
}

TEST_CASE("temp_file_cleanup: with no scope open the signal ends the process at once") {
  testsupport::TempDir dir;
  const std::string path = dir.file("registered.tmp");
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    common::install_temp_file_cleanup();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) ::_exit(10);
    ::close(fd);
    common::PendingTempFile pending(path);
    ::raise(SIGTERM);
    ::_exit(12);  // not reached
  }
  expect_ended_by(child, SIGTERM);
  CHECK_FALSE(std::filesystem::exists(path));
}
