#pragma once
// APX 13.4.0: logical streams, the tasks queued on them, and the executor's configuration.
#include <cstdint>
#include <string>
#include <vector>

namespace hybrid {

enum class StreamKind : std::uint8_t { cpu, gpu, ssd_prefetch };

[[nodiscard]] const char* to_string(StreamKind kind);  // "Cpu", "Gpu", "SsdPrefetch"

enum class TaskCategory : std::uint8_t {
  compute,   // kernels (matmul, conv)
  transfer,  // data movement between tiers
  io,        // SSD prefetch
};

[[nodiscard]] const char* to_string(TaskCategory category);  // "Compute", "Transfer", "Io"

// The seed's TaskKind enum: every variant carries a debug name.
struct TaskKind {
  TaskCategory category = TaskCategory::compute;
  std::string name;
  // A transfer or prefetch of one tensor: which, and between which tiers (tier names, as in
  // the name "move:<from>-><to>:<tensor>"). Empty otherwise. Kept as fields so that nothing
  // has to parse them back out of the name.
  std::string tensor;
  std::string from, to;

  static TaskKind compute(std::string n) { return make(TaskCategory::compute, std::move(n)); }
  static TaskKind transfer(std::string n) { return make(TaskCategory::transfer, std::move(n)); }
  static TaskKind io(std::string n) { return make(TaskCategory::io, std::move(n)); }
  static TaskKind make(TaskCategory c, std::string n) {
    TaskKind k;
    k.category = c;
    k.name = std::move(n);
    return k;
  }

  friend bool operator==(const TaskKind&, const TaskKind&) = default;
};

struct StreamTask {
  std::uint64_t id = 0;
  StreamKind stream = StreamKind::cpu;
  TaskKind kind;
  std::uint64_t estimated_cost = 0;  // abstract units; reserved for future policies
  std::vector<std::uint64_t> after;  // tasks that must have run first (earlier ids only)
};

struct StreamConfig {
  // true: round-robin over the three streams; false: everything serialized onto the CPU stream.
  bool advanced_streams_supported = false;
};

}  // namespace hybrid
