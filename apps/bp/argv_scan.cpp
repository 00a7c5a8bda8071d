#include "argv_scan.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "common/json_string.hpp"
#include "suggest.hpp"

namespace bp::cli {
namespace {

constexpr std::array<std::string_view, 8> kPlainFlags = {"--json",         "--format=json", "--verbose", "-V",
                                                         "--warn-as-fail", "--strict",      "--check",   "--cross-machine"};
constexpr std::array<std::string_view, 6> kValueFlags = {"--out", "--topology", "--color", "--data", "--threads", "--jobs"};
constexpr std::array<std::string_view, 4> kMetaFlags = {"--help", "-h", "--version", "-v"};
constexpr std::array<std::string_view, 1> kLocalFlags = {"--print"};  // `bp examples pytorch --print`

bool contains(auto const& list, std::string_view token) {
  return std::find(list.begin(), list.end(), token) != list.end();
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The value of `flag`: the first `flag=V` or `flag V` occurrence decides; `flag` followed by
// nothing or by a flag-shaped token has no value.
std::optional<std::string> value_of(const std::vector<std::string>& args, std::string_view flag) {
  const std::string eq = std::string(flag) + "=";
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (starts_with(args[i], eq)) return args[i].substr(eq.size());
    if (args[i] == flag) {
      if (i + 1 >= args.size() || is_flag_shaped(args[i + 1])) return std::nullopt;
      return args[i + 1];
    }
  }
  return std::nullopt;
}

bool takes_next_as_value(const std::vector<std::string>& args, std::size_t i) {
  return i + 1 < args.size() && !is_flag_shaped(args[i + 1]);
}

bool is_recognized(const std::string& token) {
  if (token == "-" || token == "--") return true;
  if (contains(kPlainFlags, token) || contains(kMetaFlags, token) || contains(kLocalFlags, token)) return true;
  for (auto flag : kValueFlags) {
    if (token == flag || starts_with(token, std::string(flag) + "=")) return true;
  }
  return false;
}

std::vector<std::string> strip_options(const std::vector<std::string>& args) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (contains(kPlainFlags, a)) continue;
    if (starts_with(a, "--color")) continue;  // the reference drops every --color* token here
    if (contains(kValueFlags, a)) {
      if (takes_next_as_value(args, i)) ++i;
      continue;
    }
    if (std::any_of(kValueFlags.begin(), kValueFlags.end(),
                    [&](std::string_view flag) { return starts_with(a, std::string(flag) + "="); })) {
      continue;
    }
    words.push_back(a);
  }
  return words;
}

std::optional<CliError> first_unknown_flag(const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (is_recognized(token)) {
      if (contains(kValueFlags, token) && takes_next_as_value(args, i)) ++i;
      continue;
    }
    if (!is_flag_shaped(token)) continue;
    std::vector<std::string_view> known(kPlainFlags.begin(), kPlainFlags.end());
    known.insert(known.end(), kValueFlags.begin(), kValueFlags.end());
    known.insert(known.end(), kMetaFlags.begin(), kMetaFlags.end());
    known.insert(known.end(), kLocalFlags.begin(), kLocalFlags.end());
    const auto suggestion = suggest_flag(token, known);
    CliError e;
    e.exit_code = kExitInvalidArgument;
    e.code = "INVALID_FLAG";
    e.message = "unrecognized flag " + common::json_string(token) + ".";
    if (suggestion) e.message += " Did you mean " + common::json_string(*suggestion) + "?";
    e.message += " Run 'bp --help' for the recognized options.";
    if (suggestion) e.hint = "did you mean " + std::string(*suggestion) + "?";
    return e;
  }
  return std::nullopt;
}

// A file option given without its file ("--out", "--out=" or "--out" before another flag): the
// error to stop with; nullopt when `value` names a file or the option is absent.
std::optional<CliError> missing_value(const std::vector<std::string>& args, const std::optional<std::string>& value,
                                     std::string_view flag, std::string code, std::string message) {
  if (value && !value->empty()) return std::nullopt;
  const std::string eq = std::string(flag) + "=";
  for (const std::string& a : args) {
    if (a == flag || a == eq) {
      CliError e;
      e.exit_code = kExitInvalidArgument;
      e.code = std::move(code);
      e.message = std::move(message);
      return e;
    }
  }
  return std::nullopt;
}

}  // namespace

bool is_flag_shaped(const std::string& token) { return !token.empty() && token[0] == '-' && token != "-" && token != "--"; }

ScanResult scan_argv(const std::vector<std::string>& args) {
  ScanResult r;
  Invocation& inv = r.invocation;
  for (const auto& a : args) {
    if (a == "--json" || a == "--format=json") inv.json = true;
    if (a == "--verbose" || a == "-V") inv.verbose = true;
    if (a == "--check") inv.check = true;
    if (a == "--strict") inv.strict = true;
    if (a == "--warn-as-fail") inv.warn_as_fail = true;
    if (a == "--cross-machine") inv.cross_machine = true;
  }
  // Value options; each but --topology refuses to be given without its value (exit 3).
  struct ValueOption {
    const char* flag;
    std::optional<std::string> Invocation::*field;
    const char* code;  // null: no check for a missing value
    const char* missing;
  };
  static const ValueOption kValues[] = {
      // Deliberate difference: the reference takes "--out" with no file for no --out at all and
      // writes to stdout what the user meant for a file.
      {"--out", &Invocation::out, "MISSING_OUT_FILE",
       "--out needs a file name (--out <file>); without --out the output goes to stdout."},
      {"--topology", &Invocation::topology, nullptr, nullptr},
      {"--data", &Invocation::data, "MISSING_DATA_FILE",
       "--data needs a file name (--data <file>): the training data of the receipts."},
      {"--threads", &Invocation::threads, "MISSING_THREADS", "--threads needs a number (--threads 1 or --threads 2)."},
      {"--jobs", &Invocation::jobs, "MISSING_JOBS", "--jobs needs a number (--jobs N, N >= 1): the threads that check records."},
  };
  for (const ValueOption& v : kValues) {
    inv.*v.field = value_of(args, v.flag);
    if (v.code == nullptr) continue;
    if (auto e = missing_value(args, inv.*v.field, v.flag, v.code, v.missing)) {
      r.error = e;
      return r;
    }
  }
  if (auto color = value_of(args, "--color")) {
    if (*color == "auto") {
      inv.color = ColorChoice::auto_detect;
    } else if (*color == "never") {
      inv.color = ColorChoice::never;
    } else if (*color == "always") {
      inv.color = ColorChoice::always;
    } else {
      CliError e;
      e.exit_code = kExitInvalidArgument;
      e.code = "INVALID_COLOR";
      e.message = "invalid value for --color: '" + *color + "'. Expected 'auto', 'never', or 'always'.";
      r.error = e;
      r.error_is_plain_stderr = true;
      return r;
    }
  }
  inv.words = strip_options(args);
  r.error = first_unknown_flag(args);
  return r;
}

}  // namespace bp::cli
