#include "schema_authoring/optimizer_releases.hpp"

#include "schema_authoring/optimizer_defs.hpp"
#include "schema_authoring/optimizer_rules.hpp"

namespace schema_authoring {

namespace {

template <class Fn>
void edit_settings(SchemaDocument& doc, const OptimizerSite& site, Fn&& fn) {
  if (site.as_definition)
    doc.edit("OptimizerConfig", fn);
  else
    doc.root().edit(site.member, fn);
}

}  // namespace

void release_adam(SchemaDocument& doc, const OptimizerSite& site) {
  doc.root()
      .optional_after("learning_rate", site.member, site.as_definition ? ref("OptimizerConfig") : optimizer_config())
      .append_all_of(adam_needs_hyperparameters(site.member))
      .append_all_of(adamw_needs_weight_decay(site.member));
  if (site.as_definition) doc.define("OptimizerConfig", optimizer_config());
  doc.define("AdamState", adam_state(site.style));
  doc.edit("Update", add_adam_to_update);
}

void release_momentum(SchemaDocument& doc, const OptimizerSite& site) {
  doc.root()
      .append_all_of(momentum_needs_momentum(site.member))
      .append_all_of(momentum_forbids_weight_decay(site.member));
  edit_settings(doc, site, add_momentum);
  doc.define("MomentumState", momentum_state(site.style)).define("OptimizerState", optimizer_state());
  doc.edit("Update", add_momentum_to_update);
}

void release_nesterov(SchemaDocument& doc, const OptimizerSite& site) {
  doc.root().append_all_of(nesterov_forbids_dampening(site.member));
  edit_settings(doc, site, allow_nesterov_and_dampening);
}

void lift_momentum_weight_decay_ban(SchemaDocument& doc, std::size_t rule_index) {
  doc.root().set_all_of(rule_index, momentum_weight_decay_allowed_note());
}

}  // namespace schema_authoring
