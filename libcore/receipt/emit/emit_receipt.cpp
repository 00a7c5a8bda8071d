#include "receipt/emit/emit_receipt.hpp"

#include <algorithm>
#include <cstddef>

#include "receipt/emit/sections.hpp"

namespace receipt::emit {

common::Result<std::string> emit_receipt_line(const nlohmann::ordered_json& receipt) {
  // A stream's receipts are alike in size: the line is given the last one's size (and an
  // eighth), up to 1 MiB, rather than ten doublings and their copies for 16 KB. A huge receipt
  // does not make every later one hold as much.
  constexpr std::size_t kMaxReserve = std::size_t{1} << 20;
  thread_local std::size_t last_size = 0;
  ObjectWriter w;
  w.out().reserve(std::min(last_size + last_size / 8 + 1, kMaxReserve));
  const auto version = receipt.is_object() ? receipt.find("schema_version") : receipt.end();
  const bool mazur = version != receipt.end() && version->is_string() && *version == "0.1.0";
  auto status = mazur ? write_mazur_receipt(w, receipt) : write_general_receipt(w, receipt);
  if (!status) return status.error();
  std::string line = w.out().take();
  line.push_back('\n');
  last_size = line.size();
  return line;
}

common::Result<std::string> emit_receipts(const std::vector<nlohmann::ordered_json>& receipts) {
  std::string out;
  for (std::size_t i = 0; i < receipts.size(); ++i) {
    auto line = emit_receipt_line(receipts[i]);
    if (!line) {
      const common::Error& e = line.error();
      return common::Error(e.code(), "record " + std::to_string(i + 1) + ": " + e.message(), e.where());
    }
    out += *line;
  }
  return out;
}

}  // namespace receipt::emit
