#pragma once
// APX 13.7.1: a structured record of what backward decided and which gradient moves it made.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hybrid/graph/graph_placement_plan.hpp"
#include "hybrid/memory/memory_tier.hpp"
#include "hybrid/planner/execution_target.hpp"

namespace hybrid {

inline constexpr const char* kGradSkipNotRegistered = "tensor not registered in memory manager";
inline constexpr const char* kGradSkipAlreadyThere = "already in target tier";
inline constexpr const char* kGradGpuFallback = "GPU fallback due to move failure";

struct GradMoveRecord {
  enum class Kind : std::uint8_t {
    planned,  // a move from -> to was needed
    applied,  // plan_move + apply_move succeeded
    skipped,  // no move attempted; reason says why
    failed,   // plan_move or apply_move failed; reason holds the error
  };

  Kind kind = Kind::skipped;
  std::string grad_id;
  MemoryTier from = MemoryTier::ram;  // Planned / Applied
  MemoryTier to = MemoryTier::ram;    // Planned / Applied
  std::string reason;                 // Skipped / Failed

  static GradMoveRecord planned(std::string id, MemoryTier from, MemoryTier to) {
    return {Kind::planned, std::move(id), from, to, {}};
  }
  static GradMoveRecord applied(std::string id, MemoryTier from, MemoryTier to) {
    return {Kind::applied, std::move(id), from, to, {}};
  }
  static GradMoveRecord skipped(std::string id, std::string why) {
    return {Kind::skipped, std::move(id), MemoryTier::ram, MemoryTier::ram, std::move(why)};
  }
  static GradMoveRecord failed(std::string id, std::string why) {
    return {Kind::failed, std::move(id), MemoryTier::ram, MemoryTier::ram, std::move(why)};
  }

  friend bool operator==(const GradMoveRecord&, const GradMoveRecord&) = default;
};

[[nodiscard]] const char* to_string(GradMoveRecord::Kind kind);  // "Planned", "Applied", "Skipped", "Failed"

struct AutogradNodeTrace {
  NodeId node_id = 0;
  ExecutionTarget forward_target = ExecutionTarget::cpu;
  ExecutionTarget requested_backward_target = ExecutionTarget::cpu;
  ExecutionTarget final_backward_target = ExecutionTarget::cpu;
  std::string reason;
  std::vector<GradMoveRecord> moves;
};

struct AutogradTrace {
  std::vector<AutogradNodeTrace> nodes;  // backward (reverse) order
};

}  // namespace hybrid
