#pragma once
// The streaming verify modes (multi, nltrain, tensor) read their JSON Lines through
// common::LineReader (common/line_reader.hpp): memory holds one line, whatever the input's length.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "verify/stream_error.hpp"

namespace verify {

// Feeds every line of `fd` to `take` (the line, its 1-based number) until the input ends, a read
// fails (StreamFailure::unreadable, naming `name`), a line is longer than `max_line_bytes`
// (StreamFailure::line_too_long, worded by `too_long` from the line number), or `take` returns an
// error, which ends the reading as it is.
[[nodiscard]] std::optional<StreamError> for_each_line(
    int fd, std::size_t max_line_bytes, const std::string& name,
    const std::function<std::string(std::int64_t line_number)>& too_long,
    const std::function<std::optional<StreamError>(std::string& line, std::int64_t line_number)>& take);

}  // namespace verify
