#pragma once
// Canonical receipt emission (byte-compatible with backprop-trace 1.0.0 emitReceipts).
//
// Input: a receipt as nlohmann::ordered_json, e.g. straight from
// common::parse_json_text (common/json_input.hpp) or built by an engine. Numeric
// leaves may be integers or doubles; the emitter decides from the field what to
// print: canonical 9-significant-digit decimals (common/number_format.hpp) for
// real-valued fields, bare digits for integer fields (step, step_index, sizes,
// precision_significant_digits, batch.size, optimizer_config.t).
//
// Dispatch on "schema_version": "0.1.0" -> the Mazur layout (fixed unit and
// parameter names), anything else -> the general layout, whose maps iterate the
// receipt's own topology.unit_order / topology.parameter_order (and
// batch.sample_order). Object keys follow the receipt schemas' x-order.
// Fields the emitter does not know are dropped, not errors (the reference drops
// unknown metadata keys; a closed schema rejects other extras before emission).
// Optional fields are written only when present.
//
// Output: one line "{...}\n". Errors (Error::malformed) carry the JSON Pointer of
// the offending field in where().json_path, e.g. a missing required field, a
// non-string where a string belongs, a non-integer where an integer belongs, or a
// number outside [1e-13, 1e7) (message starts with PLAIN_DECIMAL_OUT_OF_SCOPE).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.hpp"

namespace receipt::emit {

[[nodiscard]] common::Result<std::string> emit_receipt_line(const nlohmann::ordered_json& receipt);

// Concatenation of emit_receipt_line for each receipt ("" for none). The first
// error stops it; its json_path is prefixed with nothing, its message with "record N: "
// (N 1-based).
[[nodiscard]] common::Result<std::string> emit_receipts(const std::vector<nlohmann::ordered_json>& receipts);

}  // namespace receipt::emit
