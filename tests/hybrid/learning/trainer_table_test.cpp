#include "hybrid/learning/trainer_table.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "common/file_system.hpp"
#include "hybrid/codec/fnv1a32.hpp"
#include "hybrid/format/format_sum.hpp"
#include "hybrid/learning/context_bucket.hpp"
#include "hybrid/learning/trainer_integration.hpp"
#include "plans_for_test.hpp"
#include "support/temp_dir.hpp"

using namespace hybrid;

namespace {

common::FileSystem& fs() { return common::real_file_system(); }

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `body` sealed with the V2/V3 trailer, as the writer seals it: a hand-made table the checksum accepts.
std::string with_trailer(const std::string& body) {
  return body + "table_end;len=" + std::to_string(body.size()) + ";crc32c=" +
         std::to_string(format_checksum(FormatSum::crc32c, body)) + "\n";
}

SelfTrainer trained() {
  SelfTrainer t;
  const auto a = context_from_pressures(true, 0.1F, 0.1F);
  const auto b = context_from_pressures(true, 0.95F, 0.6F);
  for (int i = 0; i < 4; ++i) {
    t.record_episode({a, testplans::gpu_plan(), EpisodeOutcome{true, 9, false}});
    t.record_episode({a, testplans::cpu_plan(), EpisodeOutcome{true, 3, false}});
    t.record_episode({b, testplans::gpu_plan(), EpisodeOutcome{false, 1, true}});
  }
  return t;
}

// A table of CPU/GPU rows only, written and read back as atenia learn and explain do.
common::Status save(common::FileSystem& f, const SelfTrainer& t, const std::string& path) {
  return write_trainer_table(f, TrainerTable{t, {}, {}}, path);
}
common::Result<SelfTrainer> load(common::FileSystem& f, const std::string& path) { return read_trainer_table_strict(f, path); }

}  // namespace

TEST_CASE("trainer_table: persistence_roundtrip_preserves_recommendations") {
  testsupport::TempDir dir;
  const SelfTrainer t = trained();
  REQUIRE(save(fs(), t, dir.file("table.txt")).ok());
  auto back = load(fs(), dir.file("table.txt"));
  REQUIRE(back.ok());
  for (auto ctx : {context_from_pressures(true, 0.1F, 0.1F), context_from_pressures(true, 0.95F, 0.6F)}) {
    CHECK(back->recommend_for_bucket(bucket_for(ctx)) == t.recommend_for_bucket(bucket_for(ctx)));
  }
  CHECK(back->recommend_for_bucket(bucket_for(context_from_pressures(true, 0.1F, 0.1F))) == BackendChoice::gpu);
}

TEST_CASE("trainer_table: persistence_roundtrip_preserves_stats") {
  testsupport::TempDir dir;
  SelfTrainer t;
  const auto ctx = context_from_pressures(true, 0.8F, 0.3F);
  t.record_episode({ctx, {BackendChoice::gpu, 1, 0, 0}, {true, -7, true}});
  REQUIRE(save(fs(), t, dir.file("t.txt")).ok());
  auto back = load(fs(), dir.file("t.txt"));
  REQUIRE(back.ok());
  CHECK(back->stats_for_bucket(bucket_for(ctx), BackendChoice::gpu) == t.stats_for_bucket(bucket_for(ctx), BackendChoice::gpu));
  CHECK(back->all_stats().size() == 1);
}

TEST_CASE("trainer_table: corrupted_lines_are_ignored") {
  testsupport::TempDir dir;
  write(dir.file("t.txt"),
        "ATENIA_SELFTRAINER_V1\n"
        "gpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=x;success=1;score_sum=7;drift=0\n"
        "gpu_avail=1;vram_band=0;ram_band=0;backend=cpu;count=2;success=1;score_sum=7;drift=0;future=9\n");
  ParsedTable back = parse_trainer_table(slurp(dir.file("t.txt")));
  REQUIRE(back.header_ok);
  CHECK(back.skipped.size() == 1);
  const auto ctx = context_from_pressures(true, 0.1F, 0.1F);
  CHECK_FALSE(back.trainer.stats_for_bucket(bucket_for(ctx), BackendChoice::gpu).has_value());
  auto cpu = back.trainer.stats_for_bucket(bucket_for(ctx), BackendChoice::cpu);
  REQUIRE(cpu.has_value());
  CHECK(*cpu == ChoiceStats{2, 1, 7, 0});

  auto strict = read_trainer_table_strict(fs(), dir.file("t.txt"));
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.error().to_string() == dir.file("t.txt") + ":2: count must be an unsigned 32-bit integer, got 'x'");
}

