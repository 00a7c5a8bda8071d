// nl_store/spill_store: a memory budget moves the rules' caches to RUN/spill and back. Budgeted
// steps give the same bits as unbudgeted ones (one sequence, and a batch on two threads); a budget
// below one cache is refused with the number needed; a failure at any write of a spill fails the
// step as io before anything is updated; a link at RUN/spill is refused; leftovers are wiped.
#include "nl_store/spill_store.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

#include "common/throttled_file_system.hpp"
#include "common/worker_pool.hpp"
#include "nl/checkpoint.hpp"
#include "nl/context_footprint.hpp"
#include "nl/mag_check.hpp"
#include "nl/trainer.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

nl::Trainer fresh(nl::RuleKind rule, std::size_t k, std::size_t batch = 1) {
  const nl::MagConfig cfg = nltest::mag_config(rule, k);
  nl::AdamWConfig o;
  o.warmup = 2, o.total_steps = 30;
  return nl::Trainer(cfg, nl::MagParams<float>::init(cfg), o, batch);
}

// Step n's chunk for stream b.
struct Chunk {
  std::vector<std::size_t> ids, targets;
};
Chunk chunk(const nl::MagConfig& cfg, std::size_t n, std::size_t b) {
  Chunk c{std::vector<std::size_t>(cfg.seq_len), std::vector<std::size_t>(cfg.seq_len)};
  for (std::size_t i = 0; i < cfg.seq_len; ++i) {
    c.ids[i] = (3 * n + 5 * i + 7 * b + 1) % cfg.vocab, c.targets[i] = (3 * n + 5 * i + 7 * b + 6) % cfg.vocab;
  }
  return c;
}

common::Expected<nl::StepReport, nl::StepError> step(nl::Trainer& t, std::size_t n, nl::StepSpill* spill,
                                                     common::WorkerPool* pool = nullptr) {
  std::vector<Chunk> chunks;
  std::vector<nl::Sequence> seqs;
  for (std::size_t b = 0; b < t.batch(); ++b) chunks.push_back(chunk(t.config(), n, b));
  for (const Chunk& c : chunks) seqs.push_back({c.ids, c.targets});
  return t.build_batch_step(nltest::registry(), seqs, nl::GradientPath::tape, pool, nullptr, nullptr, nullptr, spill);
}

std::string state_bytes(const nl::Trainer& t) { return nl::encode_checkpoint({t.state(), "{}"}); }

nl_store::SpillOptions options(const nl::Trainer& t, std::uint64_t budget, std::size_t concurrency = 1) {
  nl_store::SpillOptions o;
  o.budget_bytes = budget;
  o.concurrency = concurrency;
  o.largest_context = nl::largest_context_bytes(t.config(), t.params(), t.context(0));
  return o;
}

std::size_t files_in(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

}  // namespace

TEST_CASE("spill_store: a budget of one cache trains the same bits as no budget, moving caches out and back (whole or in pieces)") {
  for (const hybrid::CompressionKind codec : {hybrid::CompressionKind::shuffle_zstd, hybrid::CompressionKind::none}) {
    for (const nl::RuleKind rule : {nl::RuleKind::titans, nl::RuleKind::delta}) {
      CAPTURE(static_cast<int>(rule));
      testsupport::TempDir dir;
      nl::Trainer plain = fresh(rule, 4), budgeted = fresh(rule, 4);
      nl_store::SpillOptions o = options(budgeted, 0);
      o.budget_bytes = o.largest_context;  // the least that works: every other cache goes out
      o.codec = codec;
      // Raw: pieces of 1000 bytes, so a field (and a float) spans several blobs.
      if (codec == hybrid::CompressionKind::none) o.piece_bytes = 1000;
      auto store = nl_store::SpillStore::open(dir.path(), o);
      REQUIRE(store.ok());
      std::uint64_t spilled = 0;
      for (std::size_t n = 0; n < 9; ++n) {  // K = 4: levels freeze and thaw on the way (frozen caches too)
        auto a = step(plain, n, nullptr);
        auto b = step(budgeted, n, store->get());
        REQUIRE(a.ok());
        REQUIRE(b.ok());
        CHECK(a->loss == b->loss);
        const nl_store::SpillCost c = (*store)->take_cost();
        CHECK(c.restored_bytes == c.spilled_bytes);
        CHECK(c.peak_resident_bytes <= o.budget_bytes);
        spilled += c.spilled_bytes;
        CHECK(files_in((*store)->dir()) == 0);  // every blob read back and deleted
      }
      CHECK(spilled > 0);
      CHECK(state_bytes(plain) == state_bytes(budgeted));
    }
  }
}

