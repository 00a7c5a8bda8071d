// nl_store/run_store: a run directory as a hybrid checkpoint root. Saves and loads bit for bit,
// old checkpoint.nltrain directories load and are replaced by the next save, a failure at any
// write, fsync, rename or syncfs of a save leaves the previous checkpoint (and nothing else), and
// a symbolic link under the directory is refused, never followed.
#include "nl_store/run_store.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "common/atomic_file.hpp"
#include "common/file_system.hpp"
#include "support/temp_dir.hpp"
#include "trained_state.hpp"

namespace fs = std::filesystem;

namespace {

std::string bytes_of(const nl::Checkpoint& c) { return nl::encode_checkpoint(c); }

// Every file below `dir` with its bytes: what "the directory holds the same checkpoint" means.
std::map<std::string, std::string> tree(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    out[fs::relative(e.path(), dir).string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

}  // namespace

TEST_CASE("run_store: save then load gives the state back bit for bit; the layout is a hybrid checkpoint root") {
  testsupport::TempDir dir;
  nl::Trainer t = storetest::trained(nl::RuleKind::titans, 2, 9);
  const nl::Checkpoint c{t.state(), "{\"steps\":9}"};
  REQUIRE(nl_store::save_run(dir.path(), c).ok());
  CHECK(fs::is_regular_file(dir.file("checkpoint/checkpoint.meta")));
  CHECK(fs::is_regular_file(dir.file("checkpoint/tensor_files.json")));
  CHECK(fs::is_regular_file(dir.file("blobs/tensor/tensor:E:len512.bin")));
  CHECK(fs::is_regular_file(dir.file("blobs/tensor/tensor%:context%2Flevels%2F1%2Fstate:len" +
                                     std::to_string(4 * c.state.context.levels[1].size()) + ".bin")));
  CHECK(nl_store::has_run_checkpoint(dir.path()));
  CHECK(nl_store::run_manifest_path(dir.path()) == dir.file("checkpoint/checkpoint.meta"));
  auto back = nl_store::load_run(dir.path());
  REQUIRE(back.ok());
  CHECK(bytes_of(*back) == bytes_of(c));
  // The same state saved again gives the same bytes (created_unix is the step, not the clock).
  const auto first = tree(dir.path());
  REQUIRE(nl_store::save_run(dir.path(), c).ok());
  CHECK(tree(dir.path()) == first);
}

TEST_CASE("run_store: an old checkpoint.nltrain loads, and the next save replaces it with the new layout") {
  testsupport::TempDir dir;
  nl::Trainer t = storetest::trained(nl::RuleKind::delta, 2, 5);
  const nl::Checkpoint old{t.state(), "{\"old\":1}"};
  REQUIRE(common::write_file_atomic(common::real_file_system(), dir.file("checkpoint.nltrain"), nl::encode_checkpoint(old)).ok());
  CHECK(nl_store::has_run_checkpoint(dir.path()));
  auto a = nl_store::load_run(dir.path());
  REQUIRE(a.ok());
  CHECK(bytes_of(*a) == bytes_of(old));
  auto b = nl_store::load_run(dir.file("checkpoint.nltrain"));  // the file itself, as before
  REQUIRE(b.ok());
  CHECK(bytes_of(*b) == bytes_of(old));
  nl::Trainer t2 = storetest::trained(nl::RuleKind::delta, 2, 6);
  const nl::Checkpoint next{t2.state(), "{\"new\":1}"};
  REQUIRE(nl_store::save_run(dir.path(), next).ok());
  CHECK_FALSE(fs::exists(dir.file("checkpoint.nltrain")));
  auto c = nl_store::load_run(dir.path());
  REQUIRE(c.ok());
  CHECK(bytes_of(*c) == bytes_of(next));
}

TEST_CASE("run_store: nothing there, or another root's checkpoint, is refused") {
  testsupport::TempDir dir;
  auto none = nl_store::load_run(dir.path());
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message().find("no checkpoint here") != std::string::npos);
  CHECK_FALSE(nl_store::has_run_checkpoint(dir.path()));
  fs::create_directories(dir.file("checkpoint"));
  std::ofstream(dir.file("checkpoint/checkpoint.meta")) << "version=2\ncreated_unix=0\nentry_count=0\n";
  auto foreign = nl_store::load_run(dir.path());
  REQUIRE_FALSE(foreign.ok());
  CHECK(foreign.error().message().find("expected one file, trainer_state.safetensors") != std::string::npos);
}

TEST_CASE("run_store: a failure at each write, rename, mkdir or syncfs of a save leaves the previous checkpoint") {
  nl::Trainer t = storetest::trained(nl::RuleKind::delta, 1, 4);
  const nl::Checkpoint v1{t.state(), "{\"v\":1}"};
  nl::Trainer t2 = storetest::trained(nl::RuleKind::delta, 1, 7);
  const nl::Checkpoint v2{t2.state(), "{\"v\":2}"};
  testsupport::TempDir dir;
  const std::string committed_dir = dir.file("v1");
  fs::create_directories(committed_dir);
  REQUIRE(nl_store::save_run(committed_dir, v1).ok());
  const auto committed = tree(committed_dir);
  const std::string run = dir.file("run");
  fs::copy(committed_dir, run, fs::copy_options::recursive);
  std::uint64_t n = 1;
  for (;; ++n) {  // a failed save leaves `run` as committed (checked below), ready for the next n
    common::FaultInjectingFileSystem faulty(common::real_file_system());
    faulty.fail_at(n);
    const common::Status s = nl_store::save_run(run, v2, faulty);
    auto back = nl_store::load_run(run);
    REQUIRE(back.ok());
    if (!faulty.fired()) {
      REQUIRE(s.ok());
      CHECK(bytes_of(*back) == bytes_of(v2));
      break;
    }
    CAPTURE(n);
    REQUIRE_FALSE(s.ok());
    CHECK(s.error().message().find("the previous checkpoint is unchanged") != std::string::npos);
    CHECK(bytes_of(*back) == bytes_of(v1));
    REQUIRE(tree(run) == committed);  // old bytes, and nothing added (temporaries, backups)
    if (n % 64 == 1) {                 // and the next save succeeds (a sample: each save costs a syncfs)
      REQUIRE(nl_store::save_run(run, v2).ok());
      auto after = nl_store::load_run(run);
      REQUIRE(after.ok());
      CHECK(bytes_of(*after) == bytes_of(v2));
      fs::remove_all(run);
      fs::copy(committed_dir, run, fs::copy_options::recursive);
    }
  }
  CHECK(n > 100);  // every blob of the 55 tensors, the file list, the syncfs and the manifest were failed once
}

TEST_CASE("run_store: a symbolic link under the run directory is refused, never followed") {
  testsupport::TempDir dir, outside;
  nl::Trainer t = storetest::trained(nl::RuleKind::delta, 1, 2);
  const nl::Checkpoint c{t.state(), "{}"};
  const std::string run = dir.file("run");
  fs::create_directories(run);
  fs::create_directory_symlink(outside.path(), run + "/blobs");
  const common::Status s = nl_store::save_run(run, c);
  REQUIRE_FALSE(s.ok());
  CHECK(s.error().message().find("blobs") != std::string::npos);
  CHECK(fs::is_empty(outside.path()));
  CHECK_FALSE(fs::exists(run + "/checkpoint"));
  // A good checkpoint whose blobs directory is then swapped for a link: the load refuses too.
  fs::remove(run + "/blobs");
  REQUIRE(nl_store::save_run(run, c).ok());
  fs::rename(run + "/blobs", outside.file("blobs"));
  fs::create_directory_symlink(outside.file("blobs"), run + "/blobs");
  auto r = nl_store::load_run(run);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("blobs") != std::string::npos);
}

