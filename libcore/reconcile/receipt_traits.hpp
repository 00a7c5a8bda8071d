#pragma once
// Facts about a receipt that several rules and the coverage report share.
#include <string>

#include "reconcile/json_access.hpp"

namespace reconcile {

// update.optimizer.name is "adam" or "adamw".
[[nodiscard]] bool is_adam_family_update(const Json& update) noexcept;
// update.optimizer.name is "sgd_momentum".
[[nodiscard]] bool is_sgd_momentum_update(const Json& update) noexcept;
// optimizer_config is an object with a string name.
[[nodiscard]] bool has_optimizer_config(const Json& receipt) noexcept;
// The import markers: attestor.import_provenance with a string source_format or source_hash, or
// source_framework with a string name or extractor.name. Rule 14 keys on these, not on the label.
[[nodiscard]] bool has_observer_markers(const Json& receipt) noexcept;
// fixture_status.authoring_state == "external_imported".
[[nodiscard]] bool labelled_external_imported(const Json& receipt) noexcept;

}  // namespace reconcile
