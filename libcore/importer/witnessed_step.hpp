#pragma once
// What every import does with one parsed sidecar step, single or within a stream: the engine
// re-runs it and the differential compares (witness), and an emission failure is worded with the
// receipt field that holds the number a receipt cannot spell.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/result.hpp"
#include "importer/observer_import.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "reconcile/read_json.hpp"

namespace importer::detail {

struct Witnessed {
  receipt::engine::GeneralReceipt engine;
  StepOutcome outcome;
};

// The engine's receipt stays a struct: the differential reads it, and the observer receipt
// takes only the blocks it needs from it, so no tree of the whole engine receipt is built.
// `topology_bytes`: run_witness's.
[[nodiscard]] common::Result<Witnessed> witness(const nlohmann::ordered_json& sidecar, reconcile::Tolerance tolerance,
                                                std::string_view topology_bytes = {});
// The same, the sidecar read in place from its document.
[[nodiscard]] common::Result<Witnessed> witness(const reconcile::ReadReceipt& sidecar, reconcile::Tolerance tolerance,
                                                std::string_view topology_bytes = {});

// JSON pointer of the first number a receipt cannot spell (outside [1e-13, 1e7)), so the
// refusal says where: Adam's second moment of a tiny gradient is the usual one.
[[nodiscard]] std::optional<std::string> unwritable_number_path(const nlohmann::ordered_json& j, const std::string& path);

// An emission failure, with the receipt field it came from when that can be found.
[[nodiscard]] std::string emission_failure(const common::Error& e, const nlohmann::ordered_json& receipt,
                                           const std::string& where_prefix);

}  // namespace importer::detail
