#pragma once
// Per-update views for the optimizer rules (20-25).
#include <optional>
#include <string>

#include "reconcile/json_access.hpp"

namespace reconcile::rules {

// update.optimizer.name as the reference reads u.optimizer?.name: throws (a TypeError in the
// reference, reported as a Rule 0 structural failure) when the update itself is null.
[[nodiscard]] std::optional<std::string_view> update_optimizer_name(const Json& update);
[[nodiscard]] bool is_adam_name(std::optional<std::string_view> name) noexcept;
[[nodiscard]] bool is_stateful_name(std::optional<std::string_view> name) noexcept;  // adam, adamw, sgd_momentum
[[nodiscard]] std::optional<std::string> update_parameter_id(const Json& update);

}  // namespace reconcile::rules
