#pragma once
// JSON Lines read one line at a time from a file descriptor: memory holds one line (capped at
// max_line_bytes) and a 64 KiB buffer, whatever the input's length. Lines end at "\n"; a "\r"
// before it is dropped (CRLF); a last line without "\n" is still a line.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace common {

class LineReader {
 public:
  enum class Status { line, end, too_long, io_error };

  LineReader(int fd, std::size_t max_line_bytes) : fd_(fd), max_line_bytes_(max_line_bytes) {}

  // Every chunk read from the descriptor, as read, before it is cut into lines: for a digest of
  // exactly the bytes the lines came from.
  void observe_chunks(std::function<void(std::string_view)> observer) { observer_ = std::move(observer); }

  // Reads the next line into `line` (without its terminator). After too_long the rest of the
  // input is not read; line_number() names the offending line.
  [[nodiscard]] Status next(std::string& line);
  [[nodiscard]] std::int64_t line_number() const { return line_number_; }
  [[nodiscard]] int last_errno() const { return errno_; }

 private:
  bool fill();

  int fd_;
  std::size_t max_line_bytes_;
  std::function<void(std::string_view)> observer_;
  char buf_[65536];
  std::size_t pos_ = 0, len_ = 0;
  bool eof_ = false;
  int errno_ = 0;
  std::int64_t line_number_ = 0;
};

}  // namespace common
