#include "common/atomic_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>

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
