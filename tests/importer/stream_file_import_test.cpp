#include "importer/stream_file_import.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <future>
#include <string>
#include <thread>

#include "common/sha256.hpp"
#include "importer/helper_capture.hpp"
#include "sidecar_fixture.hpp"

using namespace importer_test;
using nlohmann::ordered_json;

namespace stream_file_import_test {

importer::ImportOptions stream_options() {
  importer::ImportOptions o;
  o.framework = importer::Framework::pytorch;
  o.import_timestamp = "2026-01-02T03:04:05.000Z";
  return o;
}

// A file holding `bytes`, open for reading, removed at once.
int file_with(const std::string& bytes) {
  char name[] = "/tmp/stream-import-test-XXXXXX";
  const int fd = ::mkstemp(name);
  REQUIRE(fd >= 0);
  ::unlink(name);
  REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  REQUIRE(::lseek(fd, 0, SEEK_SET) == 0);
  return fd;
}

struct Imported {
  common::Result<importer::StreamOutcome> outcome;
  std::string bytes;  // the receipts as replayed, digest in place
};

Imported import_fd(int fd, std::size_t chunk_limit = 0) {
  common::Spool receipts;
  REQUIRE_FALSE(receipts.open("stream-import-test").has_value());
  Imported r{importer::import_sidecar_stream_fd(fd, stream_options(), receipts), {}};
  if (r.outcome) {
    REQUIRE(importer::replay_receipts(receipts, *r.outcome, [&](std::string_view chunk) {
      CHECK((chunk_limit == 0 || chunk.size() <= chunk_limit));
      r.bytes += chunk;
      return true;
    }));
  }
  return r;
}

// `input` refused from a file as import_sidecar_stream refuses it in memory, in the same words.
void same_refusal(const std::string& input) {
  auto want = importer::import_sidecar_stream(input, stream_options());
  REQUIRE_FALSE(want.ok());
  const int fd = file_with(input);
  const Imported got = import_fd(fd);
  ::close(fd);
  REQUIRE_FALSE(got.outcome.ok());
  CHECK(got.outcome.error().message() == want.error().message());
}

void same_as_in_memory(const Imported& got, const std::string& input) {
  auto want = importer::import_sidecar_stream(input, stream_options());
  REQUIRE_MESSAGE(want.ok(), want.error().to_string());
  REQUIRE_MESSAGE(got.outcome.ok(), got.outcome.error().to_string());
  CHECK(got.bytes == want->bytes);
  CHECK(got.outcome->bundle_root_digest == want->bundle_root_digest.value_or(""));
  CHECK(got.outcome->steps.size() == want->steps.size());
}

}  // namespace stream_file_import_test

using namespace stream_file_import_test;

TEST_CASE("stream_file_import: a file and a pipe give the in-memory import's receipts, digest in place") {
  const std::string input = jsonl(xor_trace());
  const int fd = file_with(input);
  same_as_in_memory(import_fd(fd), input);
  ::close(fd);

  int p[2];
  REQUIRE(::pipe(p) == 0);
  std::thread writer([&] {
    for (std::size_t at = 0; at < input.size();) {
      const ssize_t n = ::write(p[1], input.data() + at, std::min<std::size_t>(1000, input.size() - at));
      if (n <= 0) break;
      at += static_cast<std::size_t>(n);
    }
    ::close(p[1]);
  });
  const Imported piped = import_fd(p[0]);
  writer.join();
  ::close(p[0]);
  same_as_in_memory(piped, input);
}

TEST_CASE("stream_file_import: a descriptor already read into is imported from where it stands") {
  const std::string rest = jsonl(xor_trace());
  const int fd = file_with("not a sidecar\n" + rest);
  REQUIRE(::lseek(fd, 14, SEEK_SET) == 14);
  same_as_in_memory(import_fd(fd), rest);
  ::close(fd);
}

TEST_CASE("stream_file_import: only the digest field gets the digest, in every chunk a placeholder straddles") {
  auto records = xor_trace();
  for (auto& r : records) r["source_framework"]["version"] = "sha256:" + std::string(64, '0');
  const std::string input = jsonl(records);
  const int fd = file_with(input);
  const Imported got = import_fd(fd, 1 << 16);
  ::close(fd);
  same_as_in_memory(got, input);
  // Chunks cut anywhere, a placeholder split between two or more of them.
  REQUIRE(got.outcome.ok());
  std::string unpatched = got.bytes;
  for (const auto at : got.outcome->digest_at) unpatched.replace(at, 71, "sha256:" + std::string(64, '0'));
  for (std::size_t size : {1, 5, 70, 71, 72, 1000}) {
    std::string patched = unpatched;
    for (std::size_t at = 0; at < patched.size(); at += size) {
      const std::size_t n = std::min(size, patched.size() - at);
      importer::patch_digests(*got.outcome, at, std::span<char>(patched.data() + at, n));
    }
    CHECK_MESSAGE(patched == got.bytes, "chunks of " << size);
  }
}

