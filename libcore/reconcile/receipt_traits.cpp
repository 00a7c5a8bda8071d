#include "reconcile/receipt_traits.hpp"

namespace reconcile {
namespace {

std::optional<std::string_view> optimizer_name(const Json& update) noexcept {
  const auto* optimizer = member(update, "optimizer");
  return optimizer ? string_member(*optimizer, "name") : std::nullopt;
}

}  // namespace

bool is_adam_family_update(const Json& update) noexcept {
  const auto name = optimizer_name(update);
  return name && (*name == "adam" || *name == "adamw");
}

bool is_sgd_momentum_update(const Json& update) noexcept {
  const auto name = optimizer_name(update);
  return name && *name == "sgd_momentum";
}

bool has_optimizer_config(const Json& receipt) noexcept {
  const auto* config = object_member(receipt, "optimizer_config");
  return config && string_member(*config, "name");
}

bool has_observer_markers(const Json& receipt) noexcept {
  const auto* attestor = object_member(receipt, "attestor");
  const auto* provenance = attestor ? object_member(*attestor, "import_provenance") : nullptr;
  if (provenance && (string_member(*provenance, "source_format") || string_member(*provenance, "source_hash"))) {
    return true;
  }
  const auto* framework = object_member(receipt, "source_framework");
  if (!framework) return false;
  if (string_member(*framework, "name")) return true;
  const auto* extractor = object_member(*framework, "extractor");
  return extractor && string_member(*extractor, "name");
}

bool labelled_external_imported(const Json& receipt) noexcept {
  const auto* status = member(receipt, "fixture_status");
  const auto state = status ? string_member(*status, "authoring_state") : std::nullopt;
  return state && *state == "external_imported";
}

}  // namespace reconcile
