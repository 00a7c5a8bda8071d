#include "common/atomic_file.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "common/temp_file_cleanup.hpp"

#include "support/temp_dir.hpp"

using common::FaultInjectingFileSystem;
using common::real_file_system;

namespace {
std::string slurp(const std::string& path) {
  auto r = common::read_text(real_file_system(), path, 1 << 20);
  REQUIRE(r.ok());
  return r.value();
}
std::size_t entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}
// A character device node of our own (as root), so that a regression replacing the target by
// rename damages only the scratch directory and never the system's /dev entry; without the
// right to create one, the system's node (which a non-root run cannot replace).
std::string scratch_device(const testsupport::TempDir& dir, const char* name, unsigned minor, const char* system) {
  const auto path = dir.file(name);
  if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, minor)) == 0) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);  // a nodev mount refuses it
    if (fd >= 0) {
      ::close(fd);
      return path;
    }
    ::unlink(path.c_str());
  }
  return system;
}
}  // namespace

TEST_CASE("atomic_file: writes new content and leaves no temporary") {
  testsupport::TempDir dir;
  auto path = dir.file("a.json");
  REQUIRE(common::write_file_atomic(real_file_system(), path, std::string_view("old\n")).ok());
  REQUIRE(common::write_file_atomic(real_file_system(), path, std::string_view("new\n")).ok());
  CHECK(slurp(path) == "new\n");
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("atomic_file: failing the Nth operation leaves old or new, never torn, and no temporary") {
  testsupport::TempDir dir;
  auto path = dir.file("state.bin");
  const std::string old_text(10000, 'o');
  const std::string new_text(20000, 'n');
  FaultInjectingFileSystem faulty(real_file_system());
  std::uint64_t n = 1;
  for (;; ++n) {
    REQUIRE(common::write_file_atomic(real_file_system(), path, std::string_view(old_text)).ok());
    faulty.fail_at(n);
    auto st = common::write_file_atomic(faulty, path, std::string_view(new_text));
    const std::string got = slurp(path);
    CHECK((got == old_text || got == new_text));
    CHECK(entries(dir.path()) == 1);
    if (st.ok()) {
      CHECK(got == new_text);
      break;
    }
    CHECK(st.error().code() == common::ErrorCode::io);
    CHECK(st.error().where().file == path);
  }
  CHECK(n >= 5);  // create, append, sync, rename, sync_dir were each failed once
}

TEST_CASE("atomic_file: a directory that does not exist is an io error naming the path") {
  testsupport::TempDir dir;
  auto path = dir.file("missing/x.json");
  auto st = common::write_file_atomic(real_file_system(), path, std::string_view("x"));
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().code() == common::ErrorCode::io);
  CHECK(st.error().to_string().find("missing/x.json") != std::string::npos);
}

TEST_CASE("atomic_file: a symbolic link is followed; its target is replaced and the link stays") {
  testsupport::TempDir dir;
  std::filesystem::create_directory(dir.file("real"));
  const auto target = dir.file("real/out.json");
  REQUIRE(common::write_file_atomic(real_file_system(), target, std::string_view("old\n")).ok());
  std::filesystem::create_symlink("real/out.json", dir.file("link.json"));  // relative link
  std::filesystem::create_symlink(dir.file("link.json"), dir.file("link2.json"));  // a chain
  REQUIRE(common::write_file_atomic(real_file_system(), dir.file("link2.json"), std::string_view("new\n")).ok());
  CHECK(std::filesystem::is_symlink(dir.file("link.json")));
  CHECK(std::filesystem::is_symlink(dir.file("link2.json")));
  CHECK(slurp(target) == "new\n");
  CHECK(entries(dir.file("real")) == 1);
  // A dangling link: its target is created.
  std::filesystem::create_symlink("real/fresh.json", dir.file("dangling.json"));
  REQUIRE(common::write_file_atomic(real_file_system(), dir.file("dangling.json"), std::string_view("x")).ok());
  CHECK(std::filesystem::is_symlink(dir.file("dangling.json")));
  CHECK(slurp(dir.file("real/fresh.json")) == "x");
  // A loop is an io error, not a hang.
  std::filesystem::create_symlink("loop_b", dir.file("loop_a"));
  std::filesystem::create_symlink("loop_a", dir.file("loop_b"));
  auto st = common::write_file_atomic(real_file_system(), dir.file("loop_a"), std::string_view("x"));
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().code() == common::ErrorCode::io);
}