namespace {

// K = 2, s = 32, d = 8 (delta: a trajectory of 33 states of 256 bytes beside ~5 KB of the rest).
nl::Trainer paged_trainer(std::size_t batch = 1, nl::RuleKind rule = nl::RuleKind::delta) {
  nl::MagConfig cfg = nltest::mag_config(rule, 2);
  cfg.seq_len = 32;
  nl::AdamWConfig o;
  o.warmup = 2, o.total_steps = 30;
  return nl::Trainer(cfg, nl::MagParams<float>::init(cfg), o, batch);
}

nl_store::SpillOptions paged_options(const nl::Trainer& t, std::uint64_t budget, std::size_t concurrency = 1) {
  nl_store::SpillOptions o = options(t, budget, concurrency);
  const nl::ContextFootprint f = nl::context_footprint(t.config(), t.params(), t.context(0));
  o.unpaged_bytes = f.unpaged_bytes, o.state_bytes = f.state_bytes, o.trajectories = f.trajectories;
  return o;
}

// Trains `plain` and `budgeted` 9 steps side by side (level 2 thaws at step 8, periods 1 and 8:
// both levels active), the second under `o`: the same losses each step, never more than the budget
// resident, every blob gone after its step, the same checkpoint bytes. Returns the bytes spilled.
std::uint64_t train_paged(nl::Trainer& plain, nl::Trainer& budgeted, const nl_store::SpillOptions& o) {
  testsupport::TempDir dir;
  auto store = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE(store.ok());
  std::uint64_t spilled = 0;
  for (std::size_t n = 0; n < 9; ++n) {
    auto a = step(plain, n, nullptr);
    auto b = step(budgeted, n, store->get());
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a->loss == b->loss);
    const nl_store::SpillCost c = (*store)->take_cost();
    CHECK(c.peak_resident_bytes <= o.budget_bytes);
    spilled += c.spilled_bytes;
    CHECK(files_in((*store)->dir()) == 0);
  }
  CHECK(state_bytes(plain) == state_bytes(budgeted));
  return spilled;
}

}  // namespace

TEST_CASE("spill_store: a quarter of the caches pages the trajectories in segments and trains the same bits") {
  for (const hybrid::CompressionKind codec : {hybrid::CompressionKind::shuffle_zstd, hybrid::CompressionKind::none}) {
    nl::Trainer plain = paged_trainer(), budgeted = paged_trainer();
    nl_store::SpillOptions o = paged_options(budgeted, 0);
    REQUIRE(o.trajectories == 1);
    REQUIRE(o.state_bytes == 8 * 8 * sizeof(float));
    REQUIRE(o.unpaged_bytes + 33 * o.state_bytes == o.largest_context);
    o.budget_bytes = 2 * o.largest_context / 4;  // a quarter of two levels' caches: half of one
    REQUIRE(o.budget_bytes >= nl_store::budget_needed(o));
    o.codec = codec;
    if (codec == hybrid::CompressionKind::none) o.piece_bytes = 1000;  // a segment spans blobs
    CHECK(train_paged(plain, budgeted, o) > 0);
  }
}

TEST_CASE("spill_store: every rule pages its trajectories (two for titans and atlas) at a quarter of the caches, same bits") {
  for (const nl::RuleKind rule : nl::kAllRuleKinds) {
    CAPTURE(static_cast<int>(rule));
    nl::Trainer plain = paged_trainer(1, rule), budgeted = paged_trainer(1, rule);
    nl_store::SpillOptions o = paged_options(budgeted, 0);
    const bool momentum = rule == nl::RuleKind::titans || rule == nl::RuleKind::atlas;
    CHECK(o.trajectories == (momentum ? 2U : 1U));
    // A quarter of two levels' caches, or the least paged budget where the rest is larger.
    o.budget_bytes = std::max<std::uint64_t>(2 * o.largest_context / 4, nl_store::budget_needed(o));
    REQUIRE(o.budget_bytes < o.largest_context);  // below one whole cache: paged
    CHECK(train_paged(plain, budgeted, o) > 0);
  }
}

