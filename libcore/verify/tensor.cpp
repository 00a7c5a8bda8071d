#include "verify/tensor.hpp"

#include "mlp_audit/receipt.hpp"
#include "verify/line_reader.hpp"

namespace verify {

common::Expected<mlp_audit::StreamVerifier, StreamError> verify_tensor(int fd, const std::string& name) {
  mlp_audit::StreamVerifier v(name);
  auto too_long = [&](std::int64_t n) {
    return name + ":" + std::to_string(n) + ": a receipt longer than " + std::to_string(mlp_audit::kMaxRecordBytes) + " bytes";
  };
  auto take = [&](const std::string& line, std::int64_t n) -> std::optional<StreamError> {
    if (common::Status s = v.add(line, n); !s.ok()) return StreamError(StreamFailure::rejected, s.error(), n);
    return std::nullopt;
  };
  if (auto e = for_each_line(fd, mlp_audit::kMaxRecordBytes, name, too_long, take)) return *e;
  if (v.receipts() == 0) return StreamError(StreamFailure::no_records, name + " contains no receipts");
  return v;
}

}  // namespace verify
