// hybrid::TraceFile: a Chrome trace streamed to a temporary file and renamed over the target
// when finished; refusals before anything is written; old-or-new under injected faults.
#include "hybrid/trace/trace_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/temp_dir.hpp"

namespace {

std::string read_trace_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()));
}

// Two batches of events, as a run hands them over step by step.
void two_batches(hybrid::TraceEvents& a, hybrid::TraceEvents& b) {
  a.name_process(1, "run");
  a.slice(1, 1, "step 0", "step", 0, 5);
  b.slice(1, 1, "step 1", "step", 5, 4, {{"k", "v"}});
}

}  // namespace

TEST_CASE("trace_file: events streamed in batches give the bytes of one TraceEvents; no temporary left") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.json");
  hybrid::TraceEvents whole, first, second;
  two_batches(whole, whole);
  two_batches(first, second);
  auto f = hybrid::TraceFile::open(common::real_file_system(), path);
  REQUIRE(f.ok());
  CHECK_FALSE(std::filesystem::exists(path));  // nothing at the target before finish()
  REQUIRE(f->append(first).ok());
  CHECK(first.size() == 0);  // handed over, not kept
  hybrid::TraceEvents none;
  REQUIRE(f->append(none).ok());
  REQUIRE(f->append(second).ok());
  REQUIRE(f->finish().ok());
  CHECK(read_trace_file(path) == whole.json());
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("trace_file: an empty trace is valid JSON; an unfinished one leaves the old file and no temporary") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.json");
  {
    auto f = hybrid::TraceFile::open(common::real_file_system(), path);
    REQUIRE(f.ok());
    REQUIRE(f->finish().ok());
  }
  CHECK(read_trace_file(path) == hybrid::TraceEvents{}.json());
  {
    auto f = hybrid::TraceFile::open(common::real_file_system(), path);
    REQUIRE(f.ok());
    hybrid::TraceEvents ev;
    ev.slice(1, 1, "x", "y", 0, 1);
    REQUIRE(f->append(ev).ok());
    CHECK(entries(dir.path()) == 2);  // the target and the temporary
  }
  CHECK(read_trace_file(path) == hybrid::TraceEvents{}.json());
  CHECK(entries(dir.path()) == 1);
}

TEST_CASE("trace_file: a missing directory, a symbolic link, a directory are refused, nothing written") {
  testsupport::TempDir dir;
  common::FileSystem& fs = common::real_file_system();
  auto missing = hybrid::TraceFile::open(fs, dir.file("no/t.json"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code() == common::ErrorCode::io);
  CHECK(missing.error().to_string() == dir.file("no/t.json") + ": the directory " + dir.file("no") + " does not exist");
  std::filesystem::create_symlink(dir.file("elsewhere.json"), dir.file("link.json"));
  auto link = hybrid::TraceFile::open(fs, dir.file("link.json"));
  REQUIRE_FALSE(link.ok());
  CHECK(link.error().to_string() == dir.file("link.json") + ": is a symbolic link; a trace is not written through one");
  std::filesystem::create_directory(dir.file("d"));
  auto d = hybrid::TraceFile::open(fs, dir.file("d"));
  REQUIRE_FALSE(d.ok());
  CHECK(d.error().to_string() == dir.file("d") + ": is a directory");
  CHECK_FALSE(std::filesystem::exists(dir.file("elsewhere.json")));
  CHECK(entries(dir.path()) == 2);  // the link and the directory, no temporary
}

TEST_CASE("trace_file: the Nth write, fsync or rename failing leaves the old file, never a torn one, and no temporary") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.json");
  common::FaultInjectingFileSystem faulty(common::real_file_system());
  hybrid::TraceEvents whole;
  two_batches(whole, whole);
  std::uint64_t n = 1;
  for (;; ++n) {
    std::ofstream(path, std::ios::trunc) << "old";
    faulty.fail_at(n);
    common::Status done = [&]() -> common::Status {
      auto f = hybrid::TraceFile::open(faulty, path);
      if (!f.ok()) return f.error();
      hybrid::TraceEvents a, b;
      two_batches(a, b);
      if (common::Status s = f->append(a); !s.ok()) return s;
      if (common::Status s = f->append(b); !s.ok()) return s;
      return f->finish();
    }();
    const std::string now = read_trace_file(path);
    CHECK((now == "old" || now == whole.json()));  // a failed directory fsync comes after the rename
    CHECK(entries(dir.path()) == 1);
    if (done.ok()) {
      CHECK(now == whole.json());
      break;
    }
    CHECK(done.error().code() == common::ErrorCode::io);
    CHECK(done.error().where().file == path);
    REQUIRE(n < 20);
  }
  CHECK(n == 9);  // create, 4 appends (head, two batches, tail), sync, rename, sync_dir: each failed once
}
