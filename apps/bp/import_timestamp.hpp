#pragma once
// attestor.import_provenance.import_timestamp: the wall clock, as the reference writes it
// (ISO 8601, UTC, milliseconds, "Z"), unless SOURCE_DATE_EPOCH (the reproducible-builds
// convention: whole seconds since 1970-01-01T00:00:00Z) pins it, so CI can compare bytes.
// A malformed SOURCE_DATE_EPOCH is refused (exit 3), never silently replaced by the clock.
#include <cstdint>
#include <string>
#include <variant>

#include "cli_error.hpp"

namespace bp::cli {

// "2026-05-18T03:00:00.000Z"; epoch_ms in [0, 253402300799999] (years 1970..9999).
[[nodiscard]] std::string iso8601_utc_millis(std::int64_t epoch_ms);

// From SOURCE_DATE_EPOCH when set (digits only, at most 253402300799), else the system clock.
[[nodiscard]] std::variant<std::string, CliError> import_timestamp();

}  // namespace bp::cli
