#pragma once
// Per-update views for the optimizer rules (20-25).
#include <optional>
#include <string>

#include "reconcile/json_access.hpp"

namespace reconcile::rules {

// update.optimizer.name as the reference reads u.optimizer?.name: throws (a TypeError in the
// reference, reported as a Rule 0 structural failure) when the update itself is null.
[[nodiscard]] const std::string* update_optimizer_name(const Json& update);
[[nodiscard]] bool is_adam_name(const std::string* name) noexcept;
[[nodiscard]] bool is_stateful_name(const std::string* name) noexcept;  // adam, adamw, sgd_momentum
[[nodiscard]] std::optional<std::string> update_parameter_id(const Json& update);

}  // namespace reconcile::rules