TEST_CASE("atomic_file: a device is written in place, never replaced; /dev/full reports the error") {
  testsupport::TempDir dir;
  const std::string null = scratch_device(dir, "null", 3, "/dev/null");
  const std::string full = scratch_device(dir, "full", 7, "/dev/full");
  REQUIRE(common::write_file_atomic(real_file_system(), null, std::string_view("discarded")).ok());
  CHECK(std::filesystem::is_character_file(null));
  auto st = common::write_file_atomic(real_file_system(), full, std::string_view("x"));
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().to_string().starts_with(full + ": write failed: "));
  CHECK(std::filesystem::is_character_file(full));
}

TEST_CASE("atomic_file: a FIFO is written in place for its reader") {
  testsupport::TempDir dir;
  const auto fifo = dir.file("pipe");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream in(fifo, std::ios::binary);
    got.assign(std::istreambuf_iterator<char>(in), {});
  });
  const auto st = common::write_file_atomic(real_file_system(), fifo, std::string_view("through the pipe\n"));
  reader.join();
  CHECK(st.ok());
  CHECK(got == "through the pipe\n");
  CHECK(std::filesystem::is_fifo(fifo));
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("atomic_file: a directory at the path is an io error and is left alone") {
  testsupport::TempDir dir;
  std::filesystem::create_directory(dir.file("d"));
  auto st = common::write_file_atomic(real_file_system(), dir.file("d"), std::string_view("x"));
  REQUIRE_FALSE(st.ok());
  CHECK(st.error().to_string().ends_with("/d: is a directory"));
  CHECK(std::filesystem::is_directory(dir.file("d")));
}

TEST_CASE("atomic_file: a temporary left by a killed writer is removed by the next write; a live one is not") {
  testsupport::TempDir dir;
  const auto path = dir.file("out.jsonl");
  // A live writer's temporary: open and locked by "another writer" (this test).
  {
    std::ofstream(path + ".atomic-tmp.0") << "live";
  }
  const int live = ::open((path + ".atomic-tmp.0").c_str(), O_RDONLY);
  REQUIRE(live >= 0);
  REQUIRE(::flock(live, LOCK_EX) == 0);
  {
    std::ofstream(path + ".atomic-tmp.1") << "partial from a SIGKILLed run";
  }
  // An unrelated file with a similar name is not touched.
  {
    std::ofstream(path + ".tmp.123.0") << "not ours";
  }
  REQUIRE(common::write_file_atomic(real_file_system(), path, std::string_view("new\n")).ok());
  CHECK(slurp(path) == "new\n");
  CHECK(std::filesystem::exists(path + ".atomic-tmp.0"));
  CHECK_FALSE(std::filesystem::exists(path + ".atomic-tmp.1"));
  CHECK(std::filesystem::exists(path + ".tmp.123.0"));
  ::close(live);  // that writer died: its temporary goes with the next write
  REQUIRE(common::write_file_atomic(real_file_system(), path, std::string_view("newer\n")).ok());
  CHECK(slurp(path) == "newer\n");
  CHECK_FALSE(std::filesystem::exists(path + ".atomic-tmp.0"));
  CHECK(entries(dir.path()) == 2);  // out.jsonl and the file that is not ours
}

TEST_CASE("atomic_file: SIGTERM during a write removes the temporary (install_temp_file_cleanup)") {
  testsupport::TempDir dir;
  const auto path = dir.file("out.json");
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    CAPTURE(sig);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      common::install_temp_file_cleanup();
      // An unfinished write: the temporary exists and is registered, as inside write_file_atomic.
      auto temp = real_file_system().create_temp_beside(path);
      if (!temp) ::_exit(10);
      common::PendingTempFile pending(temp->path);
      if (!std::filesystem::exists(temp->path)) ::_exit(11);
      ::raise(sig);
      ::_exit(12);  // not reached: the handler re-raises with the default action
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    if (WIFSIGNALED(status)) CHECK(WTERMSIG(status) == sig);
    CHECK(entries(dir.path()) == 0);
  }
}
