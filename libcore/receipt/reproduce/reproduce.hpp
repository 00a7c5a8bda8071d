#pragma once
// Re-run the engine from receipts: each receipt's inputs, targets, parameters_before, optimizer
// config/state, batch and settings are read back and the whole receipt is regenerated. This is
// what `bp verify` (engine reproduction) and golden regeneration use.
// Unlike the reference's re-run (extractGeneralEngineInput), which drops optimizer_config and the
// optimizer state and so re-runs coupled-L2 receipts as plain SGD with another schema_version (its
// `verify general` rejects its own sgd-coupled-l2 goldens), the optimizer configuration, state and
// batch are carried over: every engine golden of the reference regenerates byte for byte.
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "receipt/engine/engine_receipt.hpp"
#include "receipt/engine/general_input.hpp"

namespace receipt::reproduce {

// One regenerated receipt per input receipt, same order. Errors carry the record index in
// Location::line (1-based) and the JSON path of the offending field.
[[nodiscard]] common::Result<std::vector<receipt::engine::EngineReceipt>> reproduce(
    std::span<const nlohmann::ordered_json> receipts);

// The engine input a (v0.2.0+) receipt describes.
[[nodiscard]] common::Result<receipt::engine::GeneralInput> extract_general_input(const nlohmann::ordered_json& receipt);

// The members of a receipt that need not exist as one document: parts(key) is the member `key`
// (nullptr when absent). The importer reads its engine input this way, mostly in place from the
// sidecar, without assembling and copying a receipt.
using ReceiptParts = std::function<const nlohmann::ordered_json*(const char* key)>;

// The same input as extract_general_input of the document those parts make, read in place; it
// accepts exactly what that accepts, but where several members are wrong its error may name
// another of them (object order, not sorted): callers that promise the document's messages take
// them from extract_general_input when this fails.
[[nodiscard]] common::Result<receipt::engine::GeneralInput> extract_general_input(const ReceiptParts& parts);
// The same, with the input bytes of those parts where known (common::JsonView::member_span): a
// stream's records repeat their topology, recognised by its bytes.
using ReceiptSpans = std::function<std::optional<std::string_view>(const char* key)>;
[[nodiscard]] common::Result<receipt::engine::GeneralInput> extract_general_input(const ReceiptParts& parts,
                                                                                  const ReceiptSpans& spans);
// The same, with the id-keyed number maps (inputs, targets, parameters_before) read by the caller
// where it can: maps(key, order) is the member's numbers in `order`'s order when the member is an
// object of exactly those keys, each a finite number; nullopt otherwise (then parts(key) is read,
// which accepts or refuses the member as the document would). Callers reading a receipt that is
// not a tree save converting the members that change in every record.
using ReceiptMaps =
    std::function<std::optional<std::vector<double>>(const char* key, const std::vector<std::string>& order)>;
[[nodiscard]] common::Result<receipt::engine::GeneralInput> extract_general_input(const ReceiptParts& parts,
                                                                                  const ReceiptSpans& spans,
                                                                                  const ReceiptMaps& maps);

}  // namespace receipt::reproduce
