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

namespace {

template <class Store>
CLI::Option* add_with(CLI::App* cmd, const std::string& name, Store store, const std::string& help) {
  return cmd
      ->add_option_function<std::string>(
          name,
          [name, store](const std::string& text) {
            auto v = parse_count(name, text);
            // CLI11 reports a ValidationError as a usage error; main prints its text on one line.
            if (!v.ok()) throw CLI::ValidationError(v.error().message());
            store(*v);
          },
          help)
      ->type_name("UINT");
}

}  // namespace

CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::optional<std::uint64_t>& out,
                              const std::string& help) {
  return add_with(cmd, name, [&out](std::uint64_t v) { out = v; }, help);
}

CLI::Option* add_count_option(CLI::App* cmd, const std::string& name, std::uint64_t& out, const std::string& help) {
  return add_with(cmd, name, [&out](std::uint64_t v) { out = v; }, help);
}

}  // namespace cli_common
