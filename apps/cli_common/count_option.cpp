#include "cli_common/count_option.hpp"

#include <charconv>
#include <limits>
#include <system_error>

#include <CLI/CLI.hpp>

#include "common/error.hpp"

namespace cli_common {

common::Result<std::uint64_t> parse_count(std::string_view option, std::string_view text) {
  const std::string quoted = "\"" + common::excerpt(text) + "\"";
  bool digits = !text.empty();
  for (char c : text) digits = digits && c >= '0' && c <= '9';
  if (!digits) {
    return common::Error::malformed(std::string(option) + ": expected a non-negative integer (digits only), got " + quoted);
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return common::Error::malformed(std::string(option) + ": " + quoted + " is too large; at most " +
                                    std::to_string(std::numeric_limits<std::uint64_t>::max()));
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    return common::Error::malformed(std::string(option) + ": expected a non-negative integer (digits only), got " + quoted);
  }
  return value;
}

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

namespace {

template <class Store>
CLI::Option* add_with(CLI::App* cmd, const std::string& name, Store store, const std::string& help,
                      common::Result<std::uint64_t> (*parse)(std::string_view, std::string_view) = parse_count,
                      const char* type_name = "UINT") {
  return cmd
      ->add_option_function<std::string>(
          name,
          [name, store, parse](const std::string& text) {
            auto v = parse(name, text);
            // CLI11 reports a ValidationError as a usage error; main prints its text on one line.
            if (!v.ok()) throw CLI::ValidationError(v.error().message());
            store(*v);
          },
          help)
      ->type_name(type_name);
}

}  // namespace

CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                              const std::string& help) {
  return add_with(cmd, name, [&out](std::uint64_t v) { out = v; }, help);
}

CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::uint64_t& out, const std::string& help) {
  return add_with(cmd, name, [&out](std::uint64_t v) { out = v; }, help);
}

CLI::Option* add_byte_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                                   const std::string& help) {
  return add_with(cmd, name, [&out](std::uint64_t v) { out = v; }, help, parse_byte_count, "BYTES");
}

}  // namespace cli_common
