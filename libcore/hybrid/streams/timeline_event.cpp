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
    case TimelineEventKind::Enqueue: return "ENQUEUE " + task_fields(e);
    case TimelineEventKind::Run: return "RUN " + task_fields(e);
    case TimelineEventKind::Fallback: return fmt::format("FALLBACK stream={} id={} -> Cpu", to_string(e.stream), e.task_id);
    case TimelineEventKind::TickStart: return fmt::format("TICK_START tick={}", e.tick);
    case TimelineEventKind::OffloadPlan:
      return fmt::format("OFFLOAD_PLAN tick={} actions={} reason={}", e.tick, e.actions, e.reason);
    case TimelineEventKind::OffloadMove:
      return fmt::format("OFFLOAD_MOVE tick={} tensor={} from={} to={}", e.tick, e.tensor, e.from, e.to);
    case TimelineEventKind::OffloadApply: return fmt::format("OFFLOAD_APPLY tick={} {}", e.tick, e.outcome);
    case TimelineEventKind::TickEnd: return fmt::format("TICK_END tick={}", e.tick);
    case TimelineEventKind::Note: break;
  }
  return e.text;
}

}  // namespace hybrid
