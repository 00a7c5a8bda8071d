#pragma once
// The checks a sidecar passes before the engine sees it, in the order the reference runs them:
// not empty, under the ingest cap, strict JSON, a format version this importer accepts, a
// supported optimizer, valid against the framework-trace schema its format names, the
// framework the subcommand names, a body that matches its format's optimizer contract, bounded
// collections, and parameters_after covering exactly topology.parameter_order.
// Every failure is ErrorCode::malformed whose message starts with `label` (bp import: exit 2).
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/result.hpp"
#include "importer/framework.hpp"

namespace importer {

// Inclusive caps of the reference (MAX_SIDECAR_INGEST_BYTES, MAX_SIDECAR_COLLECTION_ENTRIES).
inline constexpr std::size_t kMaxSidecarIngestBytes = std::size_t{8} * 1024 * 1024;
inline constexpr std::size_t kMaxSidecarCollectionEntries = 4096;

// JavaScript's String.prototype.trim whitespace (ASCII, NBSP, BOM and the Unicode spaces), UTF-8.
[[nodiscard]] std::string_view js_trim(std::string_view text);

[[nodiscard]] common::Status check_not_empty(std::string_view bytes, std::string_view label);
[[nodiscard]] common::Status check_ingest_cap(std::string_view bytes, std::string_view label);
// JSON.parse of the trimmed text, strict (duplicate keys: the last wins).
[[nodiscard]] common::Result<nlohmann::ordered_json> parse_sidecar(std::string_view text, std::string_view label,
                                                                   std::string_view what);
// Single-step importers accept framework-trace v0.1.0 and v0.3.0 .. v0.8.0; v0.2.0 is multi-step.
[[nodiscard]] common::Status check_single_step_format(const nlohmann::ordered_json& doc, Framework f,
                                                      std::string_view label);
[[nodiscard]] common::Status check_optimizer_supported(const nlohmann::ordered_json& doc, std::string_view label);
// Validates against the schema `format` names (v0.1.0 when it names none); returns that version
// ("0.7.0"). `suffix` is appended to the message (the multi-step hint).
[[nodiscard]] common::Result<std::string> validate_sidecar(const nlohmann::ordered_json& doc, std::string_view label,
                                                           std::string_view suffix = {});
[[nodiscard]] common::Status check_framework_name(const nlohmann::ordered_json& doc, Framework f,
                                                  std::string_view label);
// v0.4.0 needs adam|adamw, v0.5.0/v0.6.0 sgd_momentum, v0.8.0 sgd|sgd_momentum (a mislabelled body).
[[nodiscard]] common::Status check_format_matches_body(const nlohmann::ordered_json& doc, std::string_view label);
[[nodiscard]] common::Status check_collection_caps(const nlohmann::ordered_json& doc, std::string_view label);
[[nodiscard]] common::Status check_cross_references(const nlohmann::ordered_json& doc, std::string_view label);

}  // namespace importer
