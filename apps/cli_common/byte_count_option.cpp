#include "cli_common/byte_count_option.hpp"

#include <limits>

#include <CLI/CLI.hpp>

#include "cli_common/count_option.hpp"
#include "common/error.hpp"

namespace cli_common {

common::Result<std::uint64_t> parse_byte_count(std::string_view option, std::string_view text) {
  unsigned shift = 0;
  std::string_view digits = text;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K': case 'k': shift = 10; break;
      case 'M': case 'm': shift = 20; break;
      case 'G': case 'g': shift = 30; break;
      case 'T': case 't': shift = 40; break;
      default: break;
    }
    if (shift > 0) digits.remove_suffix(1);
  }
  const std::string quoted = "\"" + common::excerpt(text) + "\"";
  bool ok = !digits.empty();
  for (char c : digits) ok = ok && c >= '0' && c <= '9';
  if (!ok) {
    return common::Error::malformed(std::string(option) + ": expected a number of bytes (digits, optionally followed by K, M, G or T), got " + quoted);
  }
  auto n = parse_count(option, digits);
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  if (!n.ok() || *n > (kMax >> shift)) {
    return common::Error::malformed(std::string(option) + ": " + quoted + " is too large; at most " + std::to_string(kMax) + " bytes");
  }
  return *n << shift;
}

CLI::Option* add_byte_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                                   const std::string& help) {
  return cmd
      ->add_option_function<std::string>(
          name,
          [name, &out](const std::string& text) {
            auto v = parse_byte_count(name, text);
            if (!v.ok()) throw CLI::ValidationError(v.error().message());  // a usage error, one line
            out = *v;
          },
          help)
      ->type_name("BYTES");
}

}  // namespace cli_common
