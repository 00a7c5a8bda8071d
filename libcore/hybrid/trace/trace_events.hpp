#pragma once
// Chrome trace-event JSON (opens in Perfetto / chrome://tracing), as atenia simulate and nltrain
// train --trace-out write it: processes and their tracks named once, then complete slices ("X",
// start and duration in microseconds) and counters ("C"), in the order they were added, so the
// same events give the same bytes. A long run takes its events as they come (take_items) and
// streams them to a file (trace_file.hpp) between kTraceHead and kTraceTail, so the events of a
// run are never all held at once; the bytes are those json() gives for the same events.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace hybrid {

inline constexpr std::string_view kTraceHead = "{\"traceEvents\":[";
inline constexpr std::string_view kTraceTail = "],\"displayTimeUnit\":\"ms\"}\n";

class TraceEvents {
 public:
  void name_process(int pid, const std::string& name);
  void name_track(int pid, int tid, const std::string& name);
  // `args` (name, text value) are shown with the slice; empty ones are left out.
  void slice(int pid, int tid, const std::string& name, const std::string& category, double start_us, double dur_us,
             const std::vector<std::pair<std::string, std::string>>& args = {});
  void counter(int pid, const std::string& name, double at_us, const std::string& series, nlohmann::ordered_json value);

  [[nodiscard]] std::size_t size() const { return events_.size(); }
  // {"traceEvents":[...],"displayTimeUnit":"ms"} and a newline.
  [[nodiscard]] std::string json() const;
  // The events added since the last take as array items ("," between them, and before the first
  // when `after_earlier`: items were written before), then forgets them.
  [[nodiscard]] std::string take_items(bool after_earlier);

 private:
  [[nodiscard]] std::string items(bool after_earlier) const;

  nlohmann::ordered_json events_ = nlohmann::ordered_json::array();
};

}  // namespace hybrid
