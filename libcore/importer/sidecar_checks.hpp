#pragma once
// The checks a sidecar passes before the engine sees it, in the order the reference runs them:
// not empty, under the ingest cap, strict JSON, a format version this importer accepts, a
// supported optimizer, valid against the framework-trace schema its format names, the
// framework the subcommand names, a body that matches its format's optimizer contract, bounded
// collections, and parameters_after covering exactly topology.parameter_order.
// Every failure is ErrorCode::malformed whose message starts with `label` (bp import: exit 2).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json_document.hpp"
#include "common/result.hpp"
#include "importer/framework.hpp"
#include "reconcile/read_json.hpp"

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

// The checks a sidecar's own JSON passes first, before the engine's (they read little of it): the
// single-step format (single-step importers only), a supported optimizer, the schema its format
// names (`suffix`: validate_sidecar's).
struct SidecarGate {
  std::string_view label = {};  // what their failures start with
  std::optional<Framework> single_step = std::nullopt;
  std::string_view suffix = {};
};
struct GatedSidecar {
  nlohmann::ordered_json doc;
  std::string version;         // the framework-trace schema's ("0.7.0")
  std::string topology_bytes;  // the topology member's input bytes (common::JsonView::member_span), or empty
};
// parse_sidecar, then the gate's checks, with their errors; the text is copied for its document.
// A sidecar is read as a JsonDocument (8 bytes a value, 16 a number) and gated there, and becomes a
// tree only once it passes: a tree costs 48 bytes and more a value (an empty object, 3 bytes of
// text, took 48: a line of 12 million empty objects took 23 times its size), and reading and
// gating the document, then building the tree from it, costs less than parsing to the tree and
// gating that, for sidecars of every size (300 real 17 KB steps: 74K instructions a step fewer).
[[nodiscard]] common::Result<GatedSidecar> read_sidecar(std::string_view text, std::string_view label,
                                                        std::string_view what, const SidecarGate& gate);
// The same, `text` read in place (trimmed) rather than copied; it holds the same text after.
[[nodiscard]] common::Result<GatedSidecar> read_sidecar(std::string& text, std::string_view label,
                                                        std::string_view what, const SidecarGate& gate);
// The same, the document kept as it was read (the multi-step import reads it in place, through
// reconcile::ReadReceipt, and writes its receipt from it: no tree of the sidecar is built).
struct GatedDocument {
  common::JsonDocument doc;    // owns the trimmed text (ReadReceipt::take_text gives it back)
  std::string version;         // as GatedSidecar's
  std::string topology_bytes;  // as GatedSidecar's
};
[[nodiscard]] common::Result<GatedDocument> read_sidecar_document(std::string& text, std::string_view label,
                                                                  std::string_view what, const SidecarGate& gate);
[[nodiscard]] common::Status check_framework_name(const nlohmann::ordered_json& doc, Framework f,
                                                  std::string_view label);
// v0.4.0 needs adam|adamw, v0.5.0/v0.6.0 sgd_momentum, v0.8.0 sgd|sgd_momentum (a mislabelled body).
[[nodiscard]] common::Status check_format_matches_body(const nlohmann::ordered_json& doc, std::string_view label);
[[nodiscard]] common::Status check_collection_caps(const nlohmann::ordered_json& doc, std::string_view label);
[[nodiscard]] common::Status check_collection_caps(const reconcile::Json& doc, std::string_view label);
[[nodiscard]] common::Status check_cross_references(const nlohmann::ordered_json& doc, std::string_view label);
[[nodiscard]] common::Status check_cross_references(const reconcile::Json& doc, std::string_view label);

}  // namespace importer
