#include "receipt/engine/multi_step.hpp"

#include <memory>

namespace receipt::engine {

common::Result<std::vector<GeneralReceipt>> run_multi_step(GeneralInput in, std::size_t steps,
                                                           const MultiStepNaming& naming) {
  std::vector<GeneralReceipt> out;
  out.reserve(steps);
  const std::int64_t first_index = in.base.step_index.value_or(0);
  for (std::size_t s = 0; s < steps; ++s) {
    const std::int64_t index = first_index + static_cast<std::int64_t>(s);
    in.base.step_index = index;
    if (!naming.fixture_prefix.empty()) in.base.fixture = naming.fixture_prefix + std::to_string(index);
    if (!naming.source_prefix.empty()) {
      in.base.metadata = topology::Metadata{naming.source_prefix + std::to_string(index) + naming.source_suffix,
                                            std::nullopt, "descent_direction"};
    }
    auto r = compute_general_step(std::make_shared<const GeneralInput>(in));
    if (!r) return r.error();
    // The next step starts where this one ended (full binary64 values, not the 9-digit text).
    in.base.parameters_before = r->parameters_after;
    if (in.state_before && r->stateful) {
      for (const UpdateRecord& u : r->updates) (*in.state_before)[u.slot] = u.state_after;
    }
    if (in.optimizer && in.optimizer->t) *in.optimizer->t += 1;
    out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace receipt::engine