TEST_CASE("spill_store: the least paged budget trains the same bits; one byte less is refused with the formula") {
  testsupport::TempDir dir;
  nl::Trainer plain = paged_trainer(), budgeted = paged_trainer();
  nl_store::SpillOptions o = paged_options(budgeted, 0);
  const std::uint64_t need = nl_store::budget_needed(o);
  CHECK(need == o.unpaged_bytes + 3 * o.state_bytes);
  o.budget_bytes = need - 1;
  auto r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  const std::string u = std::to_string(o.unpaged_bytes), st = std::to_string(o.state_bytes);
  CHECK(r.error().message() == std::to_string(need - 1) + " bytes cannot hold one step's working set: a level's saved state takes " +
                                   std::to_string(o.largest_context) + " bytes, of which " + u + " stay whole and 1 state trajectories need their first state and two steps of " +
                                   st + " bytes each (" + u + " + 3 x 1 x " + st + "); at least " + std::to_string(need) + " bytes are needed");
  o.concurrency = 2, o.budget_bytes = 2 * need - 1;
  r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("at least " + std::to_string(2 * need) + " bytes") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.file("spill")));  // refused before anything was made
  o.concurrency = 1, o.budget_bytes = need;  // segments of one step: every other goes out
  CHECK(train_paged(plain, budgeted, o) > 0);
}

TEST_CASE("spill_store: a batch on two threads, each pages in its half of a quarter of the caches, trains the same bits") {
  testsupport::TempDir dir;
  nl::Trainer plain = paged_trainer(3), budgeted = paged_trainer(3);
  nl_store::SpillOptions o = paged_options(budgeted, 0, 2);
  o.budget_bytes = 2 * (2 * o.largest_context / 4);
  REQUIRE(o.budget_bytes >= nl_store::budget_needed(o));
  auto store = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE(store.ok());
  common::WorkerPool pool(2);
  std::uint64_t spilled = 0;
  for (std::size_t n = 0; n < 5; ++n) {
    REQUIRE(step(plain, n, nullptr).ok());
    REQUIRE(step(budgeted, n, store->get(), &pool).ok());
    const nl_store::SpillCost c = (*store)->take_cost();
    CHECK(c.peak_resident_bytes <= o.budget_bytes);
    spilled += c.spilled_bytes;
  }
  CHECK(spilled > 0);
  CHECK(state_bytes(plain) == state_bytes(budgeted));
}

TEST_CASE("spill_store: a batch on two threads, each in its half of the budget, trains the same bits") {
  testsupport::TempDir dir;
  nl::Trainer plain = fresh(nl::RuleKind::titans, 4, 3), budgeted = fresh(nl::RuleKind::titans, 4, 3);
  nl_store::SpillOptions o = options(budgeted, 0, 2);
  o.budget_bytes = nl_store::budget_needed(o.largest_context, 2);
  auto store = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE(store.ok());
  common::WorkerPool pool(2);
  std::uint64_t spilled = 0;
  for (std::size_t n = 0; n < 5; ++n) {
    REQUIRE(step(plain, n, nullptr).ok());
    REQUIRE(step(budgeted, n, store->get(), &pool).ok());
    spilled += (*store)->take_cost().spilled_bytes;
  }
  CHECK(spilled > 0);
  CHECK(state_bytes(plain) == state_bytes(budgeted));
}

TEST_CASE("spill_store: a budget below one step's working set is refused with the bytes needed") {
  testsupport::TempDir dir;
  nl::Trainer t = fresh(nl::RuleKind::titans, 2);
  const nl_store::SpillOptions one = options(t, 0);
  REQUIRE(one.largest_context > 0);
  nl_store::SpillOptions o = one;
  o.budget_bytes = one.largest_context - 1;
  auto r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::invalid_argument);
  CHECK(r.error().message() == std::to_string(o.budget_bytes) + " bytes cannot hold one step's working set: a level's saved state takes " +
                                   std::to_string(one.largest_context) + " bytes; at least " + std::to_string(one.largest_context) +
                                   " bytes are needed");
  o.concurrency = 3, o.budget_bytes = 3 * one.largest_context - 1;
  r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("at least " + std::to_string(3 * one.largest_context) + " bytes") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.file("spill")));  // refused before anything was made
  o.budget_bytes = 3 * one.largest_context;
  CHECK(nl_store::SpillStore::open(dir.path(), o).ok());
}

