#pragma once
// A general receipt as a JSON document, keys in the order the reference's emitter writes them.
// The fast path emits GeneralReceipt directly (receipt::emit); this form is for code that reads
// receipts as documents, and for the tests that hold the two emission paths together.
#include <nlohmann/json.hpp>

#include "receipt/engine/general_receipt.hpp"

namespace receipt::engine {

[[nodiscard]] nlohmann::ordered_json to_json(const GeneralReceipt& receipt);

// to_json's post_update_loss block alone ({status: "filled", per_output, total}), for the
// importer, which takes it from the engine when the sidecar has none.
[[nodiscard]] nlohmann::ordered_json post_update_loss_json(const GeneralReceipt& receipt);

}  // namespace receipt::engine
