#pragma once
// Chrome trace-event JSON (opens in Perfetto / chrome://tracing), as atenia simulate and nltrain
// train --trace-out write it: processes and their tracks named once, then complete slices ("X",
// start and duration in microseconds) and counters ("C"), in the order they were added, so the
// same events give the same bytes.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace hybrid {

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

 private:
  nlohmann::ordered_json events_ = nlohmann::ordered_json::array();
};

}  // namespace hybrid
