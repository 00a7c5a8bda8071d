// The checkpoint format (nl/checkpoint.hpp) and Trainer::state / from_state: a trainer rebuilt
// from a decoded checkpoint continues bit for bit; damaged bytes are refused before use.
#include "nl/checkpoint.hpp"

#include <cstring>

#include "common/sha256.hpp"
#include "mag_check.hpp"

namespace {

void chunk(std::size_t n, const nl::MagConfig& cfg, std::vector<std::size_t>& ids, std::vector<std::size_t>& tg) {
  ids.resize(cfg.seq_len), tg.resize(cfg.seq_len);
  for (std::size_t t = 0; t < cfg.seq_len; ++t) ids[t] = (3 * n + 5 * t + 1) % cfg.vocab, tg[t] = (3 * n + 5 * t + 6) % cfg.vocab;
}

nl::Trainer make(nl::RuleKind rule, std::size_t k,
                 nl::FrequencySchedule schedule = nl::FrequencySchedule::fixed) {
  nl::MagConfig cfg = nltest::mag_config(rule, k);
  cfg.schedule = schedule;
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 2, o.total_steps = 30;
  return nl::Trainer(cfg, nl::MagParams<float>::init(cfg), o);
}

std::vector<float> run(nl::Trainer& t, std::size_t steps) {
  std::vector<float> losses;
  std::vector<std::size_t> ids, tg;
  for (std::size_t i = 0; i < steps; ++i) {
    chunk(t.step(), t.config(), ids, tg);
    auto r = t.build_step(nltest::registry(), ids, tg, nl::GradientPath::tape);
    REQUIRE(r.ok());
    losses.push_back(r->loss);
  }
  return losses;
}

}  // namespace

TEST_CASE("checkpoint: encode, decode, from_state continues bit for bit (every rule, K=2: frozen levels, error buffers)") {
  for (nl::RuleKind rule : nl::kAllRuleKinds) {
    nl::Trainer a = make(rule, 2);
    (void)run(a, 11);  // steps 0..10: level 1 (period 8) was active at 8, frozen at 9 and 10: its buffer holds 2
    CHECK(a.error_buffer(1).count() == 2);
    const std::string bytes = nl::encode_checkpoint({a.state(), "{\"run\":1}"});
    auto c = nl::decode_checkpoint(bytes, "ck");
    REQUIRE(c.ok());
    CHECK(c->run == "{\"run\":1}");
    CHECK(nl::encode_checkpoint(*c) == bytes);
    auto b = nl::Trainer::from_state(std::move(c->state));
    REQUIRE(b.ok());
    CHECK(b->step() == 11);
    CHECK(b->error_buffer(1).count() == 2);
    const std::vector<float> la = run(a, 7), lb = run(*b, 7);
    CHECK(la == lb);
    CHECK(a.params().to_flat() == b->params().to_flat());
    CHECK(nl::encode_checkpoint({a.state(), ""}) == nl::encode_checkpoint({b->state(), ""}));
  }
}

TEST_CASE("checkpoint: a learned schedule (W_freq, b_freq, their moments) round-trips and continues bit for bit") {
  for (nl::RuleKind rule : {nl::RuleKind::delta, nl::RuleKind::titans, nl::RuleKind::atlas}) {
    for (std::size_t k : {2, 3}) {
      INFO(nl::to_string(rule) << " k=" << k);
      nl::Trainer a = make(rule, k, nl::FrequencySchedule::learned);
      (void)run(a, 9);
      const std::string bytes = nl::encode_checkpoint({a.state(), ""});
      auto c = nl::decode_checkpoint(bytes, "ck");
      REQUIRE(c.ok());
      CHECK(c->state.cfg.schedule == nl::FrequencySchedule::learned);
      CHECK(c->state.params.w_freq == a.params().w_freq);
      CHECK(c->state.adam.m.b_freq == a.state().adam.m.b_freq);
      CHECK(nl::encode_checkpoint(*c) == bytes);
      auto b = nl::Trainer::from_state(std::move(c->state));
      REQUIRE(b.ok());
      CHECK(run(a, 6) == run(*b, 6));
      CHECK(a.params().to_flat() == b->params().to_flat());
    }
  }
}