TEST_CASE("run_store: a load that overlaps saves into the same directory gets one whole checkpoint, never an error") {
  // A trainer saves every step while `nltrain eval`, `export` or a refused second `train
  // --resume` reads the directory: a save replaces blobs in place and sweeps after its commit.
  testsupport::TempDir dir;
  std::vector<std::string> saved;
  std::vector<nl::Checkpoint> states;
  for (std::size_t k = 0; k < 3; ++k) {
    nl::Trainer t = storetest::trained(nl::RuleKind::delta, 2, 1 + k);
    states.push_back({t.state(), "{\"k\":" + std::to_string(k) + "}"});
    saved.push_back(bytes_of(states.back()));
  }
  REQUIRE(nl_store::save_run(dir.path(), states[0]).ok());
  std::atomic<bool> done{false};
  std::atomic<bool> save_failed{false};
  std::thread writer([&] {
    for (std::size_t i = 1; i < 60; ++i) {
      if (!nl_store::save_run(dir.path(), states[i % 3]).ok()) save_failed = true;
    }
    done = true;
  });
  std::size_t loads = 0;
  std::set<std::string> failures;
  while (!done) {
    auto c = nl_store::load_run(dir.path());
    ++loads;
    if (!c.ok()) {
      failures.insert(c.error().message());
    } else if (std::find(saved.begin(), saved.end(), bytes_of(*c)) == saved.end()) {
      failures.insert("a checkpoint that was never saved");
    }
  }
  writer.join();
  CHECK_FALSE(save_failed);
  CHECK(loads > 0);
  CHECK(failures.empty());
  for (const auto& f : failures) MESSAGE(f);
}
