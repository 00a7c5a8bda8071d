#pragma once
// JSON Lines read one line at a time from a file descriptor, for the streaming verify modes (multi,
// nltrain): memory holds one line (capped at max_line_bytes) and a 64 KiB buffer, whatever the
// input's length. Lines end at "\n"; a "\r" before it is dropped (CRLF); a last line without "\n"
// is still a line.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "verify/stream_error.hpp"

namespace verify {

class LineReader {
 public:
  enum class Status { line, end, too_long, io_error };

  LineReader(int fd, std::size_t max_line_bytes) : fd_(fd), max_line_bytes_(max_line_bytes) {}

  // Reads the next line into `line` (without its terminator). After too_long the rest of the
  // input is not read; line_number() names the offending line.
  [[nodiscard]] Status next(std::string& line);
  [[nodiscard]] std::int64_t line_number() const { return line_number_; }
  [[nodiscard]] int last_errno() const { return errno_; }

 private:
  bool fill();

  int fd_;
  std::size_t max_line_bytes_;
  char buf_[65536];
  std::size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  int errno_ = 0;
  std::int64_t line_number_ = 0;
};

// Feeds every line of `fd` to `take` (the line, its 1-based number) until the input ends, a read
// fails (StreamFailure::unreadable, naming `name`), a line is longer than `max_line_bytes`
// (StreamFailure::line_too_long, worded by `too_long` from the line number), or `take` returns an
// error, which ends the reading as it is.
[[nodiscard]] std::optional<StreamError> for_each_line(
    int fd, std::size_t max_line_bytes, const std::string& name,
    const std::function<std::string(std::int64_t line_number)>& too_long,
    const std::function<std::optional<StreamError>(std::string& line, std::int64_t line_number)>& take);

}  // namespace verify
