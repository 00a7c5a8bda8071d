#include "schema_authoring/optimizer_rules.hpp"

namespace schema_authoring {

Node when_member(std::string_view member, Node condition, Node consequence) {
  Node test = object().required_list({member});
  test.optional(member, std::move(condition));
  Node then = object();
  then.optional(member, std::move(consequence));
  return object().if_then(std::move(test), std::move(then));
}

Node named(std::initializer_list<std::string_view> names) {
  Node name;
  if (names.size() == 1) {
    name = constant(std::string(*names.begin()));
  } else {
    Json values = Json::array();
    for (auto n : names) values.push_back(std::string(n));
    name = Node(Json{{"enum", values}});
  }
  return object().required_list({"name"}).optional("name", std::move(name));
}

Node adam_needs_hyperparameters(std::string_view member) {
  return when_member(member, named({"adam", "adamw"}),
                     object().required_list({"name", "learning_rate", "beta1", "beta2", "epsilon", "t"}));
}

Node adamw_needs_weight_decay(std::string_view member) {
  return when_member(
      member, named({"adamw"}),
      object().required_list({"name", "learning_rate", "beta1", "beta2", "epsilon", "t", "weight_decay"}));
}

Node momentum_needs_momentum(std::string_view member) {
  return when_member(member, named({"sgd_momentum"}), object().required_list({"name", "learning_rate", "momentum"}));
}

Node momentum_forbids_weight_decay(std::string_view member) {
  return when_member(member, named({"sgd_momentum"}), object().never(requires_keys({"weight_decay"})));
}

Node momentum_weight_decay_allowed_note() {
  return anything().describe("Formerly: SGD with momentum could not carry weight_decay. The restriction is lifted.");
}

Node nesterov_forbids_dampening(std::string_view member) {
  Node nesterov = object().required_list({"name", "nesterov"});
  nesterov.optional("name", constant("sgd_momentum")).optional("nesterov", constant(true));
  Node zero_dampening;
  zero_dampening.optional("dampening", constant(0));
  return when_member(member, std::move(nesterov),
                     object().any_of({forbids_key("dampening"), std::move(zero_dampening)}));
}

Node stateful_update_needs_state(std::initializer_list<std::string_view> names) {
  return when_member(
      "optimizer", named(names),
      object().required_list({"name", "learning_rate", "factors", "product_order", "state_before", "state_after"}));
}

std::vector<Node> trace_id_and_step_index_go_together() {
  return {either({forbids_key("step_index"), requires_keys({"trace_id"})}),
          either({forbids_key("trace_id"), requires_keys({"step_index"})})};
}

Node step_index_needs_trace_id() {
  return either({forbids_key("step_index"), requires_keys({"trace_id", "step_index"})});
}

Node trace_id_and_step_index_both_or_neither() {
  return either({all({forbids_key("trace_id"), forbids_key("step_index")}), requires_keys({"trace_id", "step_index"})});
}

}  // namespace schema_authoring
