#pragma once
// What the engines hand back: a v0.1.0 Mazur receipt as a document (fixed 2-2-2, small), or a
// typed general receipt (any size; emitted without building a document).
#include <variant>

#include <nlohmann/json.hpp>

#include "receipt/engine/general_receipt.hpp"

namespace receipt::engine {

using EngineReceipt = std::variant<nlohmann::ordered_json, GeneralReceipt>;

// The receipt as a document (for the Mazur alternative, itself).
[[nodiscard]] nlohmann::ordered_json to_json(const EngineReceipt& receipt);

}  // namespace receipt::engine
