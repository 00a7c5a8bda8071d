#pragma once
// The observer-mode receipt an import writes: the sidecar's claims as the canonical fields, plus
// who computed them (source_framework, attestor.computed_by), who checked them (the engine), how
// (the differential tolerance), from which bytes (import_provenance) and with what outcome
// (fixture_status.verification_state). The schema version follows the optimizer: 0.4.0 SGD,
// 0.5.0 Adam/AdamW, 0.6.0 SGD momentum, 0.7.0 with Nesterov or dampening, 0.8.0 coupled L2.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "importer/framework.hpp"
#include "receipt/engine/general_receipt.hpp"
#include "reconcile/read_json.hpp"
#include "reconcile/tolerance.hpp"

namespace importer {

struct ObserverFields {
  Framework framework = Framework::pytorch;
  bool multi = false;
  std::string fixture;
  std::string source_hash;       // "sha256:<hex>" of the sidecar bytes as read
  std::string import_timestamp;  // ISO 8601 with milliseconds and Z
  reconcile::Tolerance differential_tolerance;
  bool differential_passed = false;
  std::optional<std::string> trace_id;       // multi-step
  std::optional<std::int64_t> step_index;    // multi-step
};

// `engine` supplies the topology (as the engine normalised it) and the post-update forward and
// loss when the sidecar has none. The result is ready for receipt::emit::emit_receipt_line.
// Both documents are consumed: the blocks the receipt carries verbatim are moved, not copied.
[[nodiscard]] nlohmann::ordered_json build_observer_receipt(nlohmann::ordered_json&& sidecar,
                                                            nlohmann::ordered_json&& engine,
                                                            const ObserverFields& fields);

// The same receipt with the engine's blocks written from its struct (only those the receipt takes).
[[nodiscard]] nlohmann::ordered_json build_observer_receipt(nlohmann::ordered_json&& sidecar,
                                                            const receipt::engine::GeneralReceipt& engine,
                                                            const ObserverFields& fields);

// The same receipt for a sidecar read in place (the multi-step import), as one reconcile::Json
// object for receipt::emit's writers: the receipt's own members are a small tree, the sidecar's
// blocks (inputs, forward, backward, updates, ...) are the sidecar's own values, not copies.
// Neither the sidecar nor this object may move or go while root() is read, and a thread holds one
// at a time (the engine's topology block, which records repeat, is kept by the thread).
class ComposedReceipt {
 public:
  ComposedReceipt(const reconcile::ReadReceipt& sidecar, const receipt::engine::GeneralReceipt& engine,
                  const ObserverFields& fields);
  ComposedReceipt(const ComposedReceipt&) = delete;
  ComposedReceipt& operator=(const ComposedReceipt&) = delete;
  ~ComposedReceipt();

  // The receipt's own members, in the receipt's order; a member the sidecar gives stands as null.
  // Changing them (the attestor's digest field) takes effect at the next root().
  [[nodiscard]] nlohmann::ordered_json& own() { return own_; }
  // The receipt, composed from own() as it is now and the sidecar.
  [[nodiscard]] const reconcile::Json& root();

 private:
  const reconcile::ReadReceipt& sidecar_;
  nlohmann::ordered_json own_;
  std::vector<std::string_view> from_sidecar_;  // the members root() takes from the sidecar, in order
  const reconcile::Json* topology_ = nullptr;    // the engine's topology block, kept by this thread
  std::unique_ptr<reconcile::ReadReceipt> own_read_;
  std::vector<reconcile::JsonMember> members_;
  reconcile::Json root_;
};

// "0.4.0" .. "0.8.0" for the sidecar's optimizer block.
[[nodiscard]] std::string observer_schema_version(const nlohmann::ordered_json& sidecar);

}  // namespace importer
