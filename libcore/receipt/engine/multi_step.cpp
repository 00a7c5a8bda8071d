#include "receipt/engine/multi_step.hpp"

#include "receipt/engine/general_step.hpp"

namespace receipt::engine {

using nlohmann::ordered_json;

common::Result<std::vector<ordered_json>> run_multi_step(GeneralInput in, std::size_t steps,
                                                         const MultiStepNaming& naming) {
  std::vector<ordered_json> out;
  out.reserve(steps);
  const std::int64_t first_index = in.base.step_index.value_or(0);
  const auto& order = in.base.topology.parameter_order;
  for (std::size_t s = 0; s < steps; ++s) {
    const std::int64_t index = first_index + static_cast<std::int64_t>(s);
    in.base.step_index = index;
    if (!naming.fixture_prefix.empty()) in.base.fixture = naming.fixture_prefix + std::to_string(index);
    if (!naming.source_prefix.empty()) {
      in.base.metadata = topology::Metadata{naming.source_prefix + std::to_string(index) + naming.source_suffix,
                                            std::nullopt, "descent_direction"};
    }
    auto r = run_general_step(in);
    if (!r) return r.error();
    // The next step starts where this one ended (full binary64 values, not the 9-digit text).
    // parameters_after lists every parameter in parameter_order.
    std::size_t k = 0;
    for (const auto& item : (*r)["parameters_after"].items()) in.base.parameters_before[k++] = item.value().get<double>();
    if (in.state_before) {
      std::size_t slot = 0;
      for (const auto& u : (*r)["updates"]) {
        // Updates follow parameter_order (constant biases skipped).
        const auto& id = u["parameter_id"].get_ref<const std::string&>();
        for (; slot < order.size(); ++slot) {
          if (order[slot] != id) continue;
          const ordered_json& st = u["optimizer"]["state_after"];
          OptimizerState next;
          if (st.contains("buffer")) next.buffer = st["buffer"].get<double>();
          if (st.contains("m")) next.m = st["m"].get<double>();
          if (st.contains("v")) next.v = st["v"].get<double>();
          (*in.state_before)[slot] = next;
          break;
        }
      }
    }
    if (in.optimizer && in.optimizer->t) *in.optimizer->t += 1;
    out.push_back(std::move(*r));
  }
  return out;
}

}  // namespace receipt::engine
