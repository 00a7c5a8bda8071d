#include "nl/rule_config.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "nl/initial_state.hpp"
#include "nl/mag_config.hpp"
#include "nl/level_params.hpp"

TEST_CASE("rule_config: inconsistent sizes and constants are errors naming the field") {
  CHECK(nl::validate(nl::RuleConfig{}).ok());
  auto msg = [](auto mutate) {
    nl::RuleConfig c;
    mutate(c);
    const common::Status s = nl::validate(c);
    return s.ok() ? std::string("ok") : s.error().message();
  };
  CHECK(msg([](nl::RuleConfig& c) { c.d = 0; }).find("d:") != std::string::npos);
  CHECK(msg([](nl::RuleConfig& c) { c.d_h = 0; }).find("d_h") != std::string::npos);
  CHECK(msg([](nl::RuleConfig& c) { c.m = 0; }).find("m:") != std::string::npos);
  CHECK(msg([](nl::RuleConfig& c) { c.d_c = 9; }).find("d_c") != std::string::npos);
  CHECK(msg([](nl::RuleConfig& c) { c.lambda_2 = -1; }).find("lambda_2") != std::string::npos);
  CHECK(msg([](nl::RuleConfig& c) { c.huber_delta = NAN; }).find("huber_delta") != std::string::npos);
  // The value as written, however small (std::to_string gave "-0.000000"), NaN and infinities too.
  CHECK(msg([](nl::RuleConfig& c) { c.lambda_k = -1e-9; }) == "rule config: lambda_k: must be finite and >= 0, got -1e-9");
  CHECK(msg([](nl::RuleConfig& c) { c.huber_delta = INFINITY; }) == "rule config: huber_delta: must be finite and >= 0, got Infinity");
  CHECK(msg([](nl::RuleConfig& c) { c.p = 0.5; }).find("p:") != std::string::npos);
}

TEST_CASE("rule_config and mag_config: sizes past nltrain's limits are refused before any allocation") {
  // main at b687e58 bounded d and seq_len only at the CLI (a checkpoint's d = 4096 took 2 GB before
  // eval refused it) and d_h, m not at all ({"rule":"moneta","d_h":1000000}).
  nl::RuleConfig r;
  r.d_h = nl::kMaxRuleWidth;
  r.m = nl::kMaxRuleWidth;
  CHECK(nl::validate(r).ok());
  r.d_h = 1000000;
  CHECK(nl::validate(r).error().message() == "rule config: d_h: must be in 1..4096, got 1000000");
  r.d_h = 4;
  r.m = nl::kMaxRuleWidth + 1;
  CHECK(nl::validate(r).error().message() == "rule config: m: must be in 1..4096, got 4097");

  nl::MagConfig m;
  m.d = nl::kMaxModelWidth;
  m.rule_cfg.d = m.d;
  m.rule_cfg.d_c = 8;
  CHECK(nl::validate(m).ok());
  m.d = m.rule_cfg.d = 4096;
  CHECK(nl::validate(m).error().message() == "mag config: d: must be in 1..1024, got 4096");
  m.d = m.rule_cfg.d = 8;
  m.seq_len = m.window = nl::kMaxSeqLen + 1;
  CHECK(nl::validate(m).error().message() == "mag config: seq_len: must be at most 4096, got 4097");
  m.seq_len = m.window = 4;
  m.periods = {1, 8, 64, 512, 4096, 32768, 262144};
  CHECK(nl::validate(m).error().message() == "mag config: k: at most 6 CMS levels, got k=7");
}

TEST_CASE("level_params: flat round trip; a wrong length is an error") {
  auto p = nl::LevelParams<double>::zeros(3, true);
  p.w_k[4] = 1.5, p.b_theta = -2, p.w_omega[17] = 3;
  const std::vector<double> flat = p.to_flat();
  CHECK(flat.size() == nl::LevelParams<double>::flat_size(3, true));
  const auto back = nl::LevelParams<double>::from_flat(flat, 3, true);
  REQUIRE(back.ok());
  CHECK(back->to_flat() == flat);
  CHECK_FALSE(nl::LevelParams<double>::from_flat(flat, 3, false).ok());
}

TEST_CASE("initial_state: O-4 standalone states (unit Lattice slots, MEMORA rows on the simplex, Moneta W2 = 0)") {
  nl::RuleConfig cfg;
  const auto lattice = nl::initial_state<double>(nl::RuleKind::lattice, cfg);
  for (std::size_t i = 0; i < cfg.m; ++i) {
    double n = 0;
    for (std::size_t j = 0; j < cfg.d; ++j) n += lattice[i * cfg.d + j] * lattice[i * cfg.d + j];
    CHECK(std::sqrt(n) == doctest::Approx(1.0));
  }
  const auto memora = nl::initial_state<double>(nl::RuleKind::memora, cfg);
  double row0 = 0;
  for (std::size_t j = 0; j < cfg.d; ++j) row0 += memora[j];
  CHECK(row0 == doctest::Approx(1.0));
  CHECK(memora.back() == doctest::Approx(1.0 / cfg.d_h));
  const auto moneta = nl::initial_state<double>(nl::RuleKind::moneta, cfg);
  CHECK(moneta[1] != 0.0);
  CHECK(moneta.back() == 0.0);
  CHECK(nl::initial_state<float>(nl::RuleKind::delta, cfg) == std::vector<float>(64, 0.0f));
  CHECK(nl::hash01(0) == 0.0);
  CHECK(nl::hash01(1) == doctest::Approx(2654435761.0 / 4294967295.0));
}