namespace {
// The version-1 layout of a fixed-schedule checkpoint: version 2 without the schedule byte (after
// the seed), header and digest rewritten.
std::string as_version_1(const std::string& v2, std::size_t k) {
  constexpr std::size_t kHeader = 20, kDigest = 32;
  const std::size_t schedule_at = kHeader + 5 * 8 + 1 + 4 * 8 + 7 * 8 + 1 + 8 + 8 * k + 8;
  std::string body = v2.substr(kHeader, v2.size() - kHeader - kDigest);
  REQUIRE(v2[schedule_at] == 0);
  body.erase(schedule_at - kHeader, 1);
  std::string out(nl::kCheckpointMagic);
  const std::uint32_t version = 1;
  const std::uint64_t len = body.size();
  out.append(reinterpret_cast<const char*>(&version), 4).append(reinterpret_cast<const char*>(&len), 8).append(body);
  const common::Sha256Digest d = common::sha256(std::string_view(out));
  return out.append(reinterpret_cast<const char*>(d.data()), d.size());
}
}  // namespace

TEST_CASE("checkpoint: a version-1 file (before schedules) still loads, as a fixed schedule, and continues bit for bit") {
  nl::Trainer a = make(nl::RuleKind::moneta, 2);
  (void)run(a, 5);
  const std::string v2 = nl::encode_checkpoint({a.state(), "{}"});
  const std::string v1 = as_version_1(v2, 2);
  CHECK(v1.size() + 1 == v2.size());
  auto c = nl::decode_checkpoint(v1, "old");
  REQUIRE(c.ok());
  CHECK(c->state.cfg.schedule == nl::FrequencySchedule::fixed);
  CHECK(nl::encode_checkpoint(*c) == v2);  // re-saved in the current version, nothing lost
  auto b = nl::Trainer::from_state(std::move(c->state));
  REQUIRE(b.ok());
  CHECK(run(a, 4) == run(*b, 4));
  // A schedule byte outside {0, 1} is a malformed configuration.
  std::string bad = v2;
  bad[20 + 5 * 8 + 1 + 4 * 8 + 7 * 8 + 1 + 8 + 16 + 8] = 2;
  bad.resize(bad.size() - 32);
  const common::Sha256Digest d = common::sha256(std::string_view(bad));
  bad.append(reinterpret_cast<const char*>(d.data()), d.size());
  auto r = nl::decode_checkpoint(bad, "f");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("configuration") != std::string::npos);
}

TEST_CASE("checkpoint: foreign, truncated, extended, corrupt and newer files are refused with a reason") {
  nl::Trainer a = make(nl::RuleKind::titans, 2);
  (void)run(a, 3);
  const std::string good = nl::encode_checkpoint({a.state(), ""});
  auto msg = [](const std::string& b) {
    auto r = nl::decode_checkpoint(b, "f");
    return r.ok() ? std::string("ok") : r.error().message();
  };
  CHECK(msg(good) == "ok");
  CHECK(msg("hello").find("not an nltrain checkpoint") != std::string::npos);
  CHECK(msg(good.substr(0, 30)).find("truncated") != std::string::npos);
  CHECK(msg(good.substr(0, good.size() - 1)).find("truncated or extended") != std::string::npos);
  CHECK(msg(good + "x").find("truncated or extended") != std::string::npos);
  for (std::size_t at : {std::size_t{24}, good.size() / 2, good.size() - 40, good.size() - 1}) {
    std::string bad = good;
    bad[at] ^= 0x10;
    CHECK(msg(bad).find("checksum mismatch") != std::string::npos);
  }
  std::string newer = good;
  newer[8] = 4;
  CHECK(msg(newer).find("version 4 is newer") != std::string::npos);
}