TEST_CASE("trainer_table: a missing file is an error naming it") {
  testsupport::TempDir dir;
  auto back = read_trainer_table_strict(fs(), dir.file("nope.txt"));
  REQUIRE_FALSE(back.ok());
  CHECK(back.error().to_string().find(dir.file("nope.txt")) != std::string::npos);
}

TEST_CASE("trainer_table: an unknown header reads as no table; the strict read names it") {
  testsupport::TempDir dir;
  write(dir.file("t.txt"), "ATENIA_SELFTRAINER_V9\ngpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=1;success=1;score_sum=1;drift=0\n");
  ParsedTable back = parse_trainer_table(slurp(dir.file("t.txt")));
  CHECK_FALSE(back.header_ok);
  CHECK(back.trainer.empty());
  auto strict = read_trainer_table_strict(fs(), dir.file("t.txt"));
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.error().to_string() ==
        dir.file("t.txt") + ":1: not a self-training table; expected header ATENIA_SELFTRAINER_V2 (or ATENIA_SELFTRAINER_V3, "
                            "ATENIA_SELFTRAINER_V1)");
}

TEST_CASE("trainer_table: the format is sorted, stable and ends with a verified trailer") {
  const std::string text = format_trainer_table(trained());
  CHECK(text.starts_with("ATENIA_SELFTRAINER_V2\n"
                         "gpu_avail=1;vram_band=0;ram_band=0;backend=cpu;count=4;success=4;score_sum=12;drift=0\n"
                         "gpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=4;success=4;score_sum=36;drift=0\n"
                         "gpu_avail=1;vram_band=3;ram_band=1;backend=gpu;count=4;success=0;score_sum=4;drift=4\n"
                         "table_end;len="));
  CHECK(text == format_trainer_table(trained()));
  auto parsed = parse_trainer_table(text);
  CHECK(parsed.verified);
  CHECK(parsed.skipped.empty());
}

TEST_CASE("trainer_table: a flipped byte or a truncation fails verification") {
  testsupport::TempDir dir;
  REQUIRE(save(fs(), trained(), dir.file("t.txt")).ok());
  std::string text = slurp(dir.file("t.txt"));
  std::string flipped = text;
  flipped[flipped.find("score_sum=36") + 10] = '7';  // still a valid row: only the checksum sees it
  write(dir.file("t.txt"), flipped);
  auto bad = load(fs(), dir.file("t.txt"));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().code() == common::ErrorCode::malformed);
  CHECK(bad.error().message().find("checksum mismatch") != std::string::npos);

  std::string cut = text;
  cut.erase(cut.find("gpu_avail=1;vram_band=3"), cut.find("table_end") - cut.find("gpu_avail=1;vram_band=3"));
  write(dir.file("t.txt"), cut);
  auto strict = read_trainer_table_strict(fs(), dir.file("t.txt"));
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.error().message().find("length mismatch") != std::string::npos);
}

TEST_CASE("trainer_table: a save failing at any step leaves the old table or the new one") {
  testsupport::TempDir dir;
  const std::string path = dir.file("t.txt");
  SelfTrainer old_t;
  old_t.record_episode({{true, 0.1F, 0.1F}, {BackendChoice::cpu, 0, 0, 1}, {true, 1, false}});
  REQUIRE(save(fs(), old_t, path).ok());
  const std::string old_text = format_trainer_table(old_t), new_text = format_trainer_table(trained());
  int failures = 0;
  for (std::uint64_t n = 1;; ++n) {
    common::FaultInjectingFileSystem faulty(fs());
    faulty.fail_at(n);
    auto r = save(faulty, trained(), path);
    const std::string now = slurp(path);
    CHECK((now == old_text || now == new_text));
    if (!faulty.fired()) {
      CHECK(r.ok());
      break;
    }
    ++failures;
    REQUIRE(save(fs(), old_t, path).ok());
    REQUIRE(n < 50);
  }
  CHECK(failures >= 4);
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    CHECK(e.path().filename() == "t.txt");  // no temporaries left behind
  }
}

