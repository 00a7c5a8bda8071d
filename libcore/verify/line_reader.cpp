#include "verify/line_reader.hpp"

#include "common/line_reader.hpp"

namespace verify {

std::optional<StreamError> for_each_line(
    int fd, std::size_t max_line_bytes, const std::string& name,
    const std::function<std::string(std::int64_t line_number)>& too_long,
    const std::function<std::optional<StreamError>(std::string& line, std::int64_t line_number)>& take) {
  common::LineReader reader(fd, max_line_bytes);
  std::string line;
  for (;;) {
    const auto status = reader.next(line);
    if (status == common::LineReader::Status::end) return std::nullopt;
    if (status == common::LineReader::Status::io_error) return StreamError::unreadable_input(name, reader.last_errno());
    if (status == common::LineReader::Status::too_long) {
      return StreamError(StreamFailure::line_too_long, too_long(reader.line_number()), reader.line_number());
    }
    if (auto e = take(line, reader.line_number())) return e;
  }
}

}  // namespace verify