TEST_CASE("stream_file_import: bytes that differ from the first reading are refused, nothing imported") {
  const std::string input = jsonl(xor_trace());
  const int fd = file_with(input);
  common::Spool receipts;
  REQUIRE_FALSE(receipts.open("stream-import-test").has_value());
  const std::string other = "sha256:" + common::sha256_hex(input + "\n");
  auto r = importer::import_hashed_stream(fd, other, stream_options(), receipts);
  ::close(fd);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message() ==
        "bp import pytorch multi: the input changed while it was being read (its bytes differ between the two "
        "readings the import makes); nothing was imported.");
}

TEST_CASE("stream_file_import: empty, blank and capture inputs are refused as the in-memory import refuses them") {
  const std::string capture = std::string(importer::kCaptureMagic) + "Z";
  for (const std::string& input : {std::string(), std::string(" \n\r\n\t\n"), capture}) same_refusal(input);
}

TEST_CASE("stream_file_import: a record's own failure names its line, as in memory") {
  auto records = xor_trace();
  records.back()["step_index"] = 7;
  records.insert(records.begin() + 1, ordered_json::parse(R"({"format":"framework-trace.v0.1.0"})"));
  same_refusal(jsonl(records) + "{not json\n");
}

TEST_CASE("stream_file_import: an endless line (/dev/zero) ends the first reading at the limit, naming the line") {
  int p[2];
  REQUIRE(::pipe(p) == 0);
  // Four times the limit on offer: the reading must stop just past it, not read (and copy) it all.
  importer::ImportOptions options = stream_options();
  options.max_line_bytes = std::size_t{1} << 20;
  const std::size_t offered = 4 * options.max_line_bytes;
  std::size_t written = 0;
  std::thread writer([w = p[1], offered, &written] {
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);  // a closed reader is EPIPE here, not the end of the test
    std::string block(1 << 16, 'x');
    block[0] = '\n';  // line 1 is empty; line 2 never ends
    while (written < offered) {
      const ssize_t n = ::write(w, block.data(), block.size());
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
      block[0] = 'x';
    }
    ::close(w);
  });
  common::Spool receipts;
  REQUIRE_FALSE(receipts.open("stream-import-test").has_value());
  auto got = importer::import_sidecar_stream_fd(p[0], options, receipts);
  ::close(p[0]);
  writer.join();
  REQUIRE_FALSE(got.ok());
  CHECK(got.error().message() == "bp import pytorch multi: line 2 is longer than 1048576 bytes, the limit for one record.");
  CHECK(written < offered);
}

namespace stream_file_import_test {

// `n` records: the xor trace's steps over and over, step_index 0..n-1 (each is witnessed alone).
std::vector<ordered_json> long_trace(std::size_t n) {
  const auto steps = xor_trace();
  std::vector<ordered_json> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(steps[i % steps.size()]);
    out.back()["step_index"] = i;
  }
  return out;
}

// What one job gives in memory, from a file on 1, 2, 3 and 8 jobs: the same receipts, digest and
// outcomes, or the same first error.
void same_on_every_jobs(const std::string& input, const std::string& what) {
  auto want = importer::import_sidecar_stream(input, stream_options());
  for (std::size_t jobs : {1, 2, 3, 8}) {
    INFO(what << ", " << jobs << " jobs");
    const int fd = file_with(input);
    common::Spool receipts;
    REQUIRE_FALSE(receipts.open("stream-import-test").has_value());
    importer::ImportOptions options = stream_options();
    options.jobs = jobs;
    auto got = importer::import_sidecar_stream_fd(fd, options, receipts);
    ::close(fd);
    REQUIRE(got.ok() == want.ok());
    if (!want.ok()) {
      CHECK(got.error().message() == want.error().message());
      continue;
    }
    std::string bytes;
    REQUIRE(importer::replay_receipts(receipts, *got, [&](std::string_view chunk) {
      bytes += chunk;
      return true;
    }));
    CHECK(bytes == want->bytes);
    CHECK(got->bundle_root_digest == want->bundle_root_digest.value_or(""));
    REQUIRE(got->steps.size() == want->steps.size());
    for (std::size_t i = 0; i < want->steps.size(); ++i) {
      CHECK(got->steps[i].passed == want->steps[i].passed);
      CHECK(got->steps[i].disagreements.size() == want->steps[i].disagreements.size());
    }
  }
}

}  // namespace stream_file_import_test

