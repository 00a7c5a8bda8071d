#pragma once
// Byte-size options (nltrain train --memory-budget): a count of bytes, with an optional binary
// suffix, read as strictly as count_option.hpp reads counts.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace cli_common {

// `text` as bytes: digits, then optionally one of K M G T (or k m g t), 2^10 .. 2^40. A sign, a
// fraction, a space, another suffix, or a value above 2^64 - 1 is malformed (exit 2), naming
// `option` and quoting `text`.
[[nodiscard]] common::Result<std::uint64_t> parse_byte_count(std::string_view option, std::string_view text);

// Adds `name` to `cmd`, read with parse_byte_count when the command line is parsed (a bad value
// ends parsing with a one-line usage error); `out` stays empty when the option is absent.
CLI::Option* add_byte_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                                   const std::string& help);

}  // namespace cli_common
