#include "import_timestamp.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace bp::cli {
namespace {

constexpr std::int64_t kMaxEpochSeconds = 253402300799;  // 9999-12-31T23:59:59Z

// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days).
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2 ? 1 : 0;
}

}  // namespace

std::string iso8601_utc_millis(std::int64_t epoch_ms) {
  const std::int64_t ms = epoch_ms % 1000;
  const std::int64_t secs = epoch_ms / 1000;
  const std::int64_t days = secs / 86400;
  const std::int64_t sod = secs % 86400;
  std::int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, y, m, d);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(y), m, d,
                static_cast<long long>(sod / 3600), static_cast<long long>(sod / 60 % 60),
                static_cast<long long>(sod % 60), static_cast<long long>(ms));
  return buf;
}

std::variant<std::string, CliError> import_timestamp() {
  if (const char* env = std::getenv("SOURCE_DATE_EPOCH"); env != nullptr) {
    const std::string_view text(env);
    // Leading zeros are digits of the same number (a zero-padded value is still whole seconds).
    std::string_view digits = text;
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    std::int64_t secs = 0;
    bool ok = !digits.empty() && digits.size() <= 12;
    for (char c : digits) {
      ok = ok && c >= '0' && c <= '9';
      if (ok) secs = secs * 10 + (c - '0');
    }
    if (!ok || secs > kMaxEpochSeconds) {
      CliError e;
      e.exit_code = kExitInvalidArgument;
      e.code = "INVALID_SOURCE_DATE_EPOCH";
      e.message = "SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01T00:00:00Z (0.." +
                  std::to_string(kMaxEpochSeconds) + "); got '" + std::string(text) + "'.";
      e.hint = "unset it to use the current time, or set it to e.g. $(git log -1 --format=%ct).";
      e.retryable = false;
      return e;
    }
    return iso8601_utc_millis(secs * 1000);
  }
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now).count();
  return iso8601_utc_millis(ms < 0 ? 0 : ms);
}

}  // namespace bp::cli