TEST_CASE("trainer_table: v2 ends with a CRC-32C trailer; a v1 table (FNV-1a trailer, as main wrote it) still reads") {
  const std::string v2 = format_trainer_table(trained());
  CHECK(v2.find(";crc32c=") != std::string::npos);
  CHECK(v2.find("checksum32=") == std::string::npos);
  // The v1 bytes exactly as the writer before format v2 produced them.
  const std::string body =
      "ATENIA_SELFTRAINER_V1\n"
      "gpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=4;success=4;score_sum=36;drift=0\n";
  const std::string v1 = body + "table_end;len=" + std::to_string(body.size()) + ";checksum32=" +
                         std::to_string(fnv1a32({reinterpret_cast<const std::uint8_t*>(body.data()), body.size()})) +
                         "\n";
  auto parsed = parse_trainer_table(v1);
  CHECK(parsed.header_ok);
  CHECK(parsed.verified);
  CHECK(parsed.trainer.all_stats().size() == 1);
  // A v1 body under a v2 trailer (or the other way round) does not verify.
  std::string swapped = v1;
  swapped.replace(swapped.find("checksum32="), 11, "crc32c=");
  CHECK_FALSE(parse_trainer_table(swapped).verified);
}

TEST_CASE("trainer_table: a table over the size the readers accept is refused before the old one is replaced") {
  const testsupport::TempDir dir;
  const std::string path = dir.file("t.table");
  TrainerTable table;
  table.trainer = trained();
  REQUIRE(write_trainer_table(fs(), table, path).ok());
  const std::string before = slurp(path);
  for (unsigned i = 0; i < 64; ++i) {
    std::string key(32, '0');
    for (unsigned v = i, k = 32; v != 0; v /= 16) key[--k] = "0123456789abcdef"[v % 16];
    table.episodes.insert(key);
  }
  const std::size_t size = format_trainer_table(table).size();
  // At the limit it is written; one byte under the table's size, refused and nothing replaced.
  auto refused = write_trainer_table(fs(), table, path, size - 1);
  REQUIRE(!refused.ok());
  CHECK(refused.error().code() == common::ErrorCode::invalid_argument);
  CHECK(refused.error().message().find("nothing was written") != std::string::npos);
  CHECK(slurp(path) == before);
  REQUIRE(write_trainer_table(fs(), table, path, size).ok());
  CHECK(slurp(path).size() == size);
}

TEST_CASE("trainer_table: spill rows make a V3 table that reads back; without them the table stays V2") {
  TrainerTable table{trained(), {"0123456789abcdef0123456789abcdef"}, {}};
  const std::string v2 = format_trainer_table(table);
  CHECK(v2.starts_with("ATENIA_SELFTRAINER_V2\n"));
  SpillEpisode e;
  e.decision = {"fast", "zstd"};
  e.outcome = {1000, 1000, 900, 0.001, 0.001, 977};
  REQUIRE(table.spill.record_episode(e));
  e.ram_pressure = 0.95F;
  e.decision = {"slow", "none"};
  REQUIRE(table.spill.record_episode(e));
  const std::string v3 = format_trainer_table(table);
  CHECK(v3.starts_with("ATENIA_SELFTRAINER_V3\n"));
  CHECK(v3.find("\nspill;ram_band=0;tier=fast;codec=zstd;count=1;score_sum=977;moved_bytes=2000\n"
                "spill;ram_band=3;tier=slow;codec=none;count=1;score_sum=977;moved_bytes=2000\nepisode=") != std::string::npos);
  // The CPU/GPU rows of both versions are the same lines.
  CHECK(v3.substr(22, v3.find("spill;") - 22) == v2.substr(22, v2.find("episode=") - 22));
  testsupport::TempDir dir;
  REQUIRE(write_trainer_table(fs(), table, dir.file("t.txt")).ok());
  auto back = read_trainer_table_full(fs(), dir.file("t.txt"));
  REQUIRE(back.ok());
  CHECK(back->spill.all_stats().size() == 2);
  CHECK(back->spill.recommend(3)->decision == SpillDecision{"slow", "none"});
  CHECK(back->trainer.all_stats().size() == table.trainer.all_stats().size());
  CHECK(format_trainer_table(*back) == v3);
}

