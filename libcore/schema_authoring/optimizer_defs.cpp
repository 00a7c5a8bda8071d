#include "schema_authoring/optimizer_defs.hpp"

#include "schema_authoring/optimizer_rules.hpp"

namespace schema_authoring {

Node optimizer_config() {
  return object()
      .field("name", one_of_values({"sgd", "adam", "adamw"}))
      .field("learning_rate", learning_rate())
      .optional("beta1", number().above(0).below(1))
      .optional("beta2", number().above(0).below(1))
      .optional("epsilon", number().above(0))
      .optional("weight_decay", number().min(0))
      .optional("t", integer().min(1))
      .closed()
      .ordered()
      .describe("The optimizer and its settings; which settings are required depends on the name.");
}

void add_momentum(Node& config) {
  config.replace("name", one_of_values({"sgd", "adam", "adamw", "sgd_momentum"}));
  config.optional("momentum", number().above(0).below(1));
  config.optional("nesterov", constant(false));
  config.optional("dampening", constant(0));
}

void allow_nesterov_and_dampening(Node& config) {
  config.replace("nesterov", boolean());
  config.replace("dampening", number().min(0).below(1));
}

Node adam_state(Style style) {
  return shaped(object().field("m", number()).field("v", number().min(0)).closed(), style)
      .describe("Adam's first and second moment estimates for one parameter.");
}

Node momentum_state(Style style) { return shaped(object().field("buffer", number()).closed(), style); }

Node optimizer_state() { return anything().one_of({ref("AdamState"), ref("MomentumState")}); }

void add_adam_to_update(Node& update) {
  update.edit("optimizer", [](Node& o) {
    o.replace("name", one_of_values({"sgd", "adam", "adamw"}));
    o.optional("state_before", ref("AdamState"));
    o.optional("state_after", ref("AdamState"));
  });
  update.append_all_of(stateful_update_needs_state({"adam", "adamw"}));
}

void add_momentum_to_update(Node& update) {
  update.edit("optimizer", [](Node& o) {
    o.replace("name", one_of_values({"sgd", "adam", "adamw", "sgd_momentum"}));
    o.replace("state_before", ref("OptimizerState"));
    o.replace("state_after", ref("OptimizerState"));
  });
  update.append_all_of(stateful_update_needs_state({"sgd_momentum"}));
}

}  // namespace schema_authoring
