#include "verify/nltrain.hpp"

#include <utility>

#include "verify/line_reader.hpp"

namespace verify {

common::Expected<nl_audit::StreamVerifier, StreamError> verify_nltrain(int fd, const std::string& name,
                                                                       NltrainOptions options) {
  nl_audit::StreamVerifier v(std::move(options));
  auto too_long = [&](std::int64_t n) {
    return name + ":" + std::to_string(n) + ": a receipt longer than " + std::to_string(nl_audit::kMaxReceiptLineBytes) +
           " bytes";
  };
  auto take = [&](const std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (common::Status s = v.add(line, name, n); !s.ok()) return StreamError(StreamFailure::rejected, s.error(), n);
    return std::nullopt;
  };
  if (auto e = for_each_line(fd, nl_audit::kMaxReceiptLineBytes, name, too_long, take)) return *e;
  if (v.receipts() == 0) return StreamError(StreamFailure::no_records, name + " contains no receipts");
  return v;
}

}  // namespace verify
