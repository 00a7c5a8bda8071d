#pragma once
// APX 13.4.0: a single-threaded mock executor. Tasks wait in per-stream FIFO queues; running them
// only records lines in a timeline, so the order of work is observable and deterministic.
//
// Timeline lines (exact formats):
//   ENQUEUE stream=<S> id=<n> kind=<Compute|Transfer|Io> name=<name> cost=<c>
//   RUN stream=<S> id=<n> kind=<K> name=<name> cost=<c>
//   FALLBACK stream=<Gpu|SsdPrefetch> id=<n> -> Cpu       (fallback mode, before the task's RUN)
// Other components (the batch loop) append their own lines through record().
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "hybrid/streams/stream_types.hpp"
#include "hybrid/streams/timeline_event.hpp"

namespace hybrid {

class AsyncExecutor {
 public:
  explicit AsyncExecutor(StreamConfig cfg) : cfg_(cfg) {}

  // Queues a task and returns its id (1, 2, 3... across all streams).
  std::uint64_t submit(StreamKind stream, TaskKind kind, std::uint64_t cost);
  // The same, for a task that reads or writes `tensors`: it runs only after the last task
  // submitted for any of them, whatever stream that one is on (a move finishes before the
  // kernel that reads the moved tensor starts).
  std::uint64_t submit(StreamKind stream, TaskKind kind, std::uint64_t cost, const std::vector<std::string>& tensors);

  // Drains every queue, never running a task before the tasks it comes after. Advanced mode
  // visits Cpu, Gpu, SsdPrefetch in turn (step i picks i % 3) and runs the front task of the
  // visited queue when it has one whose predecessors have run (else that stream waits this
  // turn). Fallback mode runs every task in submission order as CPU work.
  void run_to_completion();

  // A line of another component's own: kept as a Note, rendered as it is.
  void record(std::string line) {
    TimelineEvent e;
    e.text = std::move(line);
    events_.push_back(std::move(e));
  }
  void record(TimelineEvent e) { events_.push_back(std::move(e)); }

  // The timeline as data, and as text lines (each event rendered).
  [[nodiscard]] const std::vector<TimelineEvent>& events() const { return events_; }
  [[nodiscard]] std::vector<std::string> timeline() const;
  [[nodiscard]] const StreamConfig& config() const { return cfg_; }
  [[nodiscard]] std::size_t pending() const { return cpu_q_.size() + gpu_q_.size() + ssd_q_.size(); }

 private:
  void run_advanced();
  void run_fallback();
  void record_run(StreamKind as_stream, const StreamTask& task);
  std::deque<StreamTask>& queue_for(StreamKind stream);

  StreamConfig cfg_;
  std::deque<StreamTask> cpu_q_;
  std::deque<StreamTask> gpu_q_;
  std::deque<StreamTask> ssd_q_;
  std::vector<TimelineEvent> events_;
  std::uint64_t next_id_ = 1;
  std::map<std::string, std::uint64_t, std::less<>> last_task_for_tensor_;
  std::set<std::uint64_t> done_;
};

}  // namespace hybrid
