#pragma once
// One event of an executor's timeline, as data. The text lines (async_executor.hpp lists their
// exact formats) are rendered from these fields, and consumers that need the values (the
// simulator's timing model, its byte counts) read the fields, never the text: an id or a node
// name can then not change a duration or forge a line, whatever it holds.
#include <cstdint>
#include <string>

#include "hybrid/streams/stream_types.hpp"

namespace hybrid {

enum class TimelineEventKind { enqueue, run, fallback, tick_start, offload_plan, offload_move, offload_apply, tick_end, note };

struct TimelineEvent {
  TimelineEventKind kind = TimelineEventKind::note;
  // Enqueue, Run, Fallback: the task (for a Run, `stream` is the stream it ran on).
  StreamKind stream = StreamKind::cpu;
  std::uint64_t task_id = 0;
  TaskKind task;
  std::uint64_t cost = 0;
  // TickStart .. TickEnd.
  std::uint64_t tick = 0;
  std::size_t actions = 0;  // OffloadPlan
  std::string reason;       // OffloadPlan
  std::string tensor;       // OffloadMove
  std::string from, to;     // OffloadMove: tier names ("none" when the tensor had none)
  std::string outcome;      // OffloadApply: "skipped", "ok" or "error=<why>"
  std::string text;         // Note: a line another component wrote
};

// The event's timeline line.
[[nodiscard]] std::string render(const TimelineEvent& e);

}  // namespace hybrid
