#include "common/file_system.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.hpp"

using common::ReadFailure;
using common::real_file_system;

namespace {

ReadFailure reason_of(const std::string& path, std::size_t max_bytes = 1 << 20) {
  auto r = real_file_system().read_file(path, max_bytes);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().error.code() == common::ErrorCode::io);
  CHECK(r.error().error.where().file == path);
  return r.error().reason;
}

}  // namespace

TEST_CASE("file_system: read_file returns the whole file, and a typed reason when it cannot") {
  testsupport::TempDir dir;
  const std::string path = dir.file("in.json");
  const std::string content(200'000, 'x');
  {
    std::ofstream(path, std::ios::binary) << content;
  }
  auto ok = real_file_system().read_file(path, content.size());
  REQUIRE(ok.ok());
  CHECK(*ok == content);
  auto empty_path = dir.file("empty");
  {
    std::ofstream(empty_path) << "";
  }
  auto empty = real_file_system().read_file(empty_path, 10);
  REQUIRE(empty.ok());
  CHECK(empty->empty());

  CHECK(reason_of(dir.file("missing.json")) == ReadFailure::not_found);
  CHECK(reason_of(path + "/below-a-file") == ReadFailure::not_found);
  CHECK(reason_of(dir.path()) == ReadFailure::is_directory);
  CHECK(reason_of(path, content.size() - 1) == ReadFailure::too_large);
  auto big = real_file_system().read_file(path, 10);
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().error.message() == "file is 200000 bytes; the limit is 10");
  if (::geteuid() != 0) {  // root reads anything
    REQUIRE(::chmod(path.c_str(), 0) == 0);
    CHECK(reason_of(path) == ReadFailure::permission_denied);
  }
}

TEST_CASE("file_system: read_file of a device or a pipe reads to the end, within the limit") {
  auto null = real_file_system().read_file("/dev/null", 10);
  REQUIRE(null.ok());
  CHECK(null->empty());
  // /dev/zero never ends: the limit stops it.
  CHECK(reason_of("/dev/zero", 100'000) == ReadFailure::too_large);
}

TEST_CASE("file_system: read_text and read agree with read_file") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.txt");
  {
    std::ofstream(path, std::ios::binary) << "line\n";
  }
  auto text = common::read_text(real_file_system(), path, 100);
  REQUIRE(text.ok());
  CHECK(*text == "line\n");
  auto bytes = real_file_system().read(path, 100);
  REQUIRE(bytes.ok());
  CHECK(bytes->size() == 5);
  auto dir_error = common::read_text(real_file_system(), dir.path(), 100);
  REQUIRE_FALSE(dir_error.ok());
  CHECK(dir_error.error().to_string() == dir.path() + ": is a directory");
}
