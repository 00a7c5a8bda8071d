#include "hybrid/trace/trace_events.hpp"

namespace hybrid {

void TraceEvents::name_process(int pid, const std::string& name) {
  events_.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}});
}

void TraceEvents::name_track(int pid, int tid, const std::string& name) {
  events_.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
}

void TraceEvents::slice(int pid, int tid, const std::string& name, const std::string& category, double start_us, double dur_us,
                        const std::vector<std::pair<std::string, std::string>>& args) {
  nlohmann::ordered_json e{{"name", name}, {"cat", category}, {"ph", "X"}, {"ts", start_us}, {"dur", dur_us}, {"pid", pid}, {"tid", tid}};
  nlohmann::ordered_json a = nlohmann::ordered_json::object();
  for (const auto& [k, v] : args) {
    if (!v.empty()) a[k] = v;
  }
  if (!a.empty()) e["args"] = std::move(a);
  events_.push_back(std::move(e));
}

void TraceEvents::counter(int pid, const std::string& name, double at_us, const std::string& series, nlohmann::ordered_json value) {
  events_.push_back({{"name", name}, {"ph", "C"}, {"ts", at_us}, {"pid", pid}, {"args", {{series, std::move(value)}}}});
}

std::string TraceEvents::items(bool after_earlier) const {
  std::string out;
  for (const auto& e : events_) {
    if (after_earlier || !out.empty()) out += ',';
    out += e.dump();
  }
  return out;
}

std::string TraceEvents::json() const { return std::string(kTraceHead) + items(false) + std::string(kTraceTail); }

std::string TraceEvents::take_items(bool after_earlier) {
  std::string out = items(after_earlier);
  events_ = nlohmann::ordered_json::array();
  return out;
}

}  // namespace hybrid
