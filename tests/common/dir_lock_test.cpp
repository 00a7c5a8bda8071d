#include "common/dir_lock.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

namespace {

std::string lock_test_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("dir-lock-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

// Runs acquire(dir, fail_at_once) in a child process (flock is per open file, so a second
// acquire in this process would conflict too, but a child is how a second trainer looks) and
// returns its exit code: 0 taken, 1 held elsewhere, 2 another error.
int child_try_lock(const std::string& dir, common::LockShare share = common::LockShare::exclusive) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    auto l = common::DirLock::acquire(dir, common::LockWait::fail_at_once, share);
    ::_exit(l.ok() ? 0 : l.error().held_elsewhere() ? 1 : 2);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST_CASE("dir_lock: fail_at_once is refused while another holds the lock, taken once it is released") {
  const std::string dir = lock_test_dir();
  {
    auto held = common::DirLock::acquire(dir);
    REQUIRE(held.ok());
    CHECK(child_try_lock(dir) == 1);
  }
  CHECK(child_try_lock(dir) == 0);
  auto missing = common::DirLock::acquire(dir + "/nowhere", common::LockWait::fail_at_once);
  REQUIRE_FALSE(missing.ok());
  CHECK_FALSE(missing.error().held_elsewhere());
  std::filesystem::remove_all(dir);
}

TEST_CASE("dir_lock: shared holders coexist and keep an exclusive one out; refuse does not follow a link") {
  const std::string dir = lock_test_dir();
  {
    auto reader = common::DirLock::acquire(dir, common::LockWait::wait, common::LockShare::shared);
    REQUIRE(reader.ok());
    CHECK(child_try_lock(dir, common::LockShare::shared) == 0);
    CHECK(child_try_lock(dir, common::LockShare::exclusive) == 1);
  }
  {
    auto writer = common::DirLock::acquire(dir);
    REQUIRE(writer.ok());
    CHECK(child_try_lock(dir, common::LockShare::shared) == 1);
  }
  const std::string link = dir + "-link";
  std::filesystem::remove(link);
  std::filesystem::create_directory_symlink(dir, link);
  CHECK(common::DirLock::acquire(link).ok());  // follow, the default
  auto refused = common::DirLock::acquire(link, common::LockWait::wait, common::LockShare::exclusive,
                                          common::LockLinks::refuse);
  REQUIRE_FALSE(refused.ok());
  CHECK_FALSE(refused.error().held_elsewhere());
  std::filesystem::remove(link);
  std::filesystem::remove_all(dir);
}
