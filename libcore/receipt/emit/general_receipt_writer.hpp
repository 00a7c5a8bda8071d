#pragma once
// Canonical emission of engine receipts without an intermediate document: a GeneralReceipt is
// written straight from its arrays, in the same bytes emit_receipt_line(to_json(r)) produces.
// When a number falls outside the canonical range the document path is taken instead, so errors
// carry the same message and JSON path as for any other receipt.
#include <string>
#include <vector>

#include "common/result.hpp"
#include "receipt/engine/engine_receipt.hpp"

namespace receipt::emit {

// Appends "{...}\n"; on error `out` is left as it was.
[[nodiscard]] common::Status append_receipt_line(std::string& out, const engine::GeneralReceipt& receipt);
[[nodiscard]] common::Result<std::string> emit_receipt_line(const engine::GeneralReceipt& receipt);

// Every receipt in order, one line each; errors as emit_receipts() of documents ("record N: ...").
[[nodiscard]] common::Result<std::string> emit_receipts(const std::vector<engine::EngineReceipt>& receipts);

}  // namespace receipt::emit
