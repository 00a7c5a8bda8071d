#include "hybrid/streams/async_executor.hpp"

#include <algorithm>
#include <limits>

namespace hybrid {

namespace {

TimelineEvent task_event(TimelineEventKind kind, const StreamTask& task, StreamKind as_stream) {
  TimelineEvent e;
  e.kind = kind;
  e.stream = as_stream;
  e.task_id = task.id;
  e.task = task.kind;
  e.cost = task.estimated_cost;
  return e;
}

}  // namespace

std::vector<std::string> AsyncExecutor::timeline() const {
  std::vector<std::string> out;
  out.reserve(events_.size());
  for (const TimelineEvent& e : events_) out.push_back(render(e));
  return out;
}

std::deque<StreamTask>& AsyncExecutor::queue_for(StreamKind stream) {
  switch (stream) {
    case StreamKind::gpu: return gpu_q_;
    case StreamKind::ssd_prefetch: return ssd_q_;
    case StreamKind::cpu: break;
  }
  return cpu_q_;
}

std::uint64_t AsyncExecutor::submit(StreamKind stream, TaskKind kind, std::uint64_t cost) {
  return submit(stream, std::move(kind), cost, {});
}

std::uint64_t AsyncExecutor::submit(StreamKind stream, TaskKind kind, std::uint64_t cost,
                                    const std::vector<std::string>& tensors) {
  const std::uint64_t id = next_id_;
  if (next_id_ != std::numeric_limits<std::uint64_t>::max()) ++next_id_;  // saturating
  StreamTask task{id, stream, std::move(kind), cost, {}};
  for (const std::string& t : tensors) {
    auto [it, fresh] = last_task_for_tensor_.try_emplace(t, id);
    if (!fresh) {
      task.after.push_back(it->second);
      it->second = id;
    }
  }
  events_.push_back(task_event(TimelineEventKind::enqueue, task, stream));
  queue_for(stream).push_back(std::move(task));
  return id;
}

void AsyncExecutor::record_run(StreamKind as_stream, const StreamTask& task) {
  events_.push_back(task_event(TimelineEventKind::run, task, as_stream));
  done_.insert(task.id);
}

void AsyncExecutor::run_to_completion() {
  if (cfg_.advanced_streams_supported) {
    run_advanced();
  } else {
    run_fallback();
  }
}

void AsyncExecutor::run_advanced() {
  constexpr StreamKind kRotation[] = {StreamKind::cpu, StreamKind::gpu, StreamKind::ssd_prefetch};
  auto ready = [&](const StreamTask& t) {
    return std::ranges::all_of(t.after, [&](std::uint64_t id) { return done_.contains(id); });
  };
  // The globally oldest pending task is at the front of its queue and depends only on older
  // tasks, all run: every round of three visits runs at least one task.
  for (std::size_t i = 0; pending() > 0; ++i) {
    auto& q = queue_for(kRotation[i % 3]);
    if (q.empty() || !ready(q.front())) continue;
    StreamTask task = std::move(q.front());
    q.pop_front();
    record_run(task.stream, task);
  }
}

void AsyncExecutor::run_fallback() {
  // One CPU stream runs everything, in the order it was submitted (the program's order).
  while (pending() > 0) {
    std::deque<StreamTask>* oldest = nullptr;
    for (StreamKind stream : {StreamKind::cpu, StreamKind::gpu, StreamKind::ssd_prefetch}) {
      auto& q = queue_for(stream);
      if (!q.empty() && (oldest == nullptr || q.front().id < oldest->front().id)) oldest = &q;
    }
    StreamTask task = std::move(oldest->front());
    oldest->pop_front();
    if (task.stream != StreamKind::cpu) {
      events_.push_back(task_event(TimelineEventKind::fallback, task, task.stream));
    }
    record_run(StreamKind::cpu, task);
  }
}

}  // namespace hybrid