TEST_CASE("spill_store: a failure at any write of a spill fails the step as io, before anything is updated") {
  // As SQLite's do_ioerr_test: fail the 1st, 2nd, ... mutating operation until a step gets through.
  // Whole caches (titans, K = 4, one cache's budget), then paged segments (delta, half a cache).
  for (const bool paged : {false, true}) {
  CAPTURE(paged);
  std::size_t failed = 0;
  for (std::uint64_t nth = 1; nth < 400; ++nth) {
    CAPTURE(nth);
    testsupport::TempDir dir;
    nl::Trainer t = paged ? paged_trainer() : fresh(nl::RuleKind::titans, 4);
    nl::Trainer plain = paged ? paged_trainer() : fresh(nl::RuleKind::titans, 4);
    REQUIRE(step(t, 0, nullptr).ok());
    REQUIRE(step(plain, 0, nullptr).ok());
    const std::string before = state_bytes(t);
    common::FaultInjectingFileSystem faulty(common::real_file_system());
    nl_store::SpillOptions o = paged ? paged_options(t, 0) : options(t, 0);
    o.budget_bytes = paged ? o.largest_context / 2 : o.largest_context;
    auto store = nl_store::SpillStore::open(dir.path(), o, faulty);
    REQUIRE(store.ok());
    faulty.fail_at(nth);
    auto r = step(t, 1, store->get());
    if (!faulty.fired()) {
      REQUIRE(r.ok());
      REQUIRE(step(plain, 1, nullptr).ok());
      CHECK(state_bytes(t) == state_bytes(plain));
      break;
    }
    ++failed;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind() == nl::StepFailure::io);
    CHECK(r.error().code() == common::ErrorCode::io);
    CHECK(r.error().message().find("spill") != std::string::npos);
    CHECK(state_bytes(t) == before);  // nothing updated: the run can go on from here
    CHECK(files_in((*store)->dir()) == 0);  // the failed step's blobs are gone with its tape
    // The same trainer then steps on, with a disk that works, to the unbudgeted bits.
    faulty.fail_at(0);
    REQUIRE(step(t, 1, store->get()).ok());
    REQUIRE(step(plain, 1, nullptr).ok());
    CHECK(state_bytes(t) == state_bytes(plain));
  }
  CHECK(failed > 3);
  }
}

TEST_CASE("spill_store: a link at RUN/spill is refused and nothing is written through it; leftovers are wiped") {
  testsupport::TempDir dir, outside;
  nl::Trainer t = fresh(nl::RuleKind::titans, 2);
  nl_store::SpillOptions o = options(t, 0);
  o.budget_bytes = o.largest_context;
  fs::create_directory_symlink(outside.path(), dir.file("spill"));
  auto r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::io);
  CHECK(r.error().message().find(dir.file("spill") + " is not a directory") != std::string::npos);
  CHECK(fs::is_symlink(dir.file("spill")));
  CHECK(fs::is_empty(outside.path()));

  fs::remove(dir.file("spill"));
  fs::create_directories(dir.file("spill/deeper"));
  std::ofstream(dir.file("spill/tensor_h00000000_op00000007.bin")) << "left by a killed run";
  {
    auto store = nl_store::SpillStore::open(dir.path(), o);
    REQUIRE(store.ok());
    CHECK(fs::is_empty(dir.file("spill")));
  }
  CHECK_FALSE(fs::exists(dir.file("spill")));  // closed: the run directory holds no spill
}

