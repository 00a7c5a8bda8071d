// The run configuration: built-in defaults, then a --config file, then the command-line flags.
#include <algorithm>
#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"
#include "cli_common/count_option.hpp"
#include "input_text.hpp"

namespace nltrain::cli {
namespace {

using Json = nlohmann::ordered_json;

// Reads a --config document into rc (and the counts the flags resolve later) with the common reader:
// the types are checked here, the ranges by build_run_config after the flags are applied.
common::Status read_config_file(const common::JsonReader& r, const Json& j, RunConfig& rc, std::size_t& levels,
                                bool& d_c_set, bool& window_set) {
  nl::MagConfig& m = rc.model;
  // The keys a --config file may hold; each overrides the built-in default and is overridden by its flag.
  if (common::Status s = r.check_object(j, "", {"rule", "levels", "schedule", "vocab", "d", "heads", "seq_len", "window", "seed",
                                                "d_h", "m", "d_c", "steps", "warmup", "lambda_k", "lambda_v",
                                                "lambda_2", "lambda_loc", "huber_delta", "p", "a_s", "lr", "beta1",
                                                "beta2", "eps", "weight_decay", "clip", "lattice_variant"});
      !s.ok()) {
    return s;
  }
  std::uint64_t seed = m.seed, steps = rc.steps, warmup = rc.opt.warmup;
  const std::pair<std::string_view, std::size_t*> sizes[] = {
      {"levels", &levels}, {"vocab", &m.vocab}, {"d", &m.d}, {"heads", &m.heads}, {"seq_len", &m.seq_len}, {"window", &m.window},
      {"d_h", &m.rule_cfg.d_h}, {"m", &m.rule_cfg.m}, {"d_c", &m.rule_cfg.d_c}};
  const std::pair<std::string_view, std::uint64_t*> counts[] = {
      {"seed", &seed}, {"steps", &steps}, {"warmup", &warmup}};
  const std::pair<std::string_view, double*> numbers[] = {
      {"lambda_k", &m.rule_cfg.lambda_k},     {"lambda_v", &m.rule_cfg.lambda_v}, {"lambda_2", &m.rule_cfg.lambda_2},
      {"lambda_loc", &m.rule_cfg.lambda_loc}, {"huber_delta", &m.rule_cfg.huber_delta},
      {"p", &m.rule_cfg.p},                   {"a_s", &m.rule_cfg.a_s},           {"lr", &rc.opt.lr},
      {"beta1", &rc.opt.beta1},               {"beta2", &rc.opt.beta2},           {"eps", &rc.opt.eps},
      {"weight_decay", &rc.opt.weight_decay}, {"clip", &rc.opt.clip}};
  for (const auto& [key, v] : j.items()) {
    const std::string path = common::json_child_path("", key);
    if (key == "rule") {
      auto name = r.string(v, path);
      if (!name.ok()) return name.error();
      auto rule = parse_rule(*name);
      if (!rule.ok()) return r.error(path, "unknown rule \"" + common::excerpt(*name) + "\"");
      m.rule = *rule;
    } else if (key == "schedule") {
      auto i = r.one_of(v, path, {"fixed", "learned"});
      if (!i.ok()) return i.error();
      m.schedule = *i == 0 ? nl::FrequencySchedule::fixed : nl::FrequencySchedule::learned;
    } else if (key == "lattice_variant") {
      constexpr nl::LatticeVariant kVariants[] = {nl::LatticeVariant::decode, nl::LatticeVariant::encode,
                                                  nl::LatticeVariant::similarity};
      auto i = r.one_of(v, path, {"decode", "encode", "similarity"});
      if (!i.ok()) return i.error();
      m.rule_cfg.lattice_variant = kVariants[*i];
    }
    for (const auto& [name, out] : sizes) {
      if (key != name) continue;
      auto x = r.unsigned_integer(v, path);
      if (!x.ok()) return x.error();
      *out = static_cast<std::size_t>(*x);
      d_c_set = d_c_set || key == "d_c";
      window_set = window_set || key == "window";
    }
    for (const auto& [name, out] : counts) {
      if (key != name) continue;
      auto x = r.unsigned_integer(v, path);
      if (!x.ok()) return x.error();
      *out = *x;
    }
    for (const auto& [name, out] : numbers) {
      if (key != name) continue;
      auto x = r.finite_number(v, path);
      if (!x.ok()) return x.error();
      *out = *x;
    }
  }
  m.seed = seed, rc.steps = steps, rc.opt.warmup = warmup;
  return {};
}

}  // namespace

common::Result<RunConfig> build_run_config(const ConfigFlags& f) {
  RunConfig rc;
  nl::MagConfig& m = rc.model;
  m.vocab = kByteVocab, m.d = 32, m.heads = 4, m.seq_len = 32, m.window = 32, m.seed = 42;
  m.rule = nl::RuleKind::delta;
  m.rule_cfg = nl::RuleConfig{};
  m.rule_cfg.d_h = 16, m.rule_cfg.m = 8, m.rule_cfg.d_c = 16;
  std::size_t levels = kDefaultLevels;
  rc.opt.lr = 3e-3, rc.opt.warmup = 20, rc.opt.weight_decay = 0.1, rc.opt.clip = 1.0;
  bool d_c_set = false, window_set = false;

  if (!f.config_file.empty()) {
    const std::string& file = f.config_file;
    auto text = read_input(file, std::size_t{1} << 20);
    if (!text.ok()) return text.error();
    const std::string name = input_name(file);
    auto doc = common::parse_json_text(*text, {.file = name, .bom = common::BomPolicy::strip});
    if (!doc.ok()) return doc.error();
    const common::JsonReader reader(name, 0, common::JsonReader::Dialect::quoting);
    if (common::Status s = read_config_file(reader, *doc, rc, levels, d_c_set, window_set); !s.ok()) return s.error();
  }
  if (!f.rule.empty()) {
    auto r = parse_rule(f.rule);
    if (!r.ok()) return r.error();
    m.rule = *r;
  }
  if (f.schedule) {
    auto sc = parse_schedule(*f.schedule, "--schedule");
    if (!sc.ok()) return sc.error();
    m.schedule = *sc;
  }
  if (f.levels) levels = *f.levels;
  if (f.vocab) m.vocab = *f.vocab;
  if (f.d) m.d = *f.d;
  if (f.heads) m.heads = *f.heads;
  if (f.seq_len) m.seq_len = *f.seq_len;
  if (f.window) m.window = *f.window, window_set = true;
  if (!window_set) m.window = m.seq_len;  // the window follows the chunk unless set
  if (f.seed) m.seed = *f.seed;
  if (f.steps) rc.steps = *f.steps;
  if (f.warmup) rc.opt.warmup = *f.warmup;
  if (f.lr) rc.opt.lr = *f.lr;

  if (levels == 0 || levels > kMaxLevels) {
    return common::Error::invalid_argument("levels: must be in 1.." + std::to_string(kMaxLevels) + " (got " + std::to_string(levels) + ")");
  }
  m.periods.clear();
  for (std::size_t l = 0, c = 1; l < levels; ++l, c *= 8) m.periods.push_back(c);
  if (m.d > 1024 || m.seq_len > 4096) {
    return common::Error::invalid_argument("model too large for nltrain's CPU scale: d <= 1024 and seq_len <= 4096");
  }
  m.rule_cfg.d = m.d;
  if (!d_c_set) m.rule_cfg.d_c = std::min(m.rule_cfg.d_c, m.d);
  if (rc.steps == 0) return common::Error::invalid_argument("steps: must be at least 1");
  if (!(rc.opt.lr > 0) || !(rc.opt.beta1 >= 0 && rc.opt.beta1 < 1) || !(rc.opt.beta2 >= 0 && rc.opt.beta2 < 1) ||
      !(rc.opt.eps > 0) || !(rc.opt.weight_decay >= 0) || !(rc.opt.clip > 0)) {
    return common::Error::invalid_argument("optimizer: need lr > 0, 0 <= beta1, beta2 < 1, eps > 0, weight_decay >= 0, clip > 0");
  }
  rc.opt.total_steps = rc.steps;
  if (common::Status s = nl::validate(m); !s.ok()) return common::Error::invalid_argument("configuration: " + s.error().message());
  return rc;
}


void add_config_flags(CLI::App* cmd, ConfigFlags& f) {
  cmd->add_option("--rule", f.rule, "Memory rule: delta titans hebbian moneta yaad memora lattice trellis atlas (default delta)");
  cli_common::add_count_option(cmd, "--levels", f.levels, "CMS levels K (periods 1, 8, 64, ...; default 2)");
  cmd->add_option("--schedule", f.schedule,
                  "CMS frequency schedule: fixed (levels on at step mod period 0) or learned (a straight-through "
                  "gate picks levels 1..K-1 per chunk; needs --levels >= 2); default fixed");
  cmd->add_option("--config", f.config_file, "JSON configuration file ('-': stdin; see man nltrain)");
  cli_common::add_count_option(cmd, "--vocab", f.vocab,
                               "Vocabulary size: token ids 0..V-1, V in 2..1048576 (default 256: bytes are tokens; "
                               "larger for --data-format u16|u32 token files)");
  cli_common::add_count_option(cmd, "--d", f.d, "Model width (default 32)");
  cli_common::add_count_option(cmd, "--heads", f.heads, "Attention heads (default 4)");
  cli_common::add_count_option(cmd, "--seq-len", f.seq_len, "Tokens per chunk and step (default 32)");
  cli_common::add_count_option(cmd, "--window", f.window, "Sliding-window attention span (default seq-len)");
  cli_common::add_count_option(cmd, "--seed", f.seed, "Initialisation seed (default 42)");
}

}  // namespace nltrain::cli
