#include "hybrid/graph/batch_scenario.hpp"

#include <fmt/format.h>

#include <set>

#include "hybrid/codec/fnv1a32.hpp"

namespace hybrid {

Bytes scenario_payload(std::string_view id, std::uint64_t bytes) {
  // FNV-1a of the id: different tensors get different bytes.
  const std::uint32_t seed = fnv1a32({reinterpret_cast<const std::uint8_t*>(id.data()), id.size()});
  Bytes out(static_cast<std::size_t>(bytes));
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<std::uint8_t>((seed >> ((i % 4) * 8)) + i * 131U);
  }
  return out;
}

namespace {

common::Status validate(const BatchScenario& s) {
  std::set<std::string, std::less<>> ids;
  for (std::size_t i = 0; i < s.tensors.size(); ++i) {
    const auto& t = s.tensors[i];
    const std::string where = fmt::format("/tensors/{}", i);
    if (t.id.empty()) return common::Error::invalid_argument("tensor id is empty", {"", 0, where + "/id"});
    if (!ids.insert(t.id).second) {
      return common::Error::invalid_argument("duplicate tensor id '" + t.id + "'", {"", 0, where + "/id"});
    }
    if (t.bytes > kMaxScenarioTensorBytes) {
      return common::Error::invalid_argument(
          fmt::format("tensor '{}' asks for {} bytes; expected at most {}", t.id, t.bytes, kMaxScenarioTensorBytes),
          {"", 0, where + "/bytes"});
    }
  }
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    for (std::size_t k = 0; k < s.nodes[n].tensor_ids.size(); ++k) {
      const auto& id = s.nodes[n].tensor_ids[k];
      if (!ids.contains(id)) {
        return common::Error::invalid_argument("node uses unknown tensor '" + id + "'",
                                               {"", 0, fmt::format("/nodes/{}/tensors/{}", n, k)});
      }
    }
  }
  return {};
}

}  // namespace

common::Result<BatchRunResult> run_batch_scenario(const BatchScenario& scenario, HybridMemoryManager& mem) {
  if (auto ok = validate(scenario); !ok) return ok.error();
  for (std::size_t i = 0; i < scenario.tensors.size(); ++i) {
    const auto& t = scenario.tensors[i];
    auto reg = mem.register_tensor_with_data(t.id, scenario_payload(t.id, t.bytes), t.initial);
    if (!reg) return reg.error().at_path(fmt::format("/tensors/{}", i));
  }
  ReconfigurableGraph graph;
  for (const auto& node : scenario.nodes) graph.add_node(node.kernel, node.tensor_ids);
  const StreamConfig streams{scenario.advanced_streams};
  BatchLoopRunner runner(SmartOffloadEngine(scenario.offload), GraphExecutor(streams));
  AsyncExecutor exec(streams);
  return runner.run_ticks_with_plans(graph, exec, mem, scenario.ticks, scenario.gpu_available);
}

std::vector<std::string> describe_tick_plans(const std::vector<TickResult>& ticks) {
  return describe_tick_plans(ticks, {});
}

std::vector<std::string> describe_tick_plans(const std::vector<TickResult>& ticks, const std::vector<std::string>& names) {
  std::vector<std::string> lines;
  for (const auto& t : ticks) {
    lines.push_back(fmt::format("TICK_PLAN tick={} summary={}", t.tick, t.plan.snapshot_summary));
    for (const auto& p : t.plan.placements) {
      const std::string name = p.node_id < names.size() ? " name=" + names[p.node_id] : "";
      lines.push_back(fmt::format("NODE_PLAN tick={} node={}{} target={} reason={}", t.tick, p.node_id, name,
                                  to_string(p.target), p.reason));
    }
  }
  return lines;
}

}  // namespace hybrid
