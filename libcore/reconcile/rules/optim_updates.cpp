#include "reconcile/rules/optim_updates.hpp"

#include <stdexcept>

namespace reconcile::rules {

std::optional<std::string_view> update_optimizer_name(const Json& update) {
  if (update.is_null()) throw std::runtime_error("Cannot read properties of null (reading 'optimizer')");
  const Json* optimizer = member(update, "optimizer");
  return optimizer ? string_member(*optimizer, "name") : std::nullopt;
}

bool is_adam_name(std::optional<std::string_view> name) noexcept { return name && (*name == "adam" || *name == "adamw"); }

bool is_stateful_name(std::optional<std::string_view> name) noexcept { return is_adam_name(name) || (name && *name == "sgd_momentum"); }

std::optional<std::string> update_parameter_id(const Json& update) {
  const auto id = string_member(update, "parameter_id");
  return id ? std::optional<std::string>(std::string(*id)) : std::nullopt;
}

}  // namespace reconcile::rules