TEST_CASE("stream_file_import: 2, 3 and 8 jobs give one job's receipts and first error, for every damage at every record") {
  constexpr std::size_t kRecords = 10;
  const auto clean = long_trace(kRecords);
  same_on_every_jobs(jsonl(clean), "clean");
  {
    auto records = clean;
    records[3]["loss"]["total"] = 0.5;
    auto disagreeing = importer::import_sidecar_stream(jsonl(records), stream_options());
    REQUIRE(disagreeing.ok());
    CHECK_FALSE(disagreeing->steps[3].passed);  // so the damage below reaches the outcomes compared
  }
  using Damage = void (*)(std::vector<ordered_json>&, std::size_t);
  const std::vector<std::pair<const char*, Damage>> damages = {
      {"schema", [](auto& r, std::size_t k) { r[k]["inputs"] = "x"; }},
      {"step_index", [](auto& r, std::size_t k) { r[k]["step_index"] = 99; }},
      {"trace_id", [](auto& r, std::size_t k) { r[k]["trace_id"] = std::string(32, 'e'); }},
      {"no trace_id", [](auto& r, std::size_t k) { r[k].erase("trace_id"); }},
      {"framework version", [](auto& r, std::size_t k) { r[k]["source_framework"]["version"] = "9.9"; }},
      {"unwitnessable", [](auto& r, std::size_t k) { r[k]["inputs"].erase(r[k]["inputs"].begin().key()); }},
      {"unwritable", [](auto& r, std::size_t k) { r[k]["inputs"][r[k]["inputs"].begin().key()] = 1e300; }},
      {"spells the placeholder",
       [](auto& r, std::size_t k) { r[k]["source_framework"]["version"] = "sha256:" + std::string(64, '0'); }},
      {"disagrees", [](auto& r, std::size_t k) { r[k]["loss"]["total"] = 0.5; }},
  };
  for (std::size_t k = 0; k < kRecords; ++k) {
    for (const auto& [name, damage] : damages) {
      auto records = clean;
      damage(records, k);
      same_on_every_jobs(jsonl(records), std::string(name) + " at record " + std::to_string(k));
    }
    // Not JSON, and a blank line before record k (not a record: the numbering goes on).
    std::string text = jsonl(clean);
    std::size_t at = 0;
    for (std::size_t i = 0; i < k; ++i) at = text.find('\n', at) + 1;
    same_on_every_jobs(text.substr(0, at) + "{not json\n" + text.substr(at), "not JSON at record " + std::to_string(k));
    same_on_every_jobs(text.substr(0, at) + " \t\n" + text.substr(at), "blank before record " + std::to_string(k));
  }
  // Two failures: the first in stream order wins, and an emission failure's field is searched for
  // in the receipts after it (each prepared on another thread and already released).
  for (std::size_t k = 0; k + 2 < kRecords; ++k) {
    auto records = clean;
    damages[6].second(records, k);
    damages[6].second(records, k + 2);
    same_on_every_jobs(jsonl(records), "unwritable at " + std::to_string(k) + " and " + std::to_string(k + 2));
    damages[5].second(records, k + 1);
    same_on_every_jobs(jsonl(records), "and unwitnessable at " + std::to_string(k + 1));
    records[k + 2] = "not a sidecar";
    same_on_every_jobs(jsonl(records), "and not a sidecar at " + std::to_string(k + 2));
  }
}

TEST_CASE("stream_file_import: records imported before the first reading ends wait for it, and its failure wins") {
  // With jobs > 1 a file's first reading (its hash) runs beside the import. Here it is deferred
  // until the import asks for it (std::launch::deferred), so every record is imported first.
  constexpr std::size_t kRecords = 12;
  const auto records = long_trace(kRecords);
  const std::string text = jsonl(records);
  auto want = importer::import_sidecar_stream(text, stream_options());
  REQUIRE(want.ok());
  const std::string hash = "sha256:" + common::sha256_hex(text);
  auto damaged = records;
  damaged[1]["inputs"] = "x";  // the schema refuses record 2
  const std::string refused = jsonl(damaged);
  const common::Error first_failed = common::Error::io("the first reading's own failure");
  for (std::size_t jobs : {1, 2, 3}) {
    INFO(jobs << " jobs");
    importer::ImportOptions options = stream_options();
    options.jobs = jobs;
    {  // the hash comes last: the receipts are those of an import that had it first
      const int fd = file_with(text);
      common::Spool receipts;
      REQUIRE_FALSE(receipts.open("stream-import-test").has_value());
      auto got = importer::import_hashed_stream(
          fd, std::async(std::launch::deferred, [&] { return common::Result<std::string>(hash); }), options, receipts);
      ::close(fd);
      REQUIRE_MESSAGE(got.ok(), got.error().to_string());
      std::string bytes;
      REQUIRE(importer::replay_receipts(receipts, *got, [&](std::string_view chunk) {
        bytes += chunk;
        return true;
      }));
      CHECK(bytes == want->bytes);
    }
    for (const std::string& input : {text, refused}) {  // its failure, whether a record failed or none
      const int fd = file_with(input);
      common::Spool receipts;
      REQUIRE_FALSE(receipts.open("stream-import-test").has_value());
      auto got = importer::import_hashed_stream(
          fd, std::async(std::launch::deferred, [&] { return common::Result<std::string>(first_failed); }), options,
          receipts);
      ::close(fd);
      REQUIRE_FALSE(got.ok());
      CHECK(got.error().message() == first_failed.message());
    }
  }
}
