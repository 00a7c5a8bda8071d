#pragma once
// What every nltrain command shares: exit codes, the one-line error report, atomic output
// files, rule names, float JSON and the strict run configuration (built in run_config.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "cli_common/tool_report.hpp"
#include "common/error.hpp"
#include "common/float_json.hpp"
#include "common/result.hpp"
#include "nl/adamw.hpp"
#include "nl/mag_config.hpp"

namespace nltrain::cli {

using cli_common::kExitFailure;  // a check failed (gradcheck mismatch, a non-finite loss)
using cli_common::kExitInvalidArgument;
using cli_common::kExitMalformedOrIo;
using cli_common::kExitOk;
using cli_common::exit_code_for;
using cli_common::write_output;

// The default vocabulary: bytes are tokens, every byte value an id (--vocab sets another, for
// --data-format u16|u32 files of the user's own token ids).
inline constexpr std::size_t kByteVocab = 256;

// Standard input is read once: two inputs of one command cannot both be `-`.
inline constexpr const char* kOneStdin = "--config and --data cannot both be '-' (standard input holds one input)";

// "nltrain: <error line>" on stderr; returns the exit code of its ErrorCode.
inline int report(const common::Error& e) { return cli_common::report("nltrain", e); }

using common::float_json;  // the shortest decimal that reads back as the same float
// A step's loss in its trainer's precision: an fp64 run's (--fp64) as the shortest decimal of
// the double itself.
[[nodiscard]] inline nlohmann::ordered_json loss_json(float v) { return float_json(v); }
[[nodiscard]] inline nlohmann::ordered_json loss_json(double v) { return v; }

// Short names (delta titans hebbian moneta yaad memora lattice trellis atlas) or the full ones
// (DeltaRule, TitansLMM, ...), case-insensitive.
[[nodiscard]] common::Result<nl::RuleKind> parse_rule(std::string_view name);
[[nodiscard]] std::string_view short_rule_name(nl::RuleKind kind);

// "fixed" or "learned" (the CMS frequency schedule); `what` names the flag or key in the error.
[[nodiscard]] common::Result<nl::FrequencySchedule> parse_schedule(std::string_view name, std::string_view what);
[[nodiscard]] std::string_view schedule_name(nl::FrequencySchedule s);

// The model and optimizer a run uses: defaults, then --config F, then command-line flags.
struct RunConfig {
  nl::MagConfig model;
  nl::AdamWConfig opt;
  std::uint64_t steps = 1000;
};

struct ConfigFlags {
  std::string rule, config_file;
  std::optional<std::string> schedule;  // set: --schedule was given (even empty, which is an error)
  std::optional<std::size_t> vocab, levels, d, heads, seq_len, window, steps, warmup;
  std::optional<std::uint64_t> seed;
  std::optional<double> lr;
};

// Defaults: vocab 256 (bytes), delta, K=2 (periods 1, 8), schedule fixed, d=32, heads=4, seq_len=32, window=32, seed 42,
// lr 3e-3, warm-up 20, cosine over `steps`=1000. Errors name the flag or the JSON path.
[[nodiscard]] common::Result<RunConfig> build_run_config(const ConfigFlags& f);

// Levels K -> periods 1, 8, 64, ... (at most kMaxLevels); train, init and gradcheck default to
// kDefaultLevels, so gradcheck checks the model train trains.
inline constexpr std::size_t kMaxLevels = 6;
inline constexpr std::size_t kDefaultLevels = 2;

}  // namespace nltrain::cli

namespace tape::opaque {
class OpaqueRegistry;
}
namespace nltrain::cli {
// The tape's registry with every memory rule's VJPs (built once).
[[nodiscard]] const tape::opaque::OpaqueRegistry& opaque_registry();
}  // namespace nltrain::cli

namespace CLI {
class App;
}
namespace nltrain::cli {
// --rule --levels --schedule --config --vocab --d --heads --seq-len --window --seed (run_config.cpp).
void add_config_flags(CLI::App* cmd, ConfigFlags& f);
}  // namespace nltrain::cli
