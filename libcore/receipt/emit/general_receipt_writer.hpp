#pragma once
// Canonical emission of engine receipts without an intermediate document: a GeneralReceipt is
// written straight from its arrays, in the same bytes emit_receipt_line(to_json(r)) produces.
// When a number falls outside the canonical range the document path is taken instead, so errors
// carry the same message and JSON path as for any other receipt.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "receipt/engine/engine_receipt.hpp"

namespace receipt::emit {

// Appends "{...}\n"; on error `out` is left as it was.
[[nodiscard]] common::Status append_receipt_line(std::string& out, const engine::GeneralReceipt& receipt);
[[nodiscard]] common::Result<std::string> emit_receipt_line(const engine::GeneralReceipt& receipt);
// The same line with every real number written as 0, for a reader of its strings and shape alone
// (Rule 14's labels): spelling the numbers, and reading them back, was most of that rule's cost on
// imported receipts. nullopt where emit_receipt_line fails (a number outside the canonical range).
[[nodiscard]] std::optional<std::string> emit_receipt_labels(const engine::GeneralReceipt& receipt);

// emit_receipts(receipts) would succeed and give exactly `expected`; found by comparing as the
// bytes are written, without building the output (false at the first difference or error).
[[nodiscard]] bool emits_exactly(const std::vector<engine::EngineReceipt>& receipts, std::string_view expected);

// Every receipt in order, one line each; errors as emit_receipts() of documents ("record N: ...").
// `expected_bytes`: the output's likely size, when known (a receipt being reproduced), reserved
// up front so that megabytes are not copied at each doubling of the string.
[[nodiscard]] common::Result<std::string> emit_receipts(const std::vector<engine::EngineReceipt>& receipts,
                                                        std::size_t expected_bytes = 0);

}  // namespace receipt::emit
