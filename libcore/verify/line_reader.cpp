#include "verify/line_reader.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace verify {

bool LineReader::fill() {
  for (;;) {
    const ssize_t n = ::read(fd_, buf_, sizeof buf_);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      errno_ = errno;
      return false;
    }
    pos_ = 0;
    len_ = static_cast<std::size_t>(n);
    if (n == 0) eof_ = true;
    return true;
  }
}

LineReader::Status LineReader::next(std::string& line) {
  line.clear();
  bool any = false;
  for (;;) {
    if (pos_ == len_) {
      if (eof_) break;
      if (!fill()) return Status::io_error;
      if (eof_) break;
    }
    any = true;
    const char* start = buf_ + pos_;
    const auto* nl = static_cast<const char*>(std::memchr(start, '\n', len_ - pos_));
    const std::size_t take = nl ? static_cast<std::size_t>(nl - start) : len_ - pos_;
    if (line.size() + take > max_line_bytes_) {
      ++line_number_;
      return Status::too_long;
    }
    line.append(start, take);
    pos_ += take;
    if (nl) {
      ++pos_;
      break;
    }
  }
  if (!any) return Status::end;
  ++line_number_;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return Status::line;
}

std::optional<StreamError> for_each_line(
    int fd, std::size_t max_line_bytes, const std::string& name,
    const std::function<std::string(std::int64_t line_number)>& too_long,
    const std::function<std::optional<StreamError>(std::string& line, std::int64_t line_number)>& take) {
  LineReader reader(fd, max_line_bytes);
  std::string line;
  for (;;) {
    const auto status = reader.next(line);
    if (status == LineReader::Status::end) return std::nullopt;
    if (status == LineReader::Status::io_error) return StreamError::unreadable_input(name, reader.last_errno());
    if (status == LineReader::Status::too_long) {
      return StreamError(StreamFailure::line_too_long, too_long(reader.line_number()), reader.line_number());
    }
    if (auto e = take(line, reader.line_number())) return e;
  }
}

}  // namespace verify
