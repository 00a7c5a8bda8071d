#include "chrome_trace.hpp"

#include <nlohmann/json.hpp>

namespace atenia::cli {

namespace {

constexpr int kTickTrack = 1, kGraphTrack = 2, kOffloadTrack = 3;

nlohmann::ordered_json thread_name(int tid, const char* name) {
  return {{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"name", name}}}};
}

}  // namespace

std::string chrome_trace_json(const std::vector<std::string>& timeline) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "atenia simulate"}}}});
  events.push_back(thread_name(kTickTrack, "ticks"));
  events.push_back(thread_name(kGraphTrack, "graph"));
  events.push_back(thread_name(kOffloadTrack, "offload"));
  long open_tick_ts = -1;
  std::string open_tick;
  for (std::size_t i = 0; i < timeline.size(); ++i) {
    const std::string& line = timeline[i];
    const long ts = static_cast<long>(i) * kTraceStepMicros;
    const std::string head = line.substr(0, line.find(' '));
    const std::string rest = line.size() > head.size() ? line.substr(head.size() + 1) : "";
    if (head == "TICK_START") {
      open_tick_ts = ts;
      open_tick = rest;
      continue;
    }
    if (head == "TICK_END" && open_tick_ts >= 0) {
      events.push_back({{"name", open_tick}, {"cat", "tick"}, {"ph", "X"}, {"ts", open_tick_ts},
                        {"dur", ts + kTraceStepMicros - open_tick_ts}, {"pid", 1}, {"tid", kTickTrack}});
      open_tick_ts = -1;
      continue;
    }
    const bool offload = head.rfind("OFFLOAD", 0) == 0;
    events.push_back({{"name", head}, {"cat", offload ? "offload" : "graph"}, {"ph", "X"}, {"ts", ts},
                      {"dur", kTraceStepMicros}, {"pid", 1}, {"tid", offload ? kOffloadTrack : kGraphTrack},
                      {"args", {{"line", line}}}});
  }
  if (open_tick_ts >= 0) {  // a run stopped by an offload error has no TICK_END
    const long end = static_cast<long>(timeline.size()) * kTraceStepMicros;
    events.push_back({{"name", open_tick + " (stopped)"}, {"cat", "tick"}, {"ph", "X"}, {"ts", open_tick_ts},
                      {"dur", end - open_tick_ts}, {"pid", 1}, {"tid", kTickTrack}});
  }
  nlohmann::ordered_json doc{{"traceEvents", events}, {"displayTimeUnit", "ms"}};
  return doc.dump() + "\n";
}

}  // namespace atenia::cli
