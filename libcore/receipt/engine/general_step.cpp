#include "receipt/engine/general_step.hpp"

#include <memory>

#include "receipt/engine/general_receipt.hpp"
#include "receipt/engine/receipt_json.hpp"

namespace receipt::engine {

common::Status validate_topology(const topology::Topology& t) {
  auto ix = topology::index_topology(t);
  if (!ix) return ix.error();
  return {};
}

common::Result<nlohmann::ordered_json> run_general_step(const GeneralInput& input) {
  auto r = compute_general_step(std::make_shared<const GeneralInput>(input));
  if (!r) return r.error();
  return to_json(*r);
}

common::Result<nlohmann::ordered_json> run_batched_general_step(const GeneralInput& input) {
  auto r = compute_batched_general_step(std::make_shared<const GeneralInput>(input));
  if (!r) return r.error();
  return to_json(*r);
}

}  // namespace receipt::engine