TEST_CASE("spill_store: a named tier holds the run's blobs in its own directory inside it, made when missing, as a link refused") {
  testsupport::TempDir dir, tiers, outside;
  nl::Trainer t = fresh(nl::RuleKind::titans, 2);
  nl::Trainer u = fresh(nl::RuleKind::titans, 2);
  nl_store::SpillOptions o = options(t, 0);
  o.budget_bytes = o.largest_context;
  o.tier = "fast";
  o.tier_dir = tiers.file("fast");  // missing: made
  std::ofstream(tiers.file("someone_else")) << "kept";
  {
    // Through a slow file system (another tier's speed): the same bits, and the cost adds up.
    common::ThrottledFileSystem slow(common::real_file_system(), std::chrono::microseconds(10));
    auto store = nl_store::SpillStore::open(dir.path(), o, slow);
    REQUIRE(store.ok());
    CHECK_FALSE(fs::exists(dir.file("spill")));
    const std::string own = (*store)->dir();
    CHECK(own.starts_with(tiers.file("fast") + "/nltrain-spill-"));
    CHECK(own.size() == tiers.file("fast").size() + 14 + 1 + 16);
    nl_store::SpillCost taken;
    for (std::size_t n = 0; n < 3; ++n) {
      REQUIRE(step(t, n, store->get()).ok());
      REQUIRE(step(u, n, nullptr).ok());
      taken = taken + (*store)->take_cost();
    }
    CHECK(state_bytes(t) == state_bytes(u));
    CHECK(taken.spilled_bytes > 0);
    const nl_store::SpillCost total = (*store)->total_cost();
    CHECK(total.spilled_bytes == taken.spilled_bytes);
    CHECK(total.restored_bytes == taken.restored_bytes);
    CHECK(total.stored_bytes == taken.stored_bytes);
    // A second run directory sharing the tier gets a directory of its own: the first's is kept.
    testsupport::TempDir other;
    std::ofstream(own + "/blob_of_the_first_run") << "x";
    {
      auto second = nl_store::SpillStore::open(other.path(), o);
      REQUIRE(second.ok());
      CHECK((*second)->dir() != own);
    }
    CHECK(fs::exists(own + "/blob_of_the_first_run"));
  }
  CHECK(fs::is_empty(tiers.file("fast")));  // closed: this run's directory is gone
  CHECK(fs::exists(tiers.file("someone_else")));
  // A link as the tier is refused, nothing written through it; a tier whose parent is missing too.
  o.tier_dir = tiers.file("link");
  fs::create_directory_symlink(outside.path(), tiers.file("link"));
  auto r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code() == common::ErrorCode::io);
  CHECK(r.error().message().find(tiers.file("link") + " is not a directory") != std::string::npos);
  CHECK(fs::is_empty(outside.path()));
  o.tier_dir = tiers.file("nowhere/fast");
  r = nl_store::SpillStore::open(dir.path(), o);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message() == tiers.file("nowhere/fast") + ": cannot make the tier's directory (its parent must exist)");
}

TEST_CASE("spill_store: two processes of one run (parts) each spill to a directory of their own and train the same bits") {
  testsupport::TempDir dir, tiers;
  nl::Trainer a = fresh(nl::RuleKind::delta, 2), b = fresh(nl::RuleKind::delta, 2), u = fresh(nl::RuleKind::delta, 2);
  nl_store::SpillOptions o = options(a, 0);
  o.budget_bytes = o.largest_context;
  nl_store::SpillOptions other = o;
  other.part = "rank1";
  {
    auto first = nl_store::SpillStore::open(dir.path(), o);
    auto second = nl_store::SpillStore::open(dir.path(), other);  // beside the first, which it leaves alone
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    CHECK((*first)->dir() == dir.file("spill"));
    CHECK((*second)->dir() == dir.file("spill-rank1"));
    for (std::size_t n = 0; n < 2; ++n) {
      REQUIRE(step(a, n, first->get()).ok());
      REQUIRE(step(b, n, second->get()).ok());
      REQUIRE(step(u, n, nullptr).ok());
    }
    CHECK((*first)->total_cost().spilled_bytes > 0);
    CHECK((*second)->total_cost().spilled_bytes == (*first)->total_cost().spilled_bytes);
    CHECK(state_bytes(a) == state_bytes(u));
    CHECK(state_bytes(b) == state_bytes(u));
  }
  CHECK_FALSE(fs::exists(dir.file("spill")));
  CHECK_FALSE(fs::exists(dir.file("spill-rank1")));
  // In a named tier: the run's directory name, then the part.
  o.tier = other.tier = "fast";
  o.tier_dir = other.tier_dir = tiers.file("fast");
  auto first = nl_store::SpillStore::open(dir.path(), o);
  auto second = nl_store::SpillStore::open(dir.path(), other);
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK((*second)->dir() == (*first)->dir() + "-rank1");
}
