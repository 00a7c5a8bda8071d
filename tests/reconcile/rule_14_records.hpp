#pragma once
// Records the Rule 14 tests build from the xor golden.
#include <utility>

#include "rules_state_support.hpp"

namespace rule14_records {

using Json = reconcile::Tree;

inline Json xor_golden() { return rules_state_test::load_jsonl("fixtures/xor.golden.jsonl").at(0); }

// xor with an optimizer that carries state: every update gets a state_before.
inline Json with_optimizer(Json config, Json state) {
  Json r = xor_golden();
  r["optimizer_config"] = std::move(config);
  for (auto& u : r["updates"]) u["optimizer"]["state_before"] = state;
  return r;
}

}  // namespace rule14_records
