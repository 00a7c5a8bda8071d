#include "verify/nltrain.hpp"

#include <utility>

#include "verify/line_reader.hpp"

namespace verify {

common::Expected<nl_audit::StreamVerifier, StreamError> verify_nltrain(int fd, const std::string& name,
                                                                       NltrainOptions options) {
  nl_audit::StreamVerifier v(std::move(options));
  LineReader reader(fd, nl_audit::kMaxReceiptLineBytes);
  std::string line;
  for (;;) {
    const auto status = reader.next(line);
    if (status == LineReader::Status::end) break;
    if (status == LineReader::Status::io_error) {
      return StreamError::unreadable_input(name, reader.last_errno());
    }
    if (status == LineReader::Status::too_long) {
      return StreamError(StreamFailure::line_too_long,
                         name + ":" + std::to_string(reader.line_number()) + ": a receipt longer than " +
                             std::to_string(nl_audit::kMaxReceiptLineBytes) + " bytes",
                         reader.line_number());
    }
    if (common::Status s = v.add(line, name, reader.line_number()); !s.ok()) {
      return StreamError(StreamFailure::rejected, s.error(), reader.line_number());
    }
  }
  if (v.receipts() == 0) return StreamError(StreamFailure::no_records, name + " contains no receipts");
  return v;
}

}  // namespace verify
