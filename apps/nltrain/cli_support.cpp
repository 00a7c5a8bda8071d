#include "cli_support.hpp"

#include <cctype>
#include <cmath>
#include <cstring>
#include <iostream>

#include "common/atomic_file.hpp"
#include "common/checked_stdout.hpp"
#include "common/file_system.hpp"
#include "common/json_input.hpp"
#include "common/json_reader.hpp"

namespace nltrain {
namespace {

struct RuleName {
  nl::RuleKind kind;
  std::string_view short_name, full_name;
};
constexpr RuleName kRuleNames[] = {
    {nl::RuleKind::delta, "delta", "DeltaRule"},     {nl::RuleKind::titans, "titans", "TitansLMM"},
    {nl::RuleKind::hebbian, "hebbian", "HebbianRule"}, {nl::RuleKind::moneta, "moneta", "Moneta"},
    {nl::RuleKind::yaad, "yaad", "YAAD"},             {nl::RuleKind::memora, "memora", "MEMORA"},
    {nl::RuleKind::lattice, "lattice", "LatticeOSR"}, {nl::RuleKind::trellis, "trellis", "Trellis"},
    {nl::RuleKind::atlas, "atlas", "AtlasOmega"},
};

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// A configuration key is the user's text: its path is escaped and its echo cut (common::JsonReader).
common::Error config_error(const std::string& file, const std::string& key, const std::string& msg) {
  return common::JsonReader(file).error(common::json_child_path("", key), msg);
}

}  // namespace

int exit_code_for(common::ErrorCode code) {
  return code == common::ErrorCode::invalid_argument ? kExitInvalidArgument : kExitMalformedOrIo;
}

int report(const common::Error& e) {
  std::cerr << "nltrain: " << e.to_string() << "\n";
  return exit_code_for(e.code());
}

common::Status write_output(const std::string& path, std::string_view text) {
  if (path == "-") {
    std::cout << text;
    if (const int err = common::flush_stdout(); err != 0) return common::Error::io(std::string("cannot write to stdout: ") + std::strerror(err));
    return {};
  }
  if (common::Status s = common::write_file_atomic(common::real_file_system(), path, text); !s.ok()) {
    return s.error().at_file(path);
  }
  return {};
}

common::Result<nl::RuleKind> parse_rule(std::string_view name) {
  for (const RuleName& r : kRuleNames) {
    if (iequal(name, r.short_name) || iequal(name, r.full_name)) return r.kind;
  }
  return common::Error::invalid_argument("--rule: unknown rule \"" + common::excerpt(name) +
                                         "\"; one of delta titans hebbian moneta yaad memora lattice trellis atlas");
}

std::string_view short_rule_name(nl::RuleKind kind) {
  for (const RuleName& r : kRuleNames)
    if (r.kind == kind) return r.short_name;
  return "?";
}

common::Result<nl::FrequencySchedule> parse_schedule(std::string_view name, std::string_view what) {
  if (name == "fixed") return nl::FrequencySchedule::fixed;
  if (name == "learned") return nl::FrequencySchedule::learned;
  return common::Error::invalid_argument(std::string(what) + ": unknown schedule \"" + common::excerpt(name) +
                                         "\"; one of fixed learned");
}

std::string_view schedule_name(nl::FrequencySchedule s) {
  return s == nl::FrequencySchedule::learned ? "learned" : "fixed";
}

common::Result<RunConfig> build_run_config(const ConfigFlags& f) {
  RunConfig rc;
  nl::MagConfig& m = rc.model;
  m.vocab = kByteVocab, m.d = 32, m.heads = 4, m.seq_len = 32, m.window = 32, m.seed = 42;
  m.rule = nl::RuleKind::delta;
  m.rule_cfg = nl::RuleConfig{};
  m.rule_cfg.d_h = 16, m.rule_cfg.m = 8, m.rule_cfg.d_c = 16;
  std::size_t levels = 2;
  rc.opt.lr = 3e-3, rc.opt.warmup = 20, rc.opt.weight_decay = 0.1, rc.opt.clip = 1.0;
  bool d_c_set = false, window_set = false;

  if (!f.config_file.empty()) {
    const std::string& file = f.config_file;
    auto doc = common::read_json_file(common::real_file_system(), file, {.file = file, .bom = common::BomPolicy::strip, .max_bytes = 1 << 20});
    if (!doc.ok()) return doc.error();
    const nlohmann::ordered_json& j = *doc;
    if (!j.is_object()) return config_error(file, "", "the configuration must be a JSON object").at_path("/");
    for (const auto& [key, v] : j.items()) {
      auto size = [&](std::size_t& out) -> common::Status {
        if (!v.is_number_unsigned()) return config_error(file, key, "must be a non-negative integer");
        out = static_cast<std::size_t>(v.get<std::uint64_t>());
        return {};
      };
      auto number = [&](double& out) -> common::Status {
        if (!v.is_number() || !std::isfinite(v.get<double>())) return config_error(file, key, "must be a finite number");
        out = v.get<double>();
        return {};
      };
      common::Status s;
      std::size_t tmp = 0;
      if (key == "rule") {
        if (!v.is_string()) return config_error(file, key, "must be a rule name");
        auto r = parse_rule(v.get<std::string>());
        if (!r.ok()) return config_error(file, key, "unknown rule \"" + common::excerpt(v.get<std::string>()) + "\"");
        m.rule = *r;
      } else if (key == "levels") {
        s = size(levels);
      } else if (key == "schedule") {
        const std::string x = v.is_string() ? v.get<std::string>() : "";
        if (x == "fixed") m.schedule = nl::FrequencySchedule::fixed;
        else if (x == "learned") m.schedule = nl::FrequencySchedule::learned;
        else return config_error(file, key, "must be \"fixed\" or \"learned\"");
      } else if (key == "d") {
        s = size(m.d);
      } else if (key == "heads") {
        s = size(m.heads);
      } else if (key == "seq_len") {
        s = size(m.seq_len);
      } else if (key == "window") {
        s = size(m.window), window_set = true;
      } else if (key == "seed") {
        s = size(tmp), m.seed = tmp;
      } else if (key == "d_h") {
        s = size(m.rule_cfg.d_h);
      } else if (key == "m") {
        s = size(m.rule_cfg.m);
      } else if (key == "d_c") {
        s = size(m.rule_cfg.d_c), d_c_set = true;
      } else if (key == "steps") {
        s = size(tmp), rc.steps = tmp;
      } else if (key == "warmup") {
        s = size(tmp), rc.opt.warmup = tmp;
      } else if (key == "lambda_k") {
        s = number(m.rule_cfg.lambda_k);
      } else if (key == "lambda_v") {
        s = number(m.rule_cfg.lambda_v);
      } else if (key == "lambda_2") {
        s = number(m.rule_cfg.lambda_2);
      } else if (key == "lambda_loc") {
        s = number(m.rule_cfg.lambda_loc);
      } else if (key == "huber_delta") {
        s = number(m.rule_cfg.huber_delta);
      } else if (key == "p") {
        s = number(m.rule_cfg.p);
      } else if (key == "a_s") {
        s = number(m.rule_cfg.a_s);
      } else if (key == "lr") {
        s = number(rc.opt.lr);
      } else if (key == "beta1") {
        s = number(rc.opt.beta1);
      } else if (key == "beta2") {
        s = number(rc.opt.beta2);
      } else if (key == "eps") {
        s = number(rc.opt.eps);
      } else if (key == "weight_decay") {
        s = number(rc.opt.weight_decay);
      } else if (key == "clip") {
        s = number(rc.opt.clip);
      } else if (key == "lattice_variant") {
        const std::string x = v.is_string() ? v.get<std::string>() : "";
        if (x == "decode") m.rule_cfg.lattice_variant = nl::LatticeVariant::decode;
        else if (x == "encode") m.rule_cfg.lattice_variant = nl::LatticeVariant::encode;
        else if (x == "similarity") m.rule_cfg.lattice_variant = nl::LatticeVariant::similarity;
        else return config_error(file, key, "must be \"decode\", \"encode\" or \"similarity\"");
      } else {
        return config_error(file, key, "unknown key");
      }
      if (!s.ok()) return s.error();
    }
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

}  // namespace nltrain

#include "nl/register_opaque_vjps.hpp"

namespace nltrain {

const tape::opaque::OpaqueRegistry& opaque_registry() {
  static const tape::opaque::OpaqueRegistry reg = [] {
    tape::opaque::OpaqueRegistry r;
    if (common::Status s = nl::register_opaque_vjps(r); !s.ok()) throw std::runtime_error(s.error().message());
    return r;
  }();
  return reg;
}

}  // namespace nltrain
