#include "hybrid/streams/timeline_event.hpp"

#include <fmt/format.h>

namespace hybrid {

namespace {

std::string task_fields(const TimelineEvent& e) {
  return fmt::format("stream={} id={} kind={} name={} cost={}", to_string(e.stream), e.task_id,
                     to_string(e.task.category), e.task.name, e.cost);
}

}  // namespace

std::string render(const TimelineEvent& e) {
  switch (e.kind) {
    case TimelineEventKind::enqueue: return "ENQUEUE " + task_fields(e);
    case TimelineEventKind::run: return "RUN " + task_fields(e);
    case TimelineEventKind::fallback: return fmt::format("FALLBACK stream={} id={} -> Cpu", to_string(e.stream), e.task_id);
    case TimelineEventKind::tick_start: return fmt::format("TICK_START tick={}", e.tick);
    case TimelineEventKind::offload_plan:
      return fmt::format("OFFLOAD_PLAN tick={} actions={} reason={}", e.tick, e.actions, e.reason);
    case TimelineEventKind::offload_move:
      return fmt::format("OFFLOAD_MOVE tick={} tensor={} from={} to={}", e.tick, e.tensor, e.from, e.to);
    case TimelineEventKind::offload_apply: return fmt::format("OFFLOAD_APPLY tick={} {}", e.tick, e.outcome);
    case TimelineEventKind::tick_end: return fmt::format("TICK_END tick={}", e.tick);
    case TimelineEventKind::note: break;
  }
  return e.text;
}

}  // namespace hybrid
