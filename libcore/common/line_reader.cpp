#include "common/line_reader.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace common {

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
    if (observer_ && n > 0) observer_(std::string_view(buf_, len_));
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

}  // namespace common