TEST_CASE("trainer_table: a bad spill row, or one in a V2 table, is refused by the strict reader with its line") {
  testsupport::TempDir dir;
  const std::string row = "spill;ram_band=0;tier=fast;codec=zstd;count=1;score_sum=5;moved_bytes=9\n";
  struct Case {
    std::string text, message;
  } cases[] = {
      {"ATENIA_SELFTRAINER_V2\n" + row, ":2: a spill row needs the header ATENIA_SELFTRAINER_V3"},
      {"ATENIA_SELFTRAINER_V3\nspill;ram_band=4;tier=fast;codec=zstd;count=1;score_sum=5;moved_bytes=9\n",
       ":2: spill row: ram_band must be 0..3, got '4'"},
      {"ATENIA_SELFTRAINER_V3\nspill;ram_band=0;tier=Fast;codec=zstd;count=1;score_sum=5;moved_bytes=9\n",
       ":2: spill row: tier must be 1..32 of a-z 0-9 _ -, got 'Fast'"},
      {"ATENIA_SELFTRAINER_V3\nspill;ram_band=0;tier=fast;codec=lz4;count=1;score_sum=5;moved_bytes=9\n",
       ":2: spill row: codec must be zstd or none, got 'lz4'"},
      {"ATENIA_SELFTRAINER_V3\nspill;ram_band=0;tier=fast;codec=zstd;count=1;score_sum=5\n",
       ":2: spill row: missing required key 'moved_bytes'"},
      {"ATENIA_SELFTRAINER_V3\n" + row + row, ":3: duplicate spill row for this band, tier and codec (the later row wins)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    write(dir.file("t.txt"), with_trailer(c.text));
    auto r = read_trainer_table_full(fs(), dir.file("t.txt"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().to_string() == dir.file("t.txt") + c.message);
  }
  write(dir.file("t.txt"), with_trailer("ATENIA_SELFTRAINER_V3\n" + row));
  auto ok = read_trainer_table_full(fs(), dir.file("t.txt"));
  REQUIRE(ok.ok());
  CHECK(ok->spill.all_stats().front().stats == SpillStats{1, 5, 9});
}

TEST_CASE("trainer_table: the strict reader refuses a row with an unknown field, naming the line and the field") {
  testsupport::TempDir dir;
  const std::string row = "gpu_avail=1;vram_band=0;ram_band=0;backend=gpu;count=1;success=1;score_sum=5;drift=0";
  const std::string spill = "spill;ram_band=0;tier=fast;codec=zstd;count=1;score_sum=5;moved_bytes=9";
  const std::string keys = "; expected gpu_avail, vram_band, ram_band, backend, count, success, score_sum, drift";
  const std::string spill_keys = "; expected ram_band, tier, codec, count, score_sum, moved_bytes";
  struct Case {
    std::string text, message;
  } cases[] = {
      {"ATENIA_SELFTRAINER_V2\n" + row + ";future=9\n", ":2: unknown field 'future'" + keys},
      {"ATENIA_SELFTRAINER_V2\n" + row + ";junk\n", ":2: unknown field 'junk' (not key=value)" + keys},
      {"ATENIA_SELFTRAINER_V3\n" + row + "\n" + spill + ";colour=red\n", ":3: spill row: unknown field 'colour'" + spill_keys},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    // The seed's best-effort load keeps the row and ignores the field ...
    const ParsedTable lenient = parse_trainer_table(with_trailer(c.text));
    CHECK(lenient.verified);
    CHECK(lenient.skipped.empty());
    CHECK(lenient.trainer.all_stats().size() == 1);
    // ... the tools' strict reader refuses the table.
    write(dir.file("t.txt"), with_trailer(c.text));
    auto r = read_trainer_table_full(fs(), dir.file("t.txt"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code() == common::ErrorCode::malformed);
    CHECK(r.error().to_string() == dir.file("t.txt") + c.message);
  }
  // The earliest bad line is the one named, whatever its kind.
  write(dir.file("t.txt"), with_trailer("ATENIA_SELFTRAINER_V2\n" + row + ";future=9\nepisode=xyz\n"));
  auto first = read_trainer_table_full(fs(), dir.file("t.txt"));
  REQUIRE_FALSE(first.ok());
  CHECK(first.error().to_string() == dir.file("t.txt") + ":2: unknown field 'future'" + keys);
}
