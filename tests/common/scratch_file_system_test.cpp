#include "common/scratch_file_system.hpp"

#include <doctest/doctest.h>

#include "common/atomic_file.hpp"
#include "support/temp_dir.hpp"

using common::FaultInjectingFileSystem;
using common::real_file_system;
using common::ScratchFileSystem;

TEST_CASE("ScratchFileSystem: an atomic write reaches the disk whole, without the base's fsyncs") {
  testsupport::TempDir dir;
  const std::string path = dir.file("blob.bin");
  FaultInjectingFileSystem counted(real_file_system());  // counts every mutating call, syncs included
  REQUIRE(common::write_file_atomic(counted, path, "direct").ok());
  const std::uint64_t direct = counted.operations();  // create, append, fsync, rename, fsync of the directory

  counted.fail_at(0);
  ScratchFileSystem scratch(counted);
  REQUIRE(common::write_file_atomic(scratch, path, "through scratch").ok());
  CHECK(counted.operations() == direct - 2);  // the two flushes never reached the base
  auto text = common::read_text(real_file_system(), path, 1 << 10);
  REQUIRE(text.ok());
  CHECK(*text == "through scratch");
  CHECK(scratch.sync_file_system(dir.path()).ok());
  CHECK(counted.operations() == direct - 2);
}

TEST_CASE("ScratchFileSystem: every failure of a write, rename or removal still reaches the caller") {
  testsupport::TempDir dir;
  const std::string path = dir.file("blob.bin");
  FaultInjectingFileSystem faulty(real_file_system());
  ScratchFileSystem scratch(faulty);
  REQUIRE(common::write_file_atomic(scratch, path, "old").ok());
  const std::uint64_t ops = faulty.operations();
  REQUIRE(ops >= 3);
  for (std::uint64_t n = 1; n <= ops; ++n) {
    CAPTURE(n);
    faulty.fail_at(n);
    CHECK_FALSE(common::write_file_atomic(scratch, path, "new").ok());
    auto text = common::read_text(real_file_system(), path, 1 << 10);
    REQUIRE(text.ok());
    CHECK(*text == "old");  // the rename still replaces atomically: never a torn file
  }
  faulty.fail_at(1);
  CHECK_FALSE(scratch.remove(path).ok());
}
