#pragma once
// Every integer option of atenia and nltrain is read here, strictly: decimal digits only.
// CLI11's own conversion goes through strtoull, which accepts "-5" and wraps it to 2^64 - 5, so
// no option of theirs is bound to an integer directly.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

#include "cli_common/cli11_fwd.hpp"

namespace cli_common {

// `text` as a count: one or more ASCII digits, no sign, no fraction, no space, no more than
// 2^64 - 1. The error (malformed: exit 2) names `option` and quotes `text`.
[[nodiscard]] common::Result<std::uint64_t> parse_count(std::string_view option, std::string_view text);

// Adds `name` to `cmd`, read with parse_count when the command line is parsed; a bad value ends
// parsing with a one-line usage error (exit 2). The first form leaves `out` empty when the option
// is absent, the second keeps its default.
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                              const std::string& help);
CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::uint64_t& out, const std::string& help);

// Byte sizes (nltrain train --memory-budget): digits, then optionally one of K M G T (or
// k m g t), 2^10 .. 2^40. A sign, a fraction, a space, another suffix, or a value above
// 2^64 - 1 is malformed (exit 2), naming `option` and quoting `text`.
[[nodiscard]] common::Result<std::uint64_t> parse_byte_count(std::string_view option, std::string_view text);
// As add_count_option, read with parse_byte_count.
CLI::Option* add_byte_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                                   const std::string& help);

}  // namespace cli_common