TEST_CASE("checkpoint: a batched trainer's streams round-trip as version 3; one stream stays version 2") {
  const nl::MagConfig cfg = nltest::mag_config(nl::RuleKind::delta, 2);
  nl::AdamWConfig o;
  o.lr = 1e-2, o.warmup = 2, o.total_steps = 30;
  nl::Trainer a(cfg, nl::MagParams<float>::init(cfg), o, 3);
  std::vector<std::vector<std::size_t>> ids(3), tg(3);
  auto steps = [&](nl::Trainer& t, std::size_t n) {
    std::vector<float> losses;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<nl::Sequence> seqs;
      for (std::size_t b = 0; b < 3; ++b) {
        chunk(t.step() + 20 * b, cfg, ids[b], tg[b]);
        seqs.push_back({ids[b], tg[b]});
      }
      auto r = t.build_batch_step(nltest::registry(), seqs, nl::GradientPath::tape);
      REQUIRE(r.ok());
      losses.push_back(r->loss);
    }
    return losses;
  };
  (void)steps(a, 5);
  const std::string bytes = nl::encode_checkpoint({a.state(), ""});
  CHECK(bytes[8] == 3);
  auto c = nl::decode_checkpoint(bytes, "ck");
  REQUIRE(c.ok());
  REQUIRE(c->state.more_contexts.size() == 2);
  CHECK(c->state.more_contexts[1].levels == a.context(2).levels);
  CHECK(a.context(1).levels != a.context(2).levels);
  CHECK(nl::encode_checkpoint(*c) == bytes);
  auto b = nl::Trainer::from_state(std::move(c->state));
  REQUIRE(b.ok());
  CHECK(b->batch() == 3);
  CHECK(steps(a, 4) == steps(*b, 4));
  CHECK(nl::encode_checkpoint({a.state(), ""}) == nl::encode_checkpoint({b->state(), ""}));
  CHECK(nl::encode_checkpoint({make(nl::RuleKind::delta, 2).state(), ""})[8] == 2);
  // A version-3 body whose stream count is 0 is not canonical: refused.
  nl::TrainerState one = make(nl::RuleKind::delta, 2).state();
  std::string v2 = nl::encode_checkpoint({one, ""});
  // From the end: digest, run text (empty), error buffers (count, then per level floats and count).
  const std::size_t ctx_end = v2.size() - 32 - 8 - 8 - 2 * (8 + 8) - 2 * 4 * nl::LevelParams<float>::flat_size(cfg.d, false);
  std::string v3 = v2.substr(0, ctx_end) + std::string(8, '\0') + v2.substr(ctx_end, v2.size() - 32 - ctx_end);
  v3[8] = 3;
  const std::uint64_t body = v3.size() - 20;
  std::memcpy(v3.data() + 12, &body, 8);
  const common::Sha256Digest d = common::sha256(std::string_view(v3));
  v3.append(reinterpret_cast<const char*>(d.data()), d.size());
  auto r = nl::decode_checkpoint(v3, "f");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message().find("stream count") != std::string::npos);
}

TEST_CASE("Trainer::from_state: a state that does not fit its configuration is an error, not a crash") {
  nl::Trainer a = make(nl::RuleKind::delta, 2);
  nl::TrainerState s = a.state();
  s.params.levels.pop_back();
  auto r = nl::Trainer::from_state(s);
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("parameters") != std::string::npos);
  s = a.state();
  s.context.levels[1].pop_back();
  r = nl::Trainer::from_state(s);
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("context memory") != std::string::npos);
  s = a.state();
  s.adam.tau_level.push_back(1);
  CHECK(!nl::Trainer::from_state(s).ok());
  // Sizes are checked per tensor, not in total: one entry moved from W_Q to W_K is refused.
  s = a.state();
  s.params.w_k.push_back(s.params.w_q.back());
  s.params.w_q.pop_back();
  r = nl::Trainer::from_state(s);
  REQUIRE(!r.ok());
  CHECK(r.error().message().find("parameters") != std::string::npos);
  s = a.state();
  s.adam.v.levels[0].w_alpha.push_back(0);
  s.adam.v.levels[0].w_theta.pop_back();
  CHECK(!nl::Trainer::from_state(s).ok());
  s = a.state();
  s.buffer_sums[1].w_q.push_back(0);
  s.buffer_sums[1].w_k.pop_back();
  CHECK(!nl::Trainer::from_state(s).ok());
}
