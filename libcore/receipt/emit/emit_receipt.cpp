#include "receipt/emit/emit_receipt.hpp"

#include <cstddef>

#include "receipt/emit/general_line.hpp"
#include "receipt/emit/sections.hpp"

namespace receipt::emit {

common::Result<std::string> emit_receipt_line(const nlohmann::ordered_json& receipt) {
  const auto version = receipt.is_object() ? receipt.find("schema_version") : receipt.end();
  const bool mazur = version != receipt.end() && version->is_string() && *version == "0.1.0";
  if (!mazur) return emit_general_receipt_line(receipt);
  ObjectWriter w;
  if (auto status = write_mazur_receipt(w, receipt); !status) return status.error();
  std::string line = w.out().take();
  line.push_back('\n');
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
